package dev.tickwheel.bench;

import dev.tickwheel.bench.suite.Settings;
import dev.tickwheel.bench.suite.Suite;
import java.io.IOException;

/**
 * Every scenario with the benchmarks' full iteration counts and every peer (about 25 minutes), then the table, the
 * targets, {@code results.md}, the JMH JSON of each scenario and the scaling chart in benchmarks/results/.
 *
 * <pre>
 * mvn -B -ntp -q -pl benchmarks -am package -DskipTests -Djcstress.skip=true
 * java -cp benchmarks/target/benchmarks.jar dev.tickwheel.bench.FullSuite
 * </pre>
 *
 * Options as {@link HeadToHead}: {@code --scenarios}, {@code --out DIR} (default benchmarks/results),
 * {@code --verbose}.
 */
public final class FullSuite {
    private FullSuite() {
    }

    public static void main(String[] args) throws IOException {
        Suite.run(Settings.full(args));
    }
}
