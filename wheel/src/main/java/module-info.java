/**
 * Tickwheel: lock-free multi-producer timers on a hierarchical timing wheel.
 */
module dev.tickwheel {
    // JCTools' VarHandle queues (it reads org.jctools.core transitively, for the interfaces); no sun.misc.Unsafe.
    requires org.jctools.core.jdk11;
    exports dev.tickwheel;
}
