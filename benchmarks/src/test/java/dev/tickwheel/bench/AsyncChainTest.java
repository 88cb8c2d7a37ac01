package dev.tickwheel.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The chain child's two windows: both measured in one JVM and reported, and a steady window that would overlap the
 * first (or an empty one) refused before any executor starts.
 */
class AsyncChainTest {

    @Test
    void aChildReportsTheFirstWindowAndTheSteadyOne() throws Exception {
        PrintStream out = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            AsyncChain.main(new String[] {"--executor", "TICKWHEEL_1_WORKER", "--first-warmup", "1", "--chains", "2",
                    "--warmup", "3"});
        } finally {
            System.setOut(out);
        }
        String line = bytes.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("RESULT")).findFirst()
                .orElseThrow(() -> new AssertionError("no RESULT line in: " + bytes));
        Map<String, String> r = ChildJvm.parse(line);
        assertTrue(Double.parseDouble(r.get("firstMedianMs")) > 0, line);
        assertTrue(Double.parseDouble(r.get("medianMs")) > 0, line);
        assertEquals(4, r.size(), line); // the two medians and the steady window's quartiles
    }

    @Test
    void windowsThatOverlapOrAreEmptyAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AsyncChain.main(new String[] {
            "--executor", "TICKWHEEL", "--first-warmup", "200", "--chains", "41", "--warmup", "240"}));
        assertTrue(e.getMessage().contains("--chains 41, --first-warmup 200, --warmup 240"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> AsyncChain.main(new String[] {
            "--executor", "TICKWHEEL", "--first-warmup", "0", "--chains", "0", "--warmup", "10"}));
        assertTrue(e.getMessage().contains("--chains 0"), e.getMessage());
    }
}
