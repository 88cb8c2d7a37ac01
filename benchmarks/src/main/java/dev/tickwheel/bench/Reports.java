package dev.tickwheel.bench;

/** Notes printed by the benchmarks themselves, so that a surprising figure carries its explanation. */
final class Reports {
    private Reports() {
    }

    /**
     * A ring timer fires only if the ring turned slower than the 30 s minimum delay: the peer was too slow to keep
     * its own timers cancelled in time. The figure is still the peer's, but the workload then included firing.
     */
    static void warnIfFired(Peer peer, int pending, long fired) {
        if (fired > 0) {
            System.out.println("NOTE: " + fired + " of " + peer + "'s ring timers (pending=" + pending + ") fired"
                    + " before they were cancelled: its ring turned slower than " + ProducerRing.MIN_DELAY_MS
                    + " ms, so part of its work was firing them");
        }
    }
}
