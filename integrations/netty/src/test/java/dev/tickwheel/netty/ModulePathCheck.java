package dev.tickwheel.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JPMS user's first run, as a build check (issue 22): two small named modules, one that {@code requires
 * dev.tickwheel} and one that {@code requires dev.tickwheel.netty}, are compiled against the jars this build packaged
 * (the modules' own, JCTools' and Netty's, nothing else on the module path, no extra flag) and run with {@code java
 * --module-path ... -m app/app.Main} on this JDK (17 in CI) and on JDK 25, the second time with
 * {@code --sun-misc-unsafe-memory-access=deny}. Each program creates a timer, schedules, cancels, reschedules, runs a
 * periodic task and shuts down, then prints one line. The check fails unless that line is printed and standard error
 * is empty: JDK 25 warns on standard error the first time anything calls {@code sun.misc.Unsafe}'s memory methods,
 * and under {@code deny} such a call throws, so a runtime class of ours (or of the queues we ship on) that reaches
 * {@code Unsafe} fails here.
 *
 * <p>Runs in the {@code integration-test} phase (after {@code package}, so this module's jar exists); the JDK 25 home
 * is {@code -Dtickwheel.jdk25.home} (default: where these machines have it). Without a JDK 25 there, its runs are
 * skipped with a line saying so; CI's second pass on JDK 25 fails on its own if it is missing.
 */
class ModulePathCheck {

    private static final String CORE_MAIN = String.join("\n",
            "package app;",
            "import dev.tickwheel.TimerFuture;",
            "import dev.tickwheel.WheelTimer;",
            "import java.util.concurrent.CountDownLatch;",
            "import java.util.concurrent.TimeUnit;",
            "public final class Main {",
            "    public static void main(String[] args) throws Exception {",
            "        WheelTimer timer = WheelTimer.create();",
            "        CountDownLatch periodic = new CountDownLatch(3);",
            "        TimerFuture<?> p = timer.scheduleAtFixedRate(periodic::countDown, 0, 1, TimeUnit.MILLISECONDS);",
            "        TimerFuture<?> cancelled = timer.schedule(() -> { throw new AssertionError(); }, 1, TimeUnit.HOURS);",
            "        TimerFuture<String> moved = timer.schedule(() -> \"moved\", 1, TimeUnit.HOURS);",
            "        if (!moved.reschedule(5, TimeUnit.MILLISECONDS)) throw new AssertionError(\"reschedule\");",
            "        if (!cancelled.cancel(false)) throw new AssertionError(\"cancel\");",
            "        String now = timer.submit(() -> \"now\").get(30, TimeUnit.SECONDS);",
            "        String later = moved.get(30, TimeUnit.SECONDS);",
            "        if (!periodic.await(30, TimeUnit.SECONDS)) throw new AssertionError(\"periodic\");",
            "        p.cancel(false);",
            "        timer.shutdown();",
            "        if (!timer.awaitTermination(30, TimeUnit.SECONDS)) throw new AssertionError(\"termination\");",
            "        System.out.println(\"tickwheel module path: \" + now + \" \" + later + \" \" + timer.metrics().fired());",
            "    }",
            "}");

    private static final String NETTY_MAIN = String.join("\n",
            "package app;",
            "import dev.tickwheel.netty.NettyWheelTimer;",
            "import io.netty.util.Timeout;",
            "import java.util.concurrent.CountDownLatch;",
            "import java.util.concurrent.TimeUnit;",
            "public final class Main {",
            "    public static void main(String[] args) throws Exception {",
            "        NettyWheelTimer timer = new NettyWheelTimer();",
            "        CountDownLatch fired = new CountDownLatch(1);",
            "        Timeout never = timer.newTimeout(t -> { throw new AssertionError(); }, 1, TimeUnit.HOURS);",
            "        timer.newTimeout(t -> fired.countDown(), 2, TimeUnit.MILLISECONDS);",
            "        if (!never.cancel()) throw new AssertionError(\"cancel\");",
            "        if (!fired.await(30, TimeUnit.SECONDS)) throw new AssertionError(\"fired\");",
            "        System.out.println(\"tickwheel-netty module path: fired, \" + timer.stop().size() + \" left\");",
            "    }",
            "}");

    /** The jars of the module path: ours (this module's packaged jar, the core's) and the libraries they read. */
    private static List<Path> modulePath;

    @BeforeAll
    static void findJars() {
        String own = System.getProperty("tickwheel.netty.jar");
        assertNotNull(own, "surefire passes this module's jar as tickwheel.netty.jar");
        List<Path> jars = new ArrayList<>();
        jars.add(Paths.get(own));
        String paths = System.getProperty("jdk.module.path", "") + File.pathSeparator
                + System.getProperty("java.class.path", "");
        for (String entry : paths.split(File.pathSeparator)) {
            String name = Paths.get(entry.isEmpty() ? "." : entry).getFileName().toString();
            if (entry.endsWith(".jar") && (name.startsWith("tickwheel-") || name.startsWith("jctools-core")
                    || name.startsWith("netty-common"))) {
                jars.add(Paths.get(entry));
            }
        }
        for (String needed : List.of("tickwheel-0", "jctools-core-jdk11", "jctools-core-4", "netty-common")) {
            assertTrue(jars.stream().anyMatch(j -> j.getFileName().toString().startsWith(needed)),
                    () -> "no " + needed + " jar on the test's paths: " + jars);
        }
        for (Path j : jars) {
            assertTrue(Files.isRegularFile(j), () -> j + " is not a packaged jar (run this in integration-test)");
        }
        modulePath = jars;
    }

    @Test
    void aModuleThatRequiresTheCoreRunsOnJdk17AndJdk25WithoutUnsafe(@TempDir Path dir) throws Exception {
        Path app = compile(dir, "dev.tickwheel", CORE_MAIN, jarsFor(false));
        String line = "tickwheel module path: now moved ";
        runEverywhere(app, jarsFor(false), line);
    }

    @Test
    void aModuleThatRequiresTheNettyAdapterRunsOnJdk17AndJdk25WithoutUnsafe(@TempDir Path dir) throws Exception {
        Path app = compile(dir, "dev.tickwheel.netty", NETTY_MAIN, jarsFor(true));
        runEverywhere(app, jarsFor(true), "tickwheel-netty module path: fired, 0 left");
    }

    /** The module path for one program: the Netty adapter and Netty only for the one that requires them. */
    private static List<Path> jarsFor(boolean netty) {
        return modulePath.stream().filter(j -> {
            String n = j.getFileName().toString();
            return netty || !(n.startsWith("tickwheel-netty") || n.startsWith("netty-common"));
        }).collect(Collectors.toList());
    }

    private static Path compile(Path dir, String requires, String main, List<Path> jars) throws Exception {
        Path src = dir.resolve("src");
        Path out = dir.resolve("app");
        Files.createDirectories(src.resolve("app"));
        Files.writeString(src.resolve("module-info.java"), "module app { requires " + requires + "; }\n");
        Files.writeString(src.resolve("app/Main.java"), main + "\n");
        String javac = Paths.get(System.getProperty("java.home"), "bin", "javac").toString();
        List<String> cmd = new ArrayList<>(List.of(javac, "--release", "17", "-d", out.toString(), "--module-path",
                join(jars), src.resolve("module-info.java").toString(), src.resolve("app/Main.java").toString()));
        Result r = exec(cmd);
        assertEquals(0, r.code, () -> "javac of the module that requires " + requires + ": " + r.out + r.err);
        return out;
    }

    private static void runEverywhere(Path app, List<Path> jars, String expected) throws Exception {
        String here = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        run(here, List.of(), app, jars, expected);
        Path jdk25 = Paths.get(System.getProperty("tickwheel.jdk25.home", "/usr/lib/jvm/temurin-25-jdk-amd64"));
        Path java25 = jdk25.resolve("bin").resolve("java");
        if (!Files.isExecutable(java25)) {
            System.out.println("ModulePathCheck: no JDK 25 at " + jdk25 + " (set -Dtickwheel.jdk25.home): its runs"
                    + " are skipped here");
            return;
        }
        run(java25.toString(), List.of(), app, jars, expected);
        run(java25.toString(), List.of("--sun-misc-unsafe-memory-access=deny"), app, jars, expected);
    }

    private static void run(String java, List<String> flags, Path app, List<Path> jars, String expected)
            throws Exception {
        List<Path> path = new ArrayList<>(jars);
        path.add(app);
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(flags);
        cmd.addAll(Arrays.asList("--module-path", join(path), "-m", "app/app.Main"));
        Result r = exec(cmd);
        String out = r.out;
        String err = r.err;
        String what = String.join(" ", cmd);
        assertEquals(0, r.code, () -> what + "\nstdout: " + out + "\nstderr: " + err);
        assertTrue(out.startsWith(expected), () -> what + " printed '" + out + "', expected '" + expected + "...'");
        assertEquals("", err, () -> what + " wrote to standard error");
        System.out.println("ModulePathCheck: " + out + "  <- " + java + " " + String.join(" ", flags));
    }

    /** A finished child process: its exit code, standard output and standard error (each from its own file). */
    private static final class Result {
        final int code;
        final String out;
        final String err;

        Result(int code, String out, String err) {
            this.code = code;
            this.out = out;
            this.err = err;
        }
    }

    private static Result exec(List<String> cmd) throws Exception {
        Path out = Files.createTempFile("modulepath-out", ".txt");
        Path err = Files.createTempFile("modulepath-err", ".txt");
        try {
            Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("did not end within 120 s: " + cmd);
            }
            return new Result(p.exitValue(), Files.readString(out).strip(), Files.readString(err).strip());
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static String join(List<Path> paths) {
        return paths.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
    }
}
