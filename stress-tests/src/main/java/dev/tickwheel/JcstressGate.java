package dev.tickwheel;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.openjdk.jcstress.infra.runners.TestList;

/**
 * The build's gate around a jcstress run: runs {@code java -jar jcstress.jar} with the given selection and mode,
 * echoes its output, and exits non-zero unless every selected test ran and passed.
 *
 * <p>jcstress's own exit status is not enough: 0.16 exits 0 with "FATAL: No matching tests." when the {@code -t}
 * regex selects nothing, and a test that was silently not compiled into the jar is simply not run. So the gate
 * also requires that the selection is non-empty, that the summary line reports results with none failed or in
 * error, and that the HTML report lists every selected test of {@code META-INF/TestList} as PASSED with samples.
 *
 * <pre>
 * java -cp jcstress.jar dev.tickwheel.JcstressGate --tests REGEX --results DIR [--mode quick] [--extra="-c 2"]
 *      [--full REGEX --reduced-extra="-sc false"] [--biased-locking=false]
 * </pre>
 * The jar is the one this class was loaded from. With {@code --full}, the selection runs in two tiers, one jcstress
 * run each (reports under {@code DIR/full} and {@code DIR/reduced}): the selected tests the {@code --full} regex
 * finds run with {@code --extra} alone, every other selected test with {@code --extra} and then
 * {@code --reduced-extra}; each tier is checked as above. {@code --biased-locking=false} (the default) leaves out
 * jcstress's biased-locking configurations (see {@link #run}).
 */
public final class JcstressGate {

    private static final Pattern SUMMARY = Pattern.compile(
            "\\(Results: (\\d+) planned; (\\d+) passed, (\\d+) failed, (\\d+) soft errs, (\\d+) hard errs\\)");
    private static final Pattern INDEX_ROW = Pattern.compile(
            "<a href=\"[^\"]+\\.html\">([^<]+)</a></td>\\s*<td>.*?</td>\\s*<td class=\"\\w+\">(\\w+)</td>");
    private static final Pattern SAMPLE_CELL = Pattern.compile("<td align='right'[^>]*>(\\d+)</td>");

    private JcstressGate() {
    }

    public static void main(String[] args) throws Exception {
        String tests = null;
        String results = null;
        String mode = "quick";
        String extra = "";
        String full = null;
        String reducedExtra = "";
        boolean biasedLocking = false; // see run
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.startsWith("--biased-locking=")) {
                biasedLocking = Boolean.parseBoolean(a.substring("--biased-locking=".length()));
            } else if (a.startsWith("--extra=")) {
                extra = a.substring("--extra=".length());
            } else if (a.startsWith("--reduced-extra=")) {
                reducedExtra = a.substring("--reduced-extra=".length());
            } else if (a.equals("--full") && i + 1 < args.length) {
                full = args[++i];
            } else if (a.equals("--tests") && i + 1 < args.length) {
                tests = args[++i];
            } else if (a.equals("--results") && i + 1 < args.length) {
                results = args[++i];
            } else if (a.equals("--mode") && i + 1 < args.length) {
                mode = args[++i];
            } else {
                usage("unknown or incomplete argument '" + a + "'");
            }
        }
        if (tests == null || tests.isBlank() || results == null || results.isBlank()) {
            usage("--tests and --results are required");
        }
        System.exit(run(tests, full, Paths.get(results), mode, extra, reducedExtra, biasedLocking));
    }

    private static void usage(String why) {
        System.err.println("JcstressGate: " + why);
        System.err.println("usage: java -cp jcstress.jar dev.tickwheel.JcstressGate --tests REGEX --results DIR"
                + " [--mode MODE] [--extra=\"JCSTRESS OPTIONS\"] [--full REGEX --reduced-extra=\"JCSTRESS OPTIONS\"]"
                + " [--biased-locking=true|false]");
        System.exit(2);
    }

    /**
     * Runs the selection, in two tiers if {@code full} is given.
     *
     * @param biasedLocking whether jcstress may run the tests in its biased-locking configurations too (each JVM
     *        configuration once with {@code -XX:+UseBiasedLocking} and once with {@code -XX:-UseBiasedLocking}, which
     *        doubles a tier's time). Off by default since 2026-11-27: biased locking is off by default since JDK 15,
     *        deprecated, and gone from JDK 18 on (where jcstress leaves those configurations out by itself), and the
     *        library's races take no monitor. When false the gate runs jcstress with a class path that starts with a
     *        stand-in for jcstress's probe main ({@link #withoutBiasedLockingProbe}), so that its probe for biased
     *        locking reports it unavailable, as on a JDK 18 or later; every other probe and configuration is
     *        jcstress's own.
     * @return 0 if every tier passed, else 1
     */
    private static int run(String tests, String full, Path results, String mode, String extra, String reducedExtra,
                           boolean biasedLocking) throws Exception {
        Collection<String> all = TestList.tests();
        List<String> selected = select(all, tests);
        if (selected.isEmpty()) {
            System.out.println("[jcstress gate] FAILED: the selection '" + tests + "' matches none of the " + all.size()
                    + " tests in META-INF/TestList " + new TreeSet<>(all));
            return 1;
        }
        if (full == null) {
            return runTier("", selected, tests, results, mode, extra, biasedLocking);
        }
        List<List<String>> tiers = tiers(selected, full);
        int failed = 0;
        long start = System.nanoTime();
        if (!tiers.get(0).isEmpty()) {
            failed |= runTier("full tier: ", tiers.get(0), exactly(tiers.get(0)), results.resolve("full"), mode, extra,
                    biasedLocking);
        }
        if (!tiers.get(1).isEmpty()) {
            failed |= runTier("reduced tier (" + reducedExtra.trim() + "): ", tiers.get(1), exactly(tiers.get(1)),
                    results.resolve("reduced"), mode, extra + " " + reducedExtra, biasedLocking);
        }
        System.out.printf(Locale.ROOT, "[jcstress gate] %s: %d tests in two tiers (%d full, %d reduced), %d s%n",
                failed == 0 ? "PASSED" : "FAILED", selected.size(), tiers.get(0).size(), tiers.get(1).size(),
                (System.nanoTime() - start) / 1_000_000_000L);
        return failed;
    }

    /** The selected tests split in two: those the {@code full} regex finds, then the others. */
    static List<List<String>> tiers(List<String> selected, String full) {
        List<String> inFull = select(selected, full);
        List<String> rest = new ArrayList<>(selected);
        rest.removeAll(inFull);
        return List.of(inFull, rest);
    }

    /** A jcstress {@code -t} regex that selects exactly these tests. */
    static String exactly(List<String> tests) {
        StringBuilder b = new StringBuilder("^(");
        for (int i = 0; i < tests.size(); i++) {
            b.append(i == 0 ? "" : "|").append(Pattern.quote(tests.get(i)));
        }
        return b.append(")$").toString();
    }

    /** One jcstress run of {@code selected} (which {@code regex} selects), checked. @return 0 if it passed, else 1 */
    private static int runTier(String tier, List<String> selected, String regex, Path results, String mode,
                               String extra, boolean biasedLocking) throws Exception {
        System.out.println("[jcstress gate] " + tier + "running " + selected.size() + " tests in mode " + mode + ": "
                + selected);
        deleteOldReport(results);

        Path jar = Paths.get(JcstressGate.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        if (biasedLocking) {
            cmd.add("-jar");
            cmd.add(jar.toString());
        } else {
            cmd.add("-cp");
            cmd.add(withoutBiasedLockingProbe(results) + File.pathSeparator + jar);
            cmd.add("org.openjdk.jcstress.Main");
        }
        cmd.add("-m");
        cmd.add(mode);
        cmd.add("-t");
        cmd.add(regex);
        cmd.add("-r");
        cmd.add(results.toString());
        for (String x : extra.trim().split("\\s+")) {
            if (!x.isEmpty()) {
                cmd.add(x);
            }
        }
        System.out.println("[jcstress gate] " + String.join(" ", cmd));

        long start = System.nanoTime();
        List<String> output = new ArrayList<>();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                System.out.println(line);
                output.add(line);
            }
        }
        int exit = p.waitFor();
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;

        Path index = results.resolve("index.html");
        String indexHtml = Files.isRegularFile(index) ? Files.readString(index, StandardCharsets.UTF_8) : "";
        Map<String, Long> samples = new TreeMap<>();
        for (String t : selected) {
            Path page = results.resolve(t + ".html");
            if (Files.isRegularFile(page)) {
                samples.put(t, countSamples(Files.readString(page, StandardCharsets.UTF_8)));
            }
        }
        // Sanity mode runs Termination-mode tests for no time at all: they are reported with zero samples.
        List<String> problems = problems(exit, output, selected, statuses(indexHtml), samples,
                !mode.equalsIgnoreCase("sanity"));
        long total = samples.values().stream().mapToLong(Long::longValue).sum();
        System.out.println();
        samples.forEach((t, n) -> System.out.printf(Locale.ROOT, "[jcstress gate] %,15d samples  %s%n", n, t));
        if (problems.isEmpty()) {
            System.out.printf(Locale.ROOT, "[jcstress gate] %sPASSED: %d tests, %,d samples, mode %s, %d s%n",
                    tier, selected.size(), total, mode, seconds);
            return 0;
        }
        System.out.printf(Locale.ROOT, "[jcstress gate] %sFAILED after %d s (report: %s):%n", tier, seconds, index);
        for (String problem : problems) {
            System.out.println("[jcstress gate]   " + problem);
        }
        return 1;
    }

    /** The tests the jcstress {@code -t} option selects: those whose name the regex finds a match in. */
    static List<String> select(Collection<String> all, String regex) {
        Pattern p = Pattern.compile(regex);
        List<String> out = new ArrayList<>();
        for (String t : new TreeSet<>(all)) {
            if (p.matcher(t).find()) {
                out.add(t);
            }
        }
        return out;
    }

    /** Test name to the status (PASSED, FAILED, ERROR, ...) in the "All tests" table of jcstress's index.html. */
    static Map<String, String> statuses(String indexHtml) {
        Map<String, String> out = new TreeMap<>();
        Matcher m = INDEX_ROW.matcher(indexHtml);
        while (m.find()) {
            out.put(m.group(1), m.group(2));
        }
        return out;
    }

    /** The sum of the observed-state counts in a test's report page. */
    static long countSamples(String testHtml) {
        long n = 0;
        Matcher m = SAMPLE_CELL.matcher(testHtml);
        while (m.find()) {
            n += Long.parseLong(m.group(1));
        }
        return n;
    }

    /**
     * Everything that makes the run a failure; empty if it passed.
     *
     * @param exit     jcstress's exit status (1 on a FORBIDDEN or unknown outcome or an error)
     * @param output   its console output
     * @param selected the tests the selection should have run
     * @param statuses the per-test status from the HTML report
     * @param samples  the per-test sample counts from the HTML report (absent if a test has no page)
     * @param needSamples whether every test must show samples
     */
    static List<String> problems(int exit, List<String> output, List<String> selected, Map<String, String> statuses,
                                 Map<String, Long> samples, boolean needSamples) {
        List<String> problems = new ArrayList<>();
        if (exit != 0) {
            problems.add("jcstress exited with status " + exit + " (a FORBIDDEN or unknown outcome, or an error)");
        }
        for (String line : output) {
            if (line.contains("FATAL")) {
                problems.add("jcstress reported: " + line.trim());
            }
        }
        Matcher last = null;
        for (String line : output) {
            Matcher m = SUMMARY.matcher(line);
            if (m.find()) {
                last = m;
            }
        }
        if (last == null) {
            problems.add("no '(Results: ... planned; ...)' summary line in the output: did jcstress run at all?");
        } else {
            long planned = Long.parseLong(last.group(1));
            long passed = Long.parseLong(last.group(2));
            long failed = Long.parseLong(last.group(3));
            long soft = Long.parseLong(last.group(4));
            long hard = Long.parseLong(last.group(5));
            if (planned == 0 || passed != planned || failed != 0 || soft != 0 || hard != 0) {
                problems.add("summary: " + last.group());
            }
        }
        for (String t : selected) {
            String status = statuses.get(t);
            if (status == null) {
                problems.add(t + ": not in the report (it did not run)");
            } else if (!status.equals("PASSED")) {
                problems.add(t + ": " + status);
            }
            Long n = samples.get(t);
            if (needSamples && (n == null || n == 0)) {
                problems.add(t + ": no samples in its report page");
            }
        }
        return problems;
    }

    /** The stand-in for jcstress 0.16's probe main: as jcstress's own (it does nothing), except under biased locking. */
    private static final String PROBE_MAIN = String.join("\n",
            "package org.openjdk.jcstress.vm;",
            "public class SimpleTestMain {",
            "    public static void main(String... args) {",
            "        if (java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()",
            "                .contains(\"-XX:+UseBiasedLocking\")) {",
            "            System.err.println(\"left out by the Tickwheel jcstress gate (--biased-locking=false)\");",
            "            System.exit(1);",
            "        }",
            "    }",
            "}",
            "");

    /**
     * Compiles the probe stand-in into {@code DIR/probe} (under the results directory) and returns that directory, to
     * go before the jcstress jar on the class path. jcstress probes each JVM option by running its
     * {@code org.openjdk.jcstress.vm.SimpleTestMain} with it, on its own class path, and uses the option in its
     * configurations only if that run exits 0; the stand-in exits 1 when biased locking is on.
     */
    static Path withoutBiasedLockingProbe(Path results) throws IOException {
        Path dir = results.resolve("probe");
        Path src = dir.resolve("src").resolve("SimpleTestMain.java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, PROBE_MAIN, StandardCharsets.UTF_8);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("--biased-locking=false needs a JDK (javax.tools) to compile the probe"
                    + " stand-in; java.home is " + System.getProperty("java.home"));
        }
        Path classes = dir.resolve("classes");
        Files.createDirectories(classes);
        int rc = javac.run(null, null, null, "-d", classes.toString(), src.toString());
        if (rc != 0) {
            throw new IllegalStateException("javac failed (" + rc + ") on the probe stand-in " + src);
        }
        return classes;
    }

    /** Removes the HTML pages of an earlier run, so that a test that does not run now cannot look as if it did. */
    private static void deleteOldReport(Path results) throws IOException {
        if (!Files.isDirectory(results)) {
            return;
        }
        try (DirectoryStream<Path> pages = Files.newDirectoryStream(results, "*.html")) {
            for (Path page : pages) {
                Files.delete(page);
            }
        }
    }
}
