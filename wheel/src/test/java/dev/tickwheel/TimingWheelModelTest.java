package dev.tickwheel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Randomized test of {@link TimingWheel} against a reference model: a {@link TreeSet} ordered by (key, insertion
 * sequence), so that equal keys expire in the order they were added, whatever cascades happened in between.
 *
 * <p>Every step runs one random operation on both the wheel and the model and then compares every query
 * ({@code size}, {@code isEmpty}, {@code minKey}, {@code minElement}, {@code nextEventAtOrBefore},
 * {@code minAllowedKey}, {@code maxAllowedKey}); each element the wheel hands out must be the model's first, and
 * {@code checkInvariants()} runs every few steps (more often on small wheels). The handler sometimes re-enters
 * the wheel (add, remove, reschedule, clear) and sometimes throws, and the model follows. {@code clear()} and
 * {@code removeAll} empty the wheel now and then.
 *
 * <p>Length: {@value #BASE_OPERATIONS} operations per configuration times the system property
 * {@code tickwheel.test.scale} (default 1). Seed: the system property {@code tickwheel.test.seed}, else random;
 * every failure message names the seed, the configuration, the step and the last operations, so
 * {@code mvn -pl wheel test -Dtest=TimingWheelModelTest -Dtickwheel.test.seed=<seed>} replays it.
 */
class TimingWheelModelTest {

    private static final int BASE_OPERATIONS = 1_000_000;
    private static final long MAX = Long.MAX_VALUE;

    static Stream<Arguments> configurations() {
        return Stream.of(
                Arguments.of("{8} single level", new int[] {8}),
                Arguments.of("{1} single level of two slots", new int[] {1}),
                Arguments.of("{1,1,1}", new int[] {1, 1, 1}),
                Arguments.of("{2,3,4}", new int[] {2, 3, 4}),
                Arguments.of("default (no-arg constructor)", null),
                Arguments.of("{12,12,12,12,12}", new int[] {12, 12, 12, 12, 12}),
                Arguments.of("{12,12,12,12,12,2} (62 bits)", new int[] {12, 12, 12, 12, 12, 2}),
                Arguments.of("{1,12,1,12,12,12,12} (62 bits)", new int[] {1, 12, 1, 12, 12, 12, 12}),
                // More than 32 levels: the constructor accepts up to 62.
                Arguments.of("{1 x 62} (62 levels)", levels(62, 1)),
                Arguments.of("{1 x 40} (40 levels)", levels(40, 1)),
                Arguments.of("{2 x 20, 1 x 22} (42 levels, 62 bits)", concat(levels(20, 2), levels(22, 1))),
                Arguments.of("{12, 1 x 50} (51 levels, 62 bits)", concat(new int[] {12}, levels(50, 1))));
    }

    /** {@code count} levels of {@code bits} bits each. */
    private static int[] levels(int count, int bits) {
        int[] out = new int[count];
        Arrays.fill(out, bits);
        return out;
    }

    private static int[] concat(int[] a, int[] b) {
        int[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configurations")
    void randomOperations_againstReferenceModel_agreeAfterEveryStep(String name, int[] levelBits) {
        long seed = seed();
        long operations = Math.max(1, Math.round(BASE_OPERATIONS * scale()));
        // Printed as well as named in every failure message, so that a hang or a crash can be replayed too.
        System.out.println("TimingWheelModelTest " + name + ": " + operations + " operations, replay with "
                + "-Dtickwheel.test.seed=" + seed);
        new Run(name, levelBits, seed, operations).run();
    }

    private static long seed() {
        String s = System.getProperty("tickwheel.test.seed");
        return s == null || s.isBlank() ? ThreadLocalRandom.current().nextLong() : Long.parseLong(s.trim());
    }

    private static double scale() {
        String s = System.getProperty("tickwheel.test.scale");
        if (s == null || s.isBlank() || s.startsWith("$")) {
            return 1.0;
        }
        return Double.parseDouble(s.trim());
    }

    /** A wheel element that also carries its model state. */
    static final class E extends TimingWheel.Node {
        final int id;
        /** The key the model expects; valid while in the model. */
        long modelKey;
        /** Insertion sequence: a larger one was added (or moved) later. */
        long seq;
        /** Index in {@link Run#live}, or -1. */
        int liveIndex = -1;

        E(int id) {
            this.id = id;
        }

        @Override
        public String toString() {
            return "E" + id + "@" + modelKey + "#" + seq;
        }
    }

    private static final Comparator<E> MODEL_ORDER =
            Comparator.<E>comparingLong(e -> e.modelKey).thenComparingLong(e -> e.seq);

    /** Thrown by the handler on purpose; the wheel must stay consistent. */
    private static final class PlannedFailure extends RuntimeException {
        PlannedFailure() {
            super("planned handler failure", null, false, false);
        }
    }

    private static final class Run {
        private static final int POOL = 4096;
        private static final int HISTORY = 24;

        private final String name;
        private final int[] levelBits;
        private final int totalBits;
        private final int slotCount;
        private final long seed;
        private final long operations;
        private final SplittableRandom rnd;

        private TimingWheel<E> wheel;
        private final TreeSet<E> model = new TreeSet<>(MODEL_ORDER);
        private final E[] pool = new E[POOL];
        private final E[] live = new E[POOL];
        private int liveCount;
        private long nextSeq;
        private long expectedNow;
        private long lastMaxAllowed;
        private int targetSize = 32;

        private long step;
        private long nextInvariantCheck;
        private final String[] historyOp = new String[HISTORY];
        private final long[][] historyArgs = new long[HISTORY][3];
        private final long[] historyStep = new long[HISTORY];
        private long records;

        // State of the advance in progress, read by the handler.
        private long target;
        private int maxExpired;
        private int handed;
        private long lastHandedKey;
        private boolean reentrant;
        private boolean failing;
        private boolean draining;
        private boolean handling;
        private final Consumer<E> handler = this::handle;

        @SuppressWarnings("unchecked")
        Run(String name, int[] levelBits, long seed, long operations) {
            this.name = name;
            this.levelBits = levelBits == null ? TimingWheel.defaultLevelBits() : levelBits.clone();
            this.totalBits = Arrays.stream(this.levelBits).sum();
            this.slotCount = Arrays.stream(this.levelBits).map(b -> 1 << b).sum();
            this.seed = seed;
            this.operations = operations;
            this.rnd = new SplittableRandom(seed ^ (0x9E3779B97F4A7C15L * (Arrays.hashCode(this.levelBits) + 1)));
            for (int i = 0; i < POOL; i++) {
                pool[i] = new E(i);
            }
            this.wheel = levelBits == null ? new TimingWheel<>() : new TimingWheel<>(levelBits);
            this.expectedNow = 0;
            this.lastMaxAllowed = wheel.maxAllowedKey();
        }

        void run() {
            try {
                for (step = 0; step < operations; step++) {
                    if (step % 10_000 == 0) {
                        int r = rnd.nextInt(10);
                        targetSize = r < 3 ? 4 : r < 6 ? 32 : r < 9 ? 256 : 1024;
                    }
                    oneOperation();
                    compareQueries();
                    if (step >= nextInvariantCheck) {
                        wheel.checkInvariants();
                        nextInvariantCheck = step + Math.max(1, (slotCount + wheel.size()) / 16);
                    }
                }
                wheel.checkInvariants();
                drainAndCompare();
            } catch (Throwable t) {
                throw new AssertionError(context(t instanceof AssertionError ? t.getMessage() : t.toString()), t);
            }
        }

        private void oneOperation() {
            int op = rnd.nextInt(1000);
            boolean wantRemoval = wheel.size() > targetSize;
            if (op < 300) {
                if (wantRemoval && liveCount > 0) {
                    removeLive();
                } else {
                    addFree();
                }
            } else if (op < 400) {
                removeLive();
            } else if (op < 430) {
                removeAbsent();
            } else if (op < 510) {
                rescheduleLive();
            } else if (op < 590) {
                addInRange();
            } else if (op < 610) {
                invalidAdd();
            } else if (op < 620) {
                invalidReschedule();
            } else if (op < 830) {
                advance(satAdd(expectedNow, 1 + rnd.nextInt(rnd.nextBoolean() ? 2 : 16)));
            } else if (op < 880) {
                advanceToNextEvent();
            } else if (op < 910) {
                advanceToModelKey();
            } else if (op < 990) {
                int b = 1 + rnd.nextInt(Math.min(62, totalBits + 1));
                advance(satAdd(expectedNow, rnd.nextLong(1L << b)));
            } else if (op < 997) {
                advance(satAdd(expectedNow, 1 + rnd.nextLong(1_000_000_000_000L)));
            } else if (op < 998) {
                advance(MAX - rnd.nextInt(3) * (long) rnd.nextInt(1 << 20));
            } else if (op < 999) {
                if (rnd.nextInt(4) == 0) {
                    clear();
                } else {
                    advance(satAdd(expectedNow, 1));
                }
            } else {
                // Restart rarely, but soon once the wheel is stuck near Long.MAX_VALUE.
                if (rnd.nextInt(50) == 0 || (expectedNow > MAX - (1L << 40) && rnd.nextInt(3) == 0)) {
                    restart();
                } else {
                    advance(satAdd(expectedNow, 1));
                }
            }
        }

        // ---------------------------------------------------------------------------------------------------------
        // Operations

        private void addFree() {
            E e = freeNode();
            if (e == null) {
                return;
            }
            long key = randomKey(expectedNow, wheel.maxAllowedKey());
            record("add", e.id, key, 0);
            wheel.add(e, key);
            modelAdd(e, key);
            check(e.isInWheel() && wheel.contains(e) && e.key() == key, "added node not in the wheel at its key");
        }

        private void removeLive() {
            if (liveCount == 0) {
                removeAbsent();
                return;
            }
            E e = live[rnd.nextInt(liveCount)];
            record("remove", e.id, e.modelKey, 0);
            check(wheel.remove(e), "remove of a present node returned false: " + e);
            modelRemove(e);
            check(!e.isInWheel() && !wheel.contains(e), "removed node still in the wheel");
            check(!wheel.remove(e), "second remove returned true: " + e);
        }

        private void removeAbsent() {
            E e = freeNode();
            if (e == null) {
                return;
            }
            int size = wheel.size();
            record("removeAbsent", e.id, 0, 0);
            check(!wheel.remove(e), "remove of an absent node returned true");
            check(wheel.size() == size && !e.isInWheel(), "remove of an absent node changed the wheel");
        }

        private void rescheduleLive() {
            if (liveCount == 0) {
                addFree();
                return;
            }
            E e = live[rnd.nextInt(liveCount)];
            long key = randomKey(expectedNow, wheel.maxAllowedKey());
            record("reschedule", e.id, key, e.modelKey);
            wheel.reschedule(e, key);
            modelRemove(e);
            modelAdd(e, key);
            check(e.key() == key && wheel.contains(e), "rescheduled node not at its new key");
        }

        private void addInRange() {
            boolean useLive = liveCount > 0 && rnd.nextBoolean();
            E e = useLive ? live[rnd.nextInt(liveCount)] : freeNode();
            if (e == null) {
                return;
            }
            long now = expectedNow;
            long maxAllowed = wheel.maxAllowedKey();
            long lo;
            long hi;
            int shape = rnd.nextInt(8);
            if (shape == 0) {
                // Possibly entirely below or above the window, or reversed.
                lo = rnd.nextLong() & MAX;
                hi = rnd.nextInt(4) == 0 ? lo - rnd.nextInt(3) : satAdd(lo, rnd.nextLong(1L << rnd.nextInt(62)));
            } else if (shape <= 2 && useLive) {
                // Around the node's own key: it may already lie inside.
                lo = Math.max(0, e.modelKey - rnd.nextInt(100));
                hi = satAdd(e.modelKey, rnd.nextInt(100) - 50);
            } else {
                lo = rnd.nextInt(4) == 0 ? Math.max(0, now - rnd.nextInt(100)) : randomKey(now, maxAllowed);
                int b = rnd.nextInt(Math.min(62, totalBits + 2));
                hi = rnd.nextInt(8) == 0 ? MAX : satAdd(lo, rnd.nextLong(1L << b));
            }
            long from = Math.max(lo, now);
            long to = Math.min(hi, maxAllowed);
            record("addInRange", e.id, lo, hi);
            if (lo > hi || from > to) {
                int size = wheel.size();
                boolean wasIn = e.isInWheel();
                long oldKey = e.key();
                try {
                    wheel.addInRange(e, lo, hi);
                    throw new AssertionError("addInRange [" + lo + ", " + hi + "] outside [" + now + ", "
                            + maxAllowed + "] did not throw");
                } catch (IllegalArgumentException expected) {
                    check(wheel.size() == size && e.isInWheel() == wasIn && e.key() == oldKey,
                            "failed addInRange changed the wheel");
                }
                return;
            }
            boolean staysPut = e.liveIndex >= 0 && e.modelKey >= lo && e.modelKey <= hi;
            long oldSeq = e.seq;
            long key = wheel.addInRange(e, lo, hi);
            check(key >= from && key <= to, "addInRange chose " + key + " outside the clipped range [" + from
                    + ", " + to + "]");
            check(e.key() == key && wheel.contains(e), "addInRange: node not at the returned key " + key);
            if (staysPut) {
                check(key == e.modelKey && e.seq == oldSeq, "addInRange moved a node already inside the range: "
                        + e + " to " + key);
            } else {
                if (e.liveIndex >= 0) {
                    modelRemove(e);
                }
                modelAdd(e, key);
            }
        }

        private void invalidAdd() {
            E e = freeNode();
            if (e == null) {
                return;
            }
            long key;
            long maxAllowed = wheel.maxAllowedKey();
            if (expectedNow > 0 && (maxAllowed == MAX || rnd.nextBoolean())) {
                key = expectedNow - 1 - (rnd.nextBoolean() ? 0 : rnd.nextLong(expectedNow));
            } else if (maxAllowed < MAX) {
                key = maxAllowed + 1 + (rnd.nextBoolean() ? 0 : rnd.nextLong(MAX - maxAllowed));
            } else {
                key = -1 - rnd.nextInt(10);
            }
            int size = wheel.size();
            record("invalidAdd", e.id, key, 0);
            try {
                wheel.add(e, key);
                throw new AssertionError("add at " + key + " outside [" + expectedNow + ", " + maxAllowed
                        + "] did not throw");
            } catch (IllegalArgumentException expected) {
                check(expected.getMessage().contains(Long.toString(key)), "message does not name the key: "
                        + expected.getMessage());
                check(wheel.size() == size && !e.isInWheel(), "failed add changed the wheel");
            }
        }

        private void invalidReschedule() {
            if (liveCount == 0 || rnd.nextBoolean()) {
                E e = freeNode();
                if (e == null) {
                    return;
                }
                record("rescheduleAbsent", e.id, expectedNow, 0);
                try {
                    wheel.reschedule(e, expectedNow);
                    throw new AssertionError("reschedule of a node not in the wheel did not throw");
                } catch (IllegalArgumentException expected) {
                    check(!e.isInWheel(), "failed reschedule added the node");
                }
                return;
            }
            E e = live[rnd.nextInt(liveCount)];
            long maxAllowed = wheel.maxAllowedKey();
            long key = expectedNow > 0 && (maxAllowed == MAX || rnd.nextBoolean()) ? expectedNow - 1
                    : maxAllowed == MAX ? -1 : maxAllowed + 1;
            record("invalidReschedule", e.id, key, e.modelKey);
            try {
                wheel.reschedule(e, key);
                throw new AssertionError("reschedule to " + key + " did not throw");
            } catch (IllegalArgumentException expected) {
                check(e.key() == e.modelKey && wheel.contains(e), "failed reschedule moved the node");
            }
        }

        private void advanceToNextEvent() {
            long event = wheel.nextEventAtOrBefore(MAX);
            advance(event);
            check(handed == 0, "advancing to nextEventAtOrBefore " + event + " handed out " + handed);
        }

        private void advanceToModelKey() {
            if (model.isEmpty()) {
                advance(satAdd(expectedNow, 1));
                return;
            }
            E e = rnd.nextBoolean() ? model.first() : live[rnd.nextInt(liveCount)];
            advance(satAdd(e.modelKey, rnd.nextInt(3) - 1));
        }

        private void advance(long to) {
            int bound = rnd.nextInt(10) < 4 ? 1 + rnd.nextInt(3) : Integer.MAX_VALUE;
            reentrant = !draining && rnd.nextInt(8) == 0;
            failing = !draining && rnd.nextInt(64) == 0;
            long before = expectedNow;
            record(bound == Integer.MAX_VALUE ? "advance" : "advanceBounded", to, bound,
                    (reentrant ? 1 : 0) | (failing ? 2 : 0));
            target = to;
            maxExpired = bound;
            handed = 0;
            lastHandedKey = -1;
            int returned;
            try {
                returned = bound == Integer.MAX_VALUE
                        ? wheel.increaseMinAllowedKey(to, handler)
                        : wheel.increaseMinAllowedKey(to, bound, handler);
            } catch (PlannedFailure f) {
                // The element handed out stays removed and minAllowedKey tells where to resume.
                check(handed > 0, "planned failure without a handed element");
                expectedNow = lastHandedKey;
                check(wheel.minAllowedKey() == expectedNow, "after a handler failure minAllowedKey is "
                        + wheel.minAllowedKey() + ", expected the failed element's key " + expectedNow);
                wheel.checkInvariants();
                return;
            }
            check(returned == handed, "returned " + returned + " but handed out " + handed);
            if (to <= before) {
                check(returned == 0 && wheel.minAllowedKey() == before, "advance to " + to + " <= minAllowedKey "
                        + before + " did something");
                return;
            }
            E first = model.isEmpty() ? null : model.first();
            if (first != null && first.modelKey < to) {
                // Stopped early by the bound.
                check(bound != Integer.MAX_VALUE && returned == bound, "stopped early with " + first
                        + " still due, having handed out " + returned + " of at most " + bound);
                expectedNow = first.modelKey;
                check(wheel.minAllowedKey() == expectedNow && expectedNow < to, "stopped early: minAllowedKey "
                        + wheel.minAllowedKey() + " is not the next due key " + expectedNow + " below " + to);
            } else {
                expectedNow = to;
                check(wheel.minAllowedKey() == to, "completed advance: minAllowedKey " + wheel.minAllowedKey()
                        + " != target " + to);
            }
        }

        private void handle(E e) {
            check(handed < maxExpired, "handed out more than maxExpired " + maxExpired);
            E expected = model.pollFirst();
            check(expected == e, "handed out " + e + " but the model expected " + expected);
            check(e.modelKey < target, "handed out " + e + " at or above the target " + target);
            check(wheel.minAllowedKey() == e.modelKey, "in the handler minAllowedKey " + wheel.minAllowedKey()
                    + " != handed key " + e.modelKey);
            check(e.key() == e.modelKey && !e.isInWheel() && !wheel.contains(e), "handed-out node still in the wheel");
            liveRemove(e);
            handed++;
            lastHandedKey = e.modelKey;
            check(wheel.size() == model.size(), "size in the handler " + wheel.size() + " != model "
                    + model.size());
            if (reentrant && rnd.nextInt(3) == 0) {
                handling = true;
                reenter();
                handling = false;
            }
            if (failing && rnd.nextInt(4) == 0) {
                throw new PlannedFailure();
            }
        }

        /** One random operation from inside the handler; the model follows. */
        private void reenter() {
            long now = wheel.minAllowedKey();
            int r = rnd.nextInt(100);
            if (r < 40) {
                E e = freeNode();
                if (e == null) {
                    return;
                }
                long maxAllowed = wheel.maxAllowedKey();
                // Half of the time below the target (and so handed out by this very call) when possible.
                long belowTarget = Math.min(target, maxAllowed) - now;
                long key = rnd.nextBoolean() && belowTarget > 0 ? now + rnd.nextLong(belowTarget)
                        : randomKey(now, maxAllowed);
                record("handler:add", e.id, key, now);
                wheel.add(e, key);
                modelAdd(e, key);
            } else if (r < 70) {
                if (liveCount > 0) {
                    E e = live[rnd.nextInt(liveCount)];
                    record("handler:remove", e.id, e.modelKey, now);
                    check(wheel.remove(e), "remove from the handler returned false");
                    modelRemove(e);
                }
            } else if (r < 97) {
                if (liveCount > 0) {
                    E e = live[rnd.nextInt(liveCount)];
                    long key = randomKey(now, wheel.maxAllowedKey());
                    record("handler:reschedule", e.id, key, now);
                    wheel.reschedule(e, key);
                    modelRemove(e);
                    modelAdd(e, key);
                }
            } else {
                record("handler:clear", 0, 0, now);
                clear();
                try {
                    wheel.removeAll(x -> { });
                    throw new AssertionError("removeAll from the handler did not throw");
                } catch (IllegalStateException expected) {
                    // The contract.
                }
            }
            try {
                wheel.increaseMinAllowedKey(satAdd(now, 1), x -> { });
                throw new AssertionError("increaseMinAllowedKey from the handler did not throw");
            } catch (IllegalStateException expected) {
                // The contract.
            }
        }

        private void clear() {
            boolean handBack = !handling && rnd.nextBoolean();
            record(handBack ? "removeAll" : "clear", wheel.size(), 0, 0);
            long now = wheel.minAllowedKey();
            if (handBack) {
                // removeAll hands every element out once, in no particular order.
                List<E> out = new ArrayList<>();
                int n = wheel.removeAll(e -> {
                    check(!e.isInWheel(), "removeAll handed out " + e + " still in the wheel");
                    out.add(e);
                });
                check(n == out.size() && n == model.size(), "removeAll returned " + n + ", handed out "
                        + out.size() + ", model held " + model.size());
                Set<E> distinct = Collections.newSetFromMap(new IdentityHashMap<>());
                distinct.addAll(out);
                check(distinct.size() == out.size() && distinct.containsAll(model), "removeAll handed out "
                        + out.size() + " elements, " + distinct.size() + " distinct, not the model's");
            } else {
                wheel.clear();
            }
            for (int i = 0; i < liveCount; i++) {
                E e = live[i];
                check(!e.isInWheel(), "clear left " + e + " in the wheel");
                e.liveIndex = -1;
                live[i] = null;
            }
            liveCount = 0;
            model.clear();
            check(wheel.isEmpty() && wheel.size() == 0 && wheel.minAllowedKey() == now, "clear: not empty or moved");
        }

        private void restart() {
            clear();
            long start;
            int r = rnd.nextInt(5);
            if (r == 0) {
                start = 0;
            } else if (r == 1) {
                start = rnd.nextLong() & MAX;
            } else if (r == 2) {
                start = MAX - rnd.nextLong(1L << rnd.nextInt(1, 40));
            } else {
                // Aligned to some power of two, or just before or after it.
                start = ((rnd.nextLong() & MAX) & -(1L << rnd.nextInt(63))) + rnd.nextInt(3) - 1;
                start = Math.max(0, start);
            }
            record("restart", start, 0, 0);
            wheel = new TimingWheel<>(start, levelBits);
            expectedNow = start;
            lastMaxAllowed = wheel.maxAllowedKey();
            wheel.checkInvariants();
        }

        // ---------------------------------------------------------------------------------------------------------
        // Comparison

        private void compareQueries() {
            check(wheel.size() == model.size(), "size " + wheel.size() + " != model " + model.size());
            check(wheel.isEmpty() == model.isEmpty(), "isEmpty " + wheel.isEmpty());
            check(wheel.minAllowedKey() == expectedNow, "minAllowedKey " + wheel.minAllowedKey() + " != "
                    + expectedNow);
            long maxAllowed = wheel.maxAllowedKey();
            long guaranteed = expectedNow > MAX - ((1L << totalBits) - 1) ? MAX : expectedNow + (1L << totalBits) - 1;
            check(maxAllowed >= guaranteed, "maxAllowedKey " + maxAllowed + " < minAllowedKey + 2^B - 1 = "
                    + guaranteed);
            check(maxAllowed >= lastMaxAllowed, "maxAllowedKey shrank from " + lastMaxAllowed + " to " + maxAllowed);
            lastMaxAllowed = maxAllowed;
            long limit = rnd.nextBoolean() ? MAX : satAdd(expectedNow, rnd.nextLong(1L << rnd.nextInt(62)));
            if (model.isEmpty()) {
                check(wheel.minElement() == null, "minElement of an empty wheel");
                check(wheel.nextEventAtOrBefore(limit) == limit, "nextEventAtOrBefore of an empty wheel");
                if (rnd.nextInt(64) == 0) {
                    try {
                        wheel.minKey();
                        throw new AssertionError("minKey of an empty wheel did not throw");
                    } catch (NoSuchElementException expected) {
                        // The contract.
                    }
                }
                return;
            }
            E first = model.first();
            check(wheel.minKey() == first.modelKey, "minKey " + wheel.minKey() + " != model " + first);
            E min = wheel.minElement();
            check(min == first, "minElement " + min + " != model's first " + first);
            long event = wheel.nextEventAtOrBefore(MAX);
            check(event >= expectedNow && event <= first.modelKey, "nextEventAtOrBefore " + event
                    + " outside [minAllowedKey " + expectedNow + ", minKey " + first.modelKey + "]");
            check(wheel.nextEventAtOrBefore(limit) == Math.min(event, limit), "nextEventAtOrBefore(" + limit
                    + ") != min(" + event + ", limit)");
            if (rnd.nextInt(16) == 0) {
                E last = model.last();
                check(last.modelKey <= maxAllowed, "element " + last + " beyond maxAllowedKey " + maxAllowed);
            }
        }

        /** Expires everything and compares the whole order one last time. */
        private void drainAndCompare() {
            draining = true;
            while (expectedNow < MAX) {
                advance(MAX);
            }
            if (!model.isEmpty()) {
                // Only elements at Long.MAX_VALUE itself can stay: keys below the target expire.
                check(model.first().modelKey == MAX, "after advancing to Long.MAX_VALUE " + model.first() + " stayed");
            }
            wheel.checkInvariants();
        }

        // ---------------------------------------------------------------------------------------------------------
        // Helpers

        /** A key in [lo, hi], biased towards lo, hi, near keys and slot boundaries. */
        private long randomKey(long lo, long hi) {
            long span = hi - lo;
            switch (rnd.nextInt(12)) {
                case 0:
                    return lo;
                case 1:
                    return hi;
                case 2:
                case 3:
                case 4:
                    return lo + Math.min(span, rnd.nextInt(64));
                case 5:
                case 6: {
                    int b = 1 + rnd.nextInt(Math.min(62, totalBits + 1));
                    return lo + Math.min(span, rnd.nextLong(1L << b));
                }
                case 7:
                case 8: {
                    // Next to the start of a coming slot of a random level.
                    int level = rnd.nextInt(levelBits.length);
                    int shift = 0;
                    for (int l = 0; l < level; l++) {
                        shift += levelBits[l];
                    }
                    long slotIndex = (lo >>> shift) + 1 + rnd.nextInt(3);
                    if (slotIndex > (MAX >>> shift)) {
                        return hi;
                    }
                    long key = (slotIndex << shift) + rnd.nextInt(3) - 1;
                    return key < lo ? lo : Math.min(key, hi);
                }
                default:
                    return span == MAX ? rnd.nextLong() & MAX : lo + rnd.nextLong(span + 1);
            }
        }

        private E freeNode() {
            if (liveCount >= POOL - 16) {
                return null;
            }
            while (true) {
                E e = pool[rnd.nextInt(POOL)];
                if (e.liveIndex < 0) {
                    return e;
                }
            }
        }

        private void modelAdd(E e, long key) {
            e.modelKey = key;
            e.seq = nextSeq++;
            check(model.add(e), "model already held " + e);
            e.liveIndex = liveCount;
            live[liveCount++] = e;
        }

        private void modelRemove(E e) {
            check(model.remove(e), "model did not hold " + e);
            liveRemove(e);
        }

        private void liveRemove(E e) {
            int i = e.liveIndex;
            E last = live[--liveCount];
            live[i] = last;
            last.liveIndex = i;
            live[liveCount] = null;
            e.liveIndex = -1;
        }

        private static long satAdd(long a, long b) {
            return a > MAX - b ? MAX : a + b;
        }

        private void record(String op, long a, long b, long c) {
            int i = (int) (records++ % HISTORY);
            historyOp[i] = op;
            historyStep[i] = step;
            historyArgs[i][0] = a;
            historyArgs[i][1] = b;
            historyArgs[i][2] = c;
        }

        private void check(boolean ok, String what) {
            if (!ok) {
                throw new AssertionError(what);
            }
        }

        private String context(String what) {
            StringBuilder sb = new StringBuilder();
            sb.append(what).append("\n  config ").append(name).append(" levelBits ")
                    .append(Arrays.toString(levelBits)).append(", seed ").append(seed)
                    .append(" (replay: -Dtickwheel.test.seed=").append(seed).append("), step ").append(step)
                    .append(" of ").append(operations).append(", wheel ").append(wheel)
                    .append(", model size ").append(model.size())
                    .append(", model first ").append(model.isEmpty() ? "-" : model.first())
                    .append("\n  recent operations (step: op a b c):");
            for (int k = 0; k < HISTORY; k++) {
                int i = (int) ((records + k) % HISTORY);
                if (historyOp[i] != null) {
                    sb.append("\n    ").append(historyStep[i]).append(": ").append(historyOp[i]).append(' ')
                            .append(historyArgs[i][0]).append(' ').append(historyArgs[i][1]).append(' ')
                            .append(historyArgs[i][2]);
                }
            }
            return sb.toString();
        }
    }
}
