package dev.tickwheel.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tickwheel.bench.report.Json;
import dev.tickwheel.bench.report.ScalingChart;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JSON reader and the chart read JMH's output shape; the child JVM result lines parse. */
class ReportTest {

    private static String run(String peer, String pending, double score) {
        return "{\"jmhVersion\":\"1.37\",\"benchmark\":\"dev.tickwheel.bench.ScalingBenchmark.scheduleCancel\","
                + "\"mode\":\"thrpt\",\"threads\":1,\"params\":{\"peer\":\"" + peer + "\",\"pending\":\"" + pending
                + "\"},\"primaryMetric\":{\"score\":" + score + ",\"scoreError\":\"NaN\",\"scoreUnit\":\"ops/us\","
                + "\"rawData\":[[1.0e1,2.5E-1]]},\"secondaryMetrics\":{}}";
    }

    @Test
    void chartHasOneLinePerPeer(@TempDir Path dir) throws IOException {
        Path json = dir.resolve("scaling.json");
        Files.write(json, ("[" + run("TICKWHEEL", "1000", 12.5) + "," + run("TICKWHEEL", "10000000", 10.25) + ","
                + run("NETTY_1MS", "1000", 5) + "," + run("NETTY_1MS", "10000000", 1.5) + "]")
                .getBytes(StandardCharsets.UTF_8));
        Path svg = dir.resolve("out").resolve("scaling.svg");
        ScalingChart.write(json, svg, "test");
        String s = new String(Files.readAllBytes(svg), StandardCharsets.UTF_8);
        assertTrue(s.startsWith("<svg"));
        assertEquals(2, s.split("<polyline", -1).length - 1, "one line per peer");
        assertTrue(s.contains("Tickwheel, 10M pending: 10.3 ops/µs") || s.contains("Tickwheel, 10M pending: 10.2"));
        assertTrue(s.contains(">Netty 1 ms<"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void jsonReadsNestedValuesAndRejectsGarbage() {
        Map<String, Object> m = (Map<String, Object>) Json.parse("{\"a\":[1,-2.5e3,true,null],\"b\":\"x\\\"y\\u00b5\"}");
        assertEquals(List.of(1.0, -2500.0, true), ((List<Object>) m.get("a")).subList(0, 3));
        assertEquals("x\"yµ", m.get("b"));
        assertThrows(IllegalArgumentException.class, () -> Json.parse("{\"a\":1} x"));
        assertThrows(IllegalArgumentException.class, () -> Json.parse("{\"a\":}"));
    }

    @Test
    void resultLinesParse() {
        assertEquals(Map.of("peer", "KAFKA", "p99ms", "1.250"), ChildJvm.parse("RESULT peer=KAFKA  p99ms=1.250"));
        assertThrows(IllegalArgumentException.class, () -> ChildJvm.parse("RESULT peer"));
    }
}
