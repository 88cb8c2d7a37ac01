package dev.tickwheel.bench.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tickwheel.bench.Peer;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * The peers each scenario runs: the JDK's ForkJoinPool peers wherever its ScheduledThreadPoolExecutor runs, on a JVM
 * that can run them; on one that cannot, in no scenario, with a note in their place and no column.
 */
class SettingsTest {
    private static final Set<Peer> FORK_JOIN = EnumSet.of(Peer.JDK_FORKJOIN, Peer.JDK_FORKJOIN_COMMON);
    private static final String[] NO_ARGS = {};

    @Test
    void whereTheForkJoinPeersRunTheyRunWhereverTheJdkExecutorDoes() {
        for (Settings s : List.of(Settings.quick(NO_ARGS, p -> true), Settings.full(NO_ARGS, p -> true))) {
            lists(s).forEach((scenario, peers) -> assertEquals(peers.contains(Peer.JDK_STPE),
                    peers.containsAll(FORK_JOIN), s.name + ", " + scenario + ": " + peers));
            assertTrue(lists(s).get("schedule").containsAll(FORK_JOIN), s.name);
            assertEquals(Set.of(), s.skipped);
            assertEquals(List.of(), s.skipNotes());
        }
    }

    @Test
    void whereTheyCannotRunNoScenarioListsThemAndANoteStandsInForTheirColumn() {
        Predicate<Peer> jdk17 = p -> !FORK_JOIN.contains(p);
        for (Settings s : List.of(Settings.quick(NO_ARGS, jdk17), Settings.full(NO_ARGS, jdk17))) {
            lists(s).forEach((scenario, peers) -> assertTrue(peers.stream().noneMatch(FORK_JOIN::contains),
                    s.name + ", " + scenario + ": " + peers));
            assertEquals(FORK_JOIN, s.skipped);
            List<String> notes = s.skipNotes();
            assertEquals(2, notes.size(), notes.toString());
            assertTrue(notes.get(0).startsWith("JDK ForkJoinPool(1) not run: needs JDK 25"), notes.get(0));
            assertTrue(notes.get(1).startsWith("JDK common pool not run: needs JDK 25"), notes.get(1));

            Results results = new Results();
            results.row(Metric.IDLE_CPU, "idle CPU").put(Peer.JDK_STPE, 0);
            notes.forEach(results::note);
            String report = Report.render(results);
            assertTrue(report.contains("\n- " + notes.get(0) + "\n"), report);
            assertFalse(report.contains("| JDK ForkJoinPool(1) |") || report.contains("| JDK common pool |"), report);
        }
    }

    @Test
    void theSettingsOfThisJvmFollowWhatItCanRun() {
        Settings s = Settings.quick(NO_ARGS);
        boolean runs = Peer.JDK_FORKJOIN.available();
        assertEquals(runs, lists(s).get("schedule").contains(Peer.JDK_FORKJOIN));
        assertEquals(runs ? Set.of() : FORK_JOIN, s.skipped);
    }

    private static Map<String, List<Peer>> lists(Settings s) {
        return Map.of("schedule", s.schedulePeers, "expiry", s.expiryPeers, "memory", s.memoryPeers,
                "lateness", s.latenessPeers, "idle", s.idlePeers, "scaling", s.scalingPeers);
    }
}
