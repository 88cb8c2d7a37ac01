/**
 * Tickwheel for Netty: {@link dev.tickwheel.netty.NettyWheelTimer}, Netty's {@code io.netty.util.Timer} on a
 * Tickwheel {@link dev.tickwheel.WheelTimer}.
 *
 * <p>Netty's {@code Timer} is part of this module's API, so the module passes on its read of Netty's common module,
 * which Netty ships as an automatic module ({@code Automatic-Module-Name: io.netty.common}); hence the suppression.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module dev.tickwheel.netty {
    requires transitive dev.tickwheel;
    requires transitive io.netty.common;
    exports dev.tickwheel.netty;
}
