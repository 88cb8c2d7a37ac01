/**
 * Tickwheel: a hierarchical timing wheel ({@link dev.tickwheel.TimingWheel}) and a lock-free multi-producer
 * {@link java.util.concurrent.ScheduledExecutorService} built on it ({@link dev.tickwheel.WheelTimer}).
 *
 * <h2>How a timer flows, and who owns what</h2>
 * <pre>
 *  any thread                     owner thread (one per timer)                       worker / executor
 *  ──────────                     ────────────────────────────                       ─────────────────
 *  schedule ─▶ new ScheduledTimer
 *             (future = command = wheel node: one object)
 *             ─offer─▶ start queue ──drain──▶ OwnerLoop.start ─▶ TimingWheel.add
 *  cancel ──CAS state──▶ cancel queue ─drain─▶ OwnerLoop.reap ─▶ TimingWheel.remove
 *                                             OwnerLoop.step: advance the wheel to now
 *                                               ─▶ due buffer ─▶ TaskDispatch ─────────▶ ScheduledTimer.run
 *                                                                                         ─▶ future completes
 *  shutdown / shutdownNow ─▶ run state, wake-up ─▶ owner exits (Termination) ◀─ awaitTermination, close
 * </pre>
 * <ul>
 *   <li>{@link dev.tickwheel.WheelTimer}: the public API and its builder. It extends {@code CommandPort}, which
 *   holds the MPSC start and cancel queues, the run state and the owner's wake-up plan, and both halves of the two
 *   handshakes between producers and the owner (lost wake-up; schedule vs shutdown).</li>
 *   <li>{@code OwnerLoop}: everything confined to the owner thread: the {@link dev.tickwheel.TimingWheel}, the due
 *   buffer, and the steps, the shutdownNow collection and the failure path.</li>
 *   <li>{@code OwnerPark}: the owner's park: the plan it publishes to producers before it parks, the park, and the
 *   step token with which a standing-by pool worker runs the expiry half of a step while the owner sleeps.</li>
 *   <li>{@code TaskDispatch}: where due tasks run (the timer's own pool, {@code WorkerPool}, the user's executor, or
 *   the owner).</li>
 *   <li>{@code Termination}: the owner's exit, the hand-back, awaitTermination and close.</li>
 *   <li>{@code ScheduledTimer} / {@code PeriodicTimer}: the timer, shared by every thread and changed only by CAS
 *   on its state word; a {@link dev.tickwheel.TimerFuture} to its caller.</li>
 *   <li>{@code TickClock} (tick arithmetic), {@code TimerCounters} (metrics), {@code TimerThreads} (threads).</li>
 * </ul>
 *
 * <h2>Memory-ordering vocabulary</h2>
 * Every field shared between threads says at its declaration who writes it, who reads it and which ordering
 * publishes it, in these words (after JCTools):
 * <ul>
 *   <li><b>lv</b> (load volatile): a volatile read; it acquires what the matching store released.</li>
 *   <li><b>sv</b> (store volatile): a volatile write; sequentially consistent with other volatile accesses, so
 *   it takes part in a Dekker handshake (store mine, then load yours: at least one side sees the other).</li>
 *   <li><b>so</b> (store ordered): a release store ({@code setRelease}); what the writer did before it is visible
 *   to a thread that loads the value with acquire or volatile semantics, but it is not ordered with a later load.</li>
 *   <li><b>cas</b>: an atomic compare-and-set with volatile semantics; decides races such as cancel against fire.</li>
 *   <li><b>plain</b>: no ordering; the field is confined to one thread, or published by a later store named above
 *   (for example a node's fields written before it is offered to a JCTools queue, whose offer is a release and
 *   whose poll is an acquire).</li>
 * </ul>
 */
package dev.tickwheel;
