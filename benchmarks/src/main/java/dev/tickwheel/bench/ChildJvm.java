package dev.tickwheel.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a plain-main scenario in a fresh JVM with the fixed heap flags, as JMH forks do, so that its figures do not
 * depend on how the parent was started or on what ran before it in the same heap. The child reports by printing
 * lines {@code RESULT key=value ...} (values without spaces); its other output is echoed, indented.
 */
public final class ChildJvm {
    /** The fixed heap flags of every benchmark JVM: touching fresh heap is slow on these VMs. */
    public static final List<String> HEAP_FLAGS =
            List.of("-Xms1g", "-Xmx1g", "-Xmn256m", "-XX:+AlwaysPreTouch", "-XX:+UseG1GC");

    private ChildJvm() {
    }

    /**
     * Runs {@code main} in a child JVM and returns its RESULT lines, parsed.
     *
     * @throws IllegalStateException if the child exits with a non-zero status (a failed scenario fails the run)
     */
    public static List<Map<String, String>> run(Class<?> main, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(HEAP_FLAGS);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(main.getName());
        cmd.addAll(args);
        List<Map<String, String>> results = new ArrayList<>();
        try {
            Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.startsWith("RESULT ")) {
                        results.add(parse(line));
                    } else {
                        System.out.println("    " + line);
                    }
                }
            }
            int status = p.waitFor();
            if (status != 0) {
                throw new IllegalStateException(main.getSimpleName() + " " + args + " exited with status " + status);
            }
        } catch (IOException e) {
            throw new IllegalStateException("could not run " + cmd, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + main.getSimpleName(), e);
        }
        return results;
    }

    /** Parses {@code RESULT k=v k=v}. */
    static Map<String, String> parse(String line) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String part : line.substring("RESULT ".length()).trim().split("\\s+")) {
            int eq = part.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("malformed RESULT field '" + part + "' in: " + line);
            }
            m.put(part.substring(0, eq), part.substring(eq + 1));
        }
        return m;
    }

    /** Prints one RESULT line. */
    static void report(Map<String, ?> fields) {
        StringBuilder sb = new StringBuilder("RESULT");
        fields.forEach((k, v) -> sb.append(' ').append(k).append('=').append(v));
        System.out.println(sb);
    }

    /** Parses the peers argument: a comma-separated list of {@link Peer} names. */
    static List<Peer> peers(String csv) {
        List<Peer> out = new ArrayList<>();
        for (String s : csv.split(",")) {
            out.add(Peer.valueOf(s.trim()));
        }
        return out;
    }

    /** Reads {@code --name value} from the arguments, or the default. */
    public static String arg(String[] args, String name, String dflt) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return args[i + 1];
            }
        }
        return dflt;
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    static Map<String, Object> fields(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }
}
