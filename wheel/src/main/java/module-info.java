/**
 * Tickwheel: lock-free multi-producer timers on a hierarchical timing wheel.
 */
module dev.tickwheel {
    requires org.jctools.core;
    exports dev.tickwheel;
}
