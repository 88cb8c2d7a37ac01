package dev.tickwheel.bench.suite;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import org.openjdk.jmh.runner.RunnerException;

/**
 * Runs the scenarios, one after the other, and prints one table of Tickwheel against every peer with ratios, then
 * the targets, each marked met or missed with its figure (not judged if Tickwheel's figure is missing).
 * {@link dev.tickwheel.bench.HeadToHead} runs a short selection with few iterations;
 * {@link dev.tickwheel.bench.FullSuite} runs everything with the benchmarks' own iteration counts and draws the
 * chart. The JMH scenarios run through JMH's API with the benchmarks' fixed-heap forks; the plain scenarios run in
 * child JVMs with the same flags. The options are {@link Settings}'. A peer this JVM cannot run (the ForkJoinPool
 * peers before JDK 25) has no column and a note instead.
 */
public final class Suite {
    /** Every scenario, in the order a run takes them. */
    private static final List<Scenario> SCENARIOS = List.of(new ScheduleCancelScenario(),
            new CpuPerOperationScenario(), new ExpiryScenario(), new RetainedMemoryScenario(), new LatenessScenario(),
            new IdleCpuScenario(), new ScalingScenario(), new WheelAloneScenario(), new FiringScenario());

    private Suite() {
    }

    /** Runs the scenarios the settings select, prints the report and writes it to {@code <out>/results.md}. */
    public static void run(Settings settings) throws IOException {
        Files.createDirectories(settings.out);
        RunEnvironment env = RunEnvironment.capture();
        String header = env.header(settings.name);
        System.out.println(header);
        System.out.println();
        Results results = new Results();
        for (String note : settings.skipNotes()) {
            System.out.println(note);
            results.note(note);
        }
        JmhRunner jmh = new JmhRunner(settings);
        try {
            for (Scenario s : SCENARIOS) {
                if (settings.scenarios.contains(s.number)) {
                    System.out.println(RunEnvironment.progress(s.title, s.runs.applyAsInt(settings)));
                    s.run(settings, jmh, results);
                }
            }
        } catch (RunnerException e) {
            throw new IllegalStateException("a benchmark failed: " + e.getMessage(), e);
        }
        String report = header + env.finished() + "\n\n" + Report.render(results);
        System.out.println();
        System.out.println(report);
        Files.write(settings.out.resolve("results.md"), report.getBytes(StandardCharsets.UTF_8));
        System.out.println("wrote " + settings.out.resolve("results.md"));
    }
}
