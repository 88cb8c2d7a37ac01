/**
 * A user's module: it reads Tickwheel and its Micrometer binder by module name, as a published jar offers them.
 */
module dev.tickwheel.consumer {
    requires dev.tickwheel;
    requires dev.tickwheel.micrometer;
}
