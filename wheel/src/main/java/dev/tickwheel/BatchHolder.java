package dev.tickwheel;

/**
 * A consumer of the {@link HandOffQueue} as far as batches go: the batch it took out of the queue and claims from,
 * published for thieves. A pool worker is one; so are shutdownNow's hand-back and a test's loose consumer
 * ({@link HandOffQueue#poll()}). One thread at a time uses a holder as its own: only that thread writes it.
 */
abstract class BatchHolder extends BatchHolderPad {
    /**
     * The batch this holder claims from, or null. Written by its own thread only: a release store under the queue's
     * turn when it takes a batch out (so that the hand-back, which takes the turn after it, sees it), a release store
     * when it arms its own batch with what it stole, and a store of null once it reads the batch empty. Read
     * (volatile) by thieves once per look for work, by the hand-back, and by the owner's watchdog; a stale read is
     * harmless: a batch's claims are validated by its generation (see {@link HandOffBatch}).
     */
    volatile HandOffBatch held;
    /** The generation {@link #held} was armed with: a later one is not this holder's. Plain: its own thread. */
    long heldGeneration;
    /** Timers left in {@link #held} after this holder's last claim (its recruit hint). Plain: its own thread. */
    int left;
    /** Where this holder keeps a stolen half (made at its first such steal; never given back). Plain: its own. */
    HandOffBatch own;
    /** Where its next look at the other holders starts, so that thieves spread out. Plain: its own thread. */
    int nextVictim;
    /** {@link HandOffQueue#touchAhead}'s sum, so that its loads are used; never read. Plain: its own thread. */
    int touched;
}

/**
 * Before a holder's fields: a worker writes its own on every run, and a neighbouring object's line must not be one
 * of them (the worker's class pads after them).
 */
abstract class BatchHolderPad {
    /** Fills the 4 bytes after a compressed object header, where the JVM would pack a subclass's int or reference. */
    int gap;
    long p00, p01, p02, p03, p04, p05, p06, p07;
    long p10, p11, p12, p13, p14, p15, p16, p17;
}
