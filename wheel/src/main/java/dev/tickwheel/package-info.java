/**
 * Tickwheel: a hierarchical timing wheel ({@link dev.tickwheel.TimingWheel}) and a lock-free multi-producer
 * {@link java.util.concurrent.ScheduledExecutorService} built on it ({@link dev.tickwheel.WheelTimer}).
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
