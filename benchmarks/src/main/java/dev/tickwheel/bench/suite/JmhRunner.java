package dev.tickwheel.bench.suite;

import dev.tickwheel.bench.Peer;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs a JMH benchmark through JMH's API with the run's iteration counts: one fork (the benchmarks' own
 * {@code @Fork} flags), failing on error, quiet unless {@code --verbose}, and the JSON written to
 * {@code <out>/<name>.json}. Also reads the parameters the scenarios put in.
 */
final class JmhRunner {
    private final Settings settings;

    JmhRunner(Settings settings) {
        this.settings = settings;
    }

    /**
     * @param methods    the benchmark methods to run, as {@code a|b}
     * @param params     {@code @Param} values by name
     * @param gc         with JMH's GC profiler (allocation per operation)
     * @param singleShot single-shot iterations ({@link Settings#shotWarmups}) instead of timed ones
     * @return the results, never empty
     */
    Collection<RunResult> run(String name, Class<?> benchmark, String methods, Map<String, String[]> params,
                              boolean gc, boolean singleShot) throws RunnerException {
        ChainedOptionsBuilder b = new OptionsBuilder()
                .include("^" + Pattern.quote(benchmark.getName()) + "\\.(" + methods + ")$")
                .forks(1)
                .shouldFailOnError(true)
                .verbosity(settings.verbose ? VerboseMode.NORMAL : VerboseMode.SILENT)
                .resultFormat(ResultFormatType.JSON)
                .result(settings.out.resolve(name + ".json").toString());
        params.forEach(b::param);
        if (singleShot) {
            b.warmupIterations(settings.shotWarmups).measurementIterations(settings.shotMeasurements);
        } else {
            b.warmupIterations(settings.warmupIterations).warmupTime(settings.warmupTime)
                    .measurementIterations(settings.measurementIterations).measurementTime(settings.measurementTime);
        }
        if (gc) {
            b.addProfiler(GCProfiler.class);
        }
        Collection<RunResult> results = new Runner(b.build()).run();
        if (results.isEmpty()) {
            throw new IllegalStateException("JMH ran nothing for " + benchmark.getSimpleName() + "." + methods);
        }
        return results;
    }

    /** @return the peers as a {@code peer} parameter */
    static String[] names(List<Peer> peers) {
        return peers.stream().map(Enum::name).toArray(String[]::new);
    }

    /** @return the result's {@code peer} parameter */
    static Peer peer(RunResult r) {
        return Peer.valueOf(r.getParams().getParam("peer"));
    }

    /** @return the result's {@code pending} parameter */
    static long pending(RunResult r) {
        return Long.parseLong(r.getParams().getParam("pending"));
    }
}
