package dev.tickwheel.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.junit.jupiter.api.Test;

/**
 * The annotation processor ran and generated every benchmark (a jar without them would "pass" and measure
 * nothing), and every benchmark forks with the fixed heap flags.
 */
class BenchmarkListTest {

    @Test
    void benchmarkListNamesEveryScenarioBenchmarkWithFixedHeapFlags() throws IOException {
        List<BenchmarkListEntry> entries;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(BenchmarkList.BENCHMARK_LIST.substring(1))) {
            assertNotNull(in, "META-INF/BenchmarkList is missing: JMH's annotation processor did not run");
            entries = BenchmarkList.readBenchmarkList(in);
        }
        Map<String, Collection<String>> flags = new TreeMap<>();
        for (BenchmarkListEntry e : entries) {
            flags.put(e.getUsername(), e.getJvmArgsAppend().orElse(List.of()));
        }
        Set<String> expected = new TreeSet<>(List.of(
                "dev.tickwheel.bench.ScheduleCancelBenchmark.oneProducer",
                "dev.tickwheel.bench.ScheduleCancelBenchmark.twoProducers",
                "dev.tickwheel.bench.ExpiryBenchmark.oneProducer",
                "dev.tickwheel.bench.ExpiryBenchmark.twoProducers",
                "dev.tickwheel.bench.ScalingBenchmark.scheduleCancel",
                "dev.tickwheel.bench.WheelAloneBenchmark.removeAddAdvance",
                "dev.tickwheel.bench.ColdCascadeBenchmark.advancePastAll",
                "dev.tickwheel.bench.ColdLineFloor.touchOne",
                "dev.tickwheel.bench.ColdLineFloor.touchIndependent",
                "dev.tickwheel.bench.ClockRead.nanoTime",
                "dev.tickwheel.bench.HarnessAllocation.oneProducer",
                "dev.tickwheel.bench.HarnessAllocation.twoProducers",
                "dev.tickwheel.bench.IdleTimeoutBenchmark.reset"));
        assertEquals(expected, flags.keySet());
        flags.forEach((name, args) -> {
            for (String flag : List.of("-Xmn256m", "-XX:+AlwaysPreTouch", "-XX:+UseG1GC")) {
                assertTrue(args.contains(flag), name + " forks without " + flag + ": " + args);
            }
        });
    }
}
