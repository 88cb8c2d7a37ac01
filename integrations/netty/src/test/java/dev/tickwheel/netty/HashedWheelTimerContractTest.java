package dev.tickwheel.netty;

import io.netty.util.HashedWheelTimer;
import io.netty.util.Timer;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The contract suite against Netty's own {@link HashedWheelTimer}, the reference {@link NettyWheelTimer} follows: if a
 * case fails here, the case is wrong. With a 1 ms tick (its default, 100 ms, would only make the suite slower) and
 * its default 512 ticks per wheel and thread factory.
 */
class HashedWheelTimerContractTest extends NettyTimerContractTest {

    @Override
    Timer newTimer() {
        return new HashedWheelTimer(1, TimeUnit.MILLISECONDS);
    }

    @Override
    Timer newTimerWithMaxPending(long max) {
        return new HashedWheelTimer(Executors.defaultThreadFactory(), 1, TimeUnit.MILLISECONDS, 512, false, max);
    }

    @Override
    long pendingTimeouts(Timer t) {
        return ((HashedWheelTimer) t).pendingTimeouts();
    }
}
