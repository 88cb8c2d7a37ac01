package dev.tickwheel.bench.suite;

import dev.tickwheel.bench.Peer;
import java.io.IOException;
import java.util.Map;
import java.util.function.ToIntFunction;
import org.openjdk.jmh.runner.RunnerException;

/** One step of a run: measures one scenario over the run's peers and puts its figures into the {@link Results}. */
abstract class Scenario {
    /** The scenario it belongs to, as {@code --scenarios} selects it: 1 to 7. */
    final int number;
    /** What the progress line calls it. */
    final String title;
    /** How many JMH forks or child JVMs it starts under the settings, for the progress line. */
    final ToIntFunction<Settings> runs;

    Scenario(int number, String title, ToIntFunction<Settings> runs) {
        this.number = number;
        this.title = title;
        this.runs = runs;
    }

    abstract void run(Settings s, JmhRunner jmh, Results results) throws RunnerException, IOException;

    /** @return the peer a child JVM's RESULT line names */
    static Peer peer(Map<String, String> result) {
        return Peer.valueOf(result.get("peer"));
    }
}
