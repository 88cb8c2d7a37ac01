package dev.tickwheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.infra.StateCase;
import org.openjdk.jcstress.infra.TestInfo;
import org.openjdk.jcstress.infra.runners.TestList;

/**
 * Checks the jcstress suite without running jcstress: that annotation processing produced every test (a build that
 * silently compiled none would otherwise pass), that every outcome is described, that the CI selection runs all the
 * real tests and not the broken demonstration, that each test's serial interleavings grade as acceptable (so a
 * FORBIDDEN result under jcstress means a race, not a mistake in the test), and the gate's verdicts.
 */
class StressSuiteTest {

    /** Every race test the build must run. Add a new test here when you add it to the suite. */
    static final Set<String> RACE_TESTS = Set.of(
            "dev.tickwheel.HandOffVsStandbyPark",
            "dev.tickwheel.ReadyAtVsStandbyArm",
            "dev.tickwheel.StandbyStepVsOwnerStep",
            "dev.tickwheel.CancelVsFire",
            "dev.tickwheel.CancelVsCancel",
            "dev.tickwheel.CancelVsStartDrain",
            "dev.tickwheel.ScheduleVsShutdownNow",
            "dev.tickwheel.PeriodicStartVsShutdownNow",
            "dev.tickwheel.PeriodicCancelVsReschedule",
            "dev.tickwheel.ScheduleVsParkPlan",
            "dev.tickwheel.ScheduleSpillVsParkPlan", "dev.tickwheel.ScheduleResizeVsParkPlan",
            "dev.tickwheel.ScheduleResizeVsShutdownNow",
            "dev.tickwheel.GetReleasedByFire",
            "dev.tickwheel.GetReleasedByCancel", "dev.tickwheel.GetVsReleaseCompletion",
            "dev.tickwheel.ShutdownVsPeriodicReschedule",
            "dev.tickwheel.CancelVsShutdownNow",
            "dev.tickwheel.ScheduleVsShutdown",
            "dev.tickwheel.CancelInterruptVsRunStart",
            "dev.tickwheel.PeriodicCancelInterruptVsRunStart",
            "dev.tickwheel.ShutdownVsPeriodicRunStart",
            "dev.tickwheel.RevokeVsPark",
            "dev.tickwheel.HandOffVsPark",
            "dev.tickwheel.HandOffVsSpinnerPark",
            "dev.tickwheel.HandOffVsCappedPark",
            "dev.tickwheel.TakeVsHandBack",
            "dev.tickwheel.ExecuteVsShutdownNow",
            "dev.tickwheel.CancelAndAwaitVsRunStart",
            "dev.tickwheel.RescheduleVsFire",
            "dev.tickwheel.RescheduleVsCancel",
            "dev.tickwheel.RescheduleVsReschedule",
            "dev.tickwheel.RescheduleVsOwnersMove",
            "dev.tickwheel.RescheduleVsHandOff",
            "dev.tickwheel.ShutdownVsPeriodicRunEnd",
            "dev.tickwheel.RescheduleVsShutdown",
            "dev.tickwheel.RescheduleVsShutdownNow",
            "dev.tickwheel.CappedPushVsOwnerPark",
            "dev.tickwheel.BatchRecycleVsRefill",
            "dev.tickwheel.HandOffVsParkBehindBatch",
            "dev.tickwheel.HandOffVsParkOwnerBatch",
            "dev.tickwheel.ClaimVsSteal",
            "dev.tickwheel.RefillVsLateThief",
            "dev.tickwheel.HeldBatchVsOwnerPark",
            "dev.tickwheel.StealVsHandBack",
            "dev.tickwheel.HandOffVsStalledStandby",
            "dev.tickwheel.OwnerFailureVsTake",
            "dev.tickwheel.SlotTakeVsMove", "dev.tickwheel.SlotTakeVsHandBack", "dev.tickwheel.SlotMoveVsHandBack",
            "dev.tickwheel.SlotFillVsOwnerPark", "dev.tickwheel.SlotFillVsWatchdogLook",
            "dev.tickwheel.ScheduleChainVsParkPlan", "dev.tickwheel.ScheduleChainVsShutdownNow",
            "dev.tickwheel.RescheduleVsChainedStart", "dev.tickwheel.ShutdownVsChainedPeriodicStart",
            "dev.tickwheel.CancelInterruptVsPoolRunStart", "dev.tickwheel.CancelAndAwaitVsPoolRunStart");

    /** Deliberately broken variants: in the jar, never in the CI run. */
    static final Set<String> BROKEN_TESTS = Set.of("dev.tickwheel.BrokenCancelVsFire",
            "dev.tickwheel.BrokenHandOffVsStandbyPark", "dev.tickwheel.BrokenReadyAtVsStandbyArm",
            "dev.tickwheel.BrokenStandbyStepVsOwnerStep",
            "dev.tickwheel.BrokenHandOffVsPark", "dev.tickwheel.BrokenHandOffVsSpinnerPark",
            "dev.tickwheel.BrokenHandOffVsCappedPark", "dev.tickwheel.BrokenCappedPushVsOwnerPark",
            "dev.tickwheel.BrokenTakeVsHandBack", "dev.tickwheel.BrokenExecuteVsShutdownNow",
            "dev.tickwheel.BrokenShutdownVsPeriodicRunEnd", "dev.tickwheel.BrokenRescheduleVsShutdown",
            "dev.tickwheel.BrokenRefillVsLateThief", "dev.tickwheel.BrokenStealVsHandBack",
            "dev.tickwheel.BrokenHandOffVsParkBehindBatch", "dev.tickwheel.BrokenScheduleSpillVsParkPlan",
            "dev.tickwheel.BrokenScheduleResizeVsParkPlan", "dev.tickwheel.BrokenHandOffVsStalledStandby",
            "dev.tickwheel.BrokenOwnerFailureVsTake",
            "dev.tickwheel.BrokenSlotTakeVsMove", "dev.tickwheel.BrokenSlotTakeVsHandBack",
            "dev.tickwheel.BrokenSlotMoveVsHandBack", "dev.tickwheel.BrokenSlotFillVsOwnerPark",
            "dev.tickwheel.BrokenSlotFillVsWatchdogLook", "dev.tickwheel.BrokenGetVsReleaseCompletion",
            "dev.tickwheel.BrokenScheduleChainVsParkPlan", "dev.tickwheel.BrokenRescheduleVsChainedStart",
            "dev.tickwheel.BrokenCancelInterruptVsPoolRunStart");

    @Test
    void testListNamesEveryTestAndNothingElse() {
        Set<String> expected = new TreeSet<>(RACE_TESTS);
        expected.addAll(BROKEN_TESTS);
        assertEquals(expected, new TreeSet<>(TestList.tests()),
                "META-INF/TestList (generated by the jcstress annotation processor)");
    }

    @Test
    void ciSelectionRunsEveryRaceTestAndNoBrokenOne() {
        String regex = System.getProperty("jcstress.tests");
        assertNotNull(regex, "surefire passes the pom's jcstress.tests selection");
        assertEquals(new TreeSet<>(RACE_TESTS), new TreeSet<>(JcstressGate.select(TestList.tests(), regex)),
                "the tests selected by " + regex);
    }

    /** The pool's races, whose windows are a few instructions wide: the gate runs them in every JVM configuration. */
    static final Set<String> FULL_TIER = Set.of("dev.tickwheel.HandOffVsPark", "dev.tickwheel.HandOffVsSpinnerPark",
            "dev.tickwheel.HandOffVsCappedPark", "dev.tickwheel.HandOffVsStandbyPark",
            "dev.tickwheel.ReadyAtVsStandbyArm", "dev.tickwheel.StandbyStepVsOwnerStep", "dev.tickwheel.TakeVsHandBack",
            "dev.tickwheel.ExecuteVsShutdownNow", "dev.tickwheel.CappedPushVsOwnerPark",
            "dev.tickwheel.HandOffVsParkOwnerBatch", "dev.tickwheel.RefillVsLateThief",
            "dev.tickwheel.StealVsHandBack", "dev.tickwheel.HandOffVsStalledStandby",
            "dev.tickwheel.CancelInterruptVsPoolRunStart");

    @Test
    void ciTiersRunThePoolsRacesInFullAndEveryOtherRaceReduced() {
        String regex = System.getProperty("jcstress.tests");
        String full = System.getProperty("jcstress.fullTests");
        assertNotNull(full, "surefire passes the pom's jcstress.fullTests selection");
        List<List<String>> tiers = JcstressGate.tiers(JcstressGate.select(TestList.tests(), regex), full);
        assertEquals(new TreeSet<>(FULL_TIER), new TreeSet<>(tiers.get(0)), "the full tier");
        Set<String> rest = new TreeSet<>(RACE_TESTS);
        rest.removeAll(FULL_TIER);
        assertEquals(rest, new TreeSet<>(tiers.get(1)), "the reduced tier");
        for (List<String> tier : tiers) {
            assertEquals(tier, JcstressGate.select(TestList.tests(), JcstressGate.exactly(tier)),
                    "the -t regex of a tier selects exactly its tests");
        }
    }

    static List<String> allTests() {
        return new ArrayList<>(new TreeSet<>(TestList.tests()));
    }

    @ParameterizedTest
    @MethodSource("allTests")
    void everyOutcomeIsDescribedAndSomethingIsForbidden(String name) {
        TestInfo info = TestList.getInfo(name);
        assertFalse(info.description() == null || info.description().isBlank(), name + ": @Description");
        boolean forbidden = false;
        List<StateCase> cases = new ArrayList<>(info.cases());
        if (info.unmatched() != null) {
            cases.add(info.unmatched());
        }
        for (StateCase c : cases) {
            assertTrue(c.description() != null && c.description().length() > 20,
                    name + ": outcome " + c.matchPattern() + " needs a description of its interleaving or bug");
            forbidden |= c.expect() == Expect.FORBIDDEN;
        }
        assertTrue(forbidden, name + " forbids nothing, so it can never fail");
    }

    /**
     * Runs the actors of each test one after the other, in every order, and grades the result as jcstress would:
     * a serial execution is one of the interleavings, so it must be acceptable.
     */
    @ParameterizedTest
    @MethodSource("allTests")
    void serialInterleavingsAreAcceptable(String name) throws Exception {
        Class<?> test = Class.forName(name);
        List<Method> actors = new ArrayList<>();
        Method arbiter = null;
        Method signal = null;
        for (Method m : test.getDeclaredMethods()) {
            if (m.isAnnotationPresent(Actor.class)) {
                actors.add(m);
            } else if (m.isAnnotationPresent(Arbiter.class)) {
                arbiter = m;
            } else if (m.isAnnotationPresent(Signal.class)) {
                signal = m;
            }
        }
        TestInfo info = TestList.getInfo(name);
        if (signal != null) {
            // Termination mode: the signal first, so the actor's blocking call returns; an exception is an ERROR.
            Object state = test.getConstructor().newInstance();
            call(signal, state, null);
            call(actors.get(0), state, null);
            return;
        }
        // jcstress 0.16 runs a test only on a machine with a CPU per actor ("No scheduling is possible, these tests
        // would not run"), and the build machine has two: a third actor would make the gate fail there.
        assertEquals(2, actors.size(), name + ": two actors");
        boolean serialBug = SERIAL_BUGS.contains(name);
        boolean forbiddenSeen = false;
        for (List<Method> order : List.of(actors, List.of(actors.get(1), actors.get(0)))) {
            Object state = test.getConstructor().newInstance();
            Object result = resultType(actors, arbiter).getConstructor().newInstance();
            for (Method m : order) {
                call(m, state, result);
            }
            if (arbiter != null) {
                call(arbiter, state, result);
            }
            StateCase c = grade(info, result.toString());
            String run = name + " running " + order.stream().map(Method::getName).toList() + " serially gave "
                    + result;
            assertNotNull(c, run + ", which no outcome covers");
            if (serialBug) {
                forbiddenSeen |= c.expect() == Expect.FORBIDDEN;
                continue;
            }
            assertTrue(c.expect() == Expect.ACCEPTABLE || c.expect() == Expect.ACCEPTABLE_INTERESTING,
                    run + ", graded " + c.expect() + ": " + c.description());
        }
        if (serialBug) {
            assertTrue(forbiddenSeen, name + " is listed as failing in a serial order, and none did");
        }
    }

    /**
     * Broken variants whose bug needs no race: one serial order of their actors already reaches a FORBIDDEN outcome
     * (checked here, so that the list stays true). BrokenHandOffVsParkBehindBatch: the taker takes the whole batch
     * and finds nobody parked to nudge for; then the parker, looking at the queue only, parks beside the two timers
     * left in the taker's batch. BrokenScheduleSpillVsParkPlan: the producer spills into a spare ring and reads the
     * owner awake; then the owner, blind to the spare rings, neither drains nor counts that start, and parks.
     * BrokenHandOffVsStalledStandby: the old rule is a choice, not a race; with the signal first, the waker takes the
     * standby whose tick has come although a worker is parked. BrokenSlotFillVsOwnerPark: the task fills its slot
     * without the hint, and its nudge finds the owner awake; then the owner's step, blind to the slots, parks.
     */
    static final Set<String> SERIAL_BUGS = Set.of("dev.tickwheel.BrokenHandOffVsParkBehindBatch",
            "dev.tickwheel.BrokenScheduleSpillVsParkPlan", "dev.tickwheel.BrokenHandOffVsStalledStandby",
            "dev.tickwheel.BrokenSlotFillVsOwnerPark", "dev.tickwheel.BrokenScheduleChainVsParkPlan",
            "dev.tickwheel.BrokenRescheduleVsChainedStart");

    private static Class<?> resultType(List<Method> actors, Method arbiter) {
        List<Method> all = new ArrayList<>(actors);
        if (arbiter != null) {
            all.add(arbiter);
        }
        for (Method m : all) {
            if (m.getParameterCount() == 1) {
                return m.getParameterTypes()[0];
            }
        }
        throw new AssertionError("no method takes a result object");
    }

    private static void call(Method m, Object state, Object result) throws Exception {
        try {
            if (m.getParameterCount() == 1) {
                m.invoke(state, result);
            } else {
                m.invoke(state);
            }
        } catch (InvocationTargetException e) {
            throw new AssertionError(m.getName() + " threw", e.getCause());
        }
    }

    /** As jcstress grades: an exact id first, then the first matching regex, then the default outcome. */
    private static StateCase grade(TestInfo info, String result) {
        for (StateCase c : info.cases()) {
            if (c.matchesExactly(result)) {
                return c;
            }
        }
        for (StateCase c : info.cases()) {
            if (c.matches(result)) {
                return c;
            }
        }
        return info.unmatched();
    }

    // ---- the gate ----

    private static final List<String> PASSED_OUTPUT = List.of(
            "(Results: 28 planned; 14 passed, 0 failed, 0 soft errs, 0 hard errs)",
            "(Results: 28 planned; 28 passed, 0 failed, 0 soft errs, 0 hard errs)",
            "RUN RESULTS:");

    @Test
    void gatePassesACleanRun() {
        assertEquals(List.of(), JcstressGate.problems(0, PASSED_OUTPUT, List.of("a.B"), Map.of("a.B", "PASSED"),
                Map.of("a.B", 10L), true));
    }

    @Test
    void gateFailsOnEveryKindOfBadRun() {
        List<String> one = List.of("a.B");
        assertFalse(JcstressGate.problems(1, PASSED_OUTPUT, one, Map.of("a.B", "PASSED"), Map.of("a.B", 10L), true)
                .isEmpty(), "non-zero exit");
        assertFalse(JcstressGate.problems(0, List.of("FATAL: No matching tests."), one, Map.of(), Map.of(), true)
                .isEmpty(), "no matching tests, exit 0");
        assertFalse(JcstressGate.problems(0, List.of(
                "(Results: 28 planned; 27 passed, 1 failed, 0 soft errs, 0 hard errs)"), one,
                Map.of("a.B", "PASSED"), Map.of("a.B", 10L), true).isEmpty(), "a failed configuration");
        assertFalse(JcstressGate.problems(0, PASSED_OUTPUT, one, Map.of("a.B", "FAILED"), Map.of("a.B", 10L), true)
                .isEmpty(), "a FAILED test");
        assertFalse(JcstressGate.problems(0, PASSED_OUTPUT, List.of("a.B", "a.C"), Map.of("a.B", "PASSED"),
                Map.of("a.B", 10L), true).isEmpty(), "a selected test missing from the report");
        assertFalse(JcstressGate.problems(0, PASSED_OUTPUT, one, Map.of("a.B", "PASSED"), Map.of("a.B", 0L), true)
                .isEmpty(), "no samples");
        assertTrue(JcstressGate.problems(0, PASSED_OUTPUT, one, Map.of("a.B", "PASSED"), Map.of("a.B", 0L), false)
                .isEmpty(), "no samples, in sanity mode");
    }

    /**
     * The gate's stand-in for jcstress's probe main fails exactly the biased-locking probe: run as jcstress runs a
     * probe (its class path first, the JVM option, the class), it exits 0 without the option and non-zero with it.
     */
    @Test
    void gatesProbeStandInRefusesOnlyBiasedLocking(@TempDir Path dir) throws IOException, InterruptedException {
        Path classes = JcstressGate.withoutBiasedLockingProbe(dir);
        assertEquals(0, probe(classes, "-Xshare:auto"), "a probe of any other option passes");
        assertEquals(1, probe(classes, "-XX:+UseBiasedLocking"), "the biased-locking probe fails (JDK 17: the"
                + " stand-in exits 1; JDK 18 and later: the JVM does not know the option and exits 1)");
    }

    private static int probe(Path classes, String option) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                classes.toString(), option, "org.openjdk.jcstress.vm.SimpleTestMain")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the probe JVM ended");
        return p.exitValue();
    }

    @Test
    void gateReadsTheReportFormat() {
        String index = "<tr class=\"cell2\">\n"
                + "<td>&nbsp;&nbsp;&nbsp;<a href=\"dev.tickwheel.CancelVsFire.html\">dev.tickwheel.CancelVsFire</a></td>\n"
                + "<td>10<sup>6</sup></td><td class=\"passed\">PASSED</td>\n"
                + "<td>&nbsp;&nbsp;&nbsp;<a href=\"dev.tickwheel.X.html\">dev.tickwheel.X</a></td>\n"
                + "<td>10<sup>3</sup></td><td class=\"failed\">FAILED</td>\n";
        assertEquals(Map.of("dev.tickwheel.CancelVsFire", "PASSED", "dev.tickwheel.X", "FAILED"),
                JcstressGate.statuses(index));
        String page = "<td align='right' width='50.0%' bgColor=#c0c0c0>0</td>\n"
                + "<td align='right' width='50.0%' bgColor=#00ff00>4</td>\n"
                + "<td align='right' width='50.0%' bgColor=#00ff00>38</td>";
        assertEquals(42, JcstressGate.countSamples(page));
        assertEquals(List.of("a.B"), JcstressGate.select(Arrays.asList("a.B", "a.BrokenB"), "^a\\.(?!Broken)"));
        Collection<String> none = JcstressGate.select(List.of("a.B"), "Nope");
        assertTrue(none.isEmpty());
    }

    @Test
    void brokenVariantIsReallyBrokenWhenInterleaved() {
        // The FORBIDDEN interleaving, forced by hand: the broken cancel reads NEW, the owner fires, then the cancel
        // writes. jcstress finds this on its own (README); here it is staged to show what the outcome means.
        ManualClock clock = new ManualClock();
        WheelTimer timer = Rigs.direct(clock);
        int[] runs = new int[1];
        ScheduledTimer<?> t = (ScheduledTimer<?>) timer.schedule(() -> runs[0]++, 1,
                java.util.concurrent.TimeUnit.MILLISECONDS);
        OwnerLoop.of(timer).step();
        clock.advanceMillis(1);
        assertEquals(ScheduledTimer.NEW, t.phase()); // the broken cancel's read: pending
        OwnerLoop.of(timer).step(); // the owner fires in between
        t.setPhase(ScheduledTimer.CANCELLED); // the broken cancel's plain write
        assertEquals(1, runs[0], "the task ran");
        assertTrue(t.isCancelled(), "and the broken cancel claims to have cancelled it: both won");
    }
}
