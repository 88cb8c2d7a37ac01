package dev.tickwheel.bench;

import dev.tickwheel.bench.suite.Settings;
import dev.tickwheel.bench.suite.Suite;
import java.io.IOException;

/**
 * The README's head-to-head: about four minutes of short runs (one warm-up and one measured iteration per figure)
 * over the key scenarios, then a table of Tickwheel against each peer with ratios and the targets met or missed.
 * Short runs on shared cores move by tens of percent; {@link FullSuite} gives the figures to quote. Run with a JDK 25
 * {@code java}, it adds the JDK's ForkJoinPool peers (about half a minute more); before 25 a note says they
 * were not run.
 *
 * <pre>
 * mvn -B -ntp -q -pl benchmarks -am package -DskipTests -Djcstress.skip=true
 * java -cp benchmarks/target/benchmarks.jar dev.tickwheel.bench.HeadToHead
 * </pre>
 *
 * Options: {@code --scenarios 1,2,3,4,5,7,8} (6, scaling to 10M, is full-suite only by default; 8 is the firing
 * path: the expiry lag, the worker sweep and the async chain), {@code --out DIR}
 * (default benchmarks/target/head-to-head), {@code --verbose}.
 */
public final class HeadToHead {
    private HeadToHead() {
    }

    public static void main(String[] args) throws IOException {
        Suite.run(Settings.quick(args));
    }
}
