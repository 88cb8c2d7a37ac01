/**
 * Tickwheel for Micrometer: {@link dev.tickwheel.micrometer.WheelTimerMetrics}, a Micrometer {@code MeterBinder}
 * for a {@link dev.tickwheel.WheelTimer}, and {@link dev.tickwheel.micrometer.NettyWheelTimerMetrics} for the Netty
 * adapter's {@code NettyWheelTimer}.
 *
 * <p>Micrometer's types are part of this module's API, so the module passes on its read of Micrometer's core,
 * which Micrometer ships as an automatic module ({@code Automatic-Module-Name: micrometer.core}); hence the
 * suppression. The Netty adapter is read only if it is there ({@code requires static}): a user without Netty uses
 * {@code WheelTimerMetrics} and never loads the Netty binder.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic", "exports"})
module dev.tickwheel.micrometer {
    requires transitive dev.tickwheel;
    requires transitive micrometer.core;
    requires static dev.tickwheel.netty;
    exports dev.tickwheel.micrometer;
}
