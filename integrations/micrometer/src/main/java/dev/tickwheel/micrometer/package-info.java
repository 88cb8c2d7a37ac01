/**
 * Micrometer meters for Tickwheel's timers: bind a {@link dev.tickwheel.WheelTimer} with
 * {@link dev.tickwheel.micrometer.WheelTimerMetrics#monitor(io.micrometer.core.instrument.MeterRegistry,
 * dev.tickwheel.WheelTimer, String, io.micrometer.core.instrument.Tag...)}, or a {@code NettyWheelTimer} with
 * {@link dev.tickwheel.micrometer.NettyWheelTimerMetrics}. Both register the same meters, listed in
 * {@link dev.tickwheel.micrometer.WheelTimerMetrics}.
 *
 * <h2>Threading</h2>
 * Binding may happen on any thread. The meters hold no state of their own: every reading calls the timer's
 * {@code metrics()} on the thread that publishes or scrapes the registry, which is safe from any thread, takes no
 * lock the timer's threads take, and costs {@code schedule}, {@code cancel} and the runs nothing. The meters hold
 * the timer weakly, as Micrometer's gauges and function counters do: a timer that is no longer referenced elsewhere
 * may be collected, and its meters then read {@code NaN}.
 */
package dev.tickwheel.micrometer;
