package dev.tickwheel.netty;

import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Netty's logging, captured: while installed, every logger that Netty's {@link InternalLoggerFactory} makes records
 * its WARN messages here, whatever logging backend the test's class path holds. {@link NettyWheelTimer} takes its
 * logger when it is built, so a timer built while this is installed logs here for its whole life.
 */
final class CapturedNettyLog implements AutoCloseable {

    /** One WARN call: the logger's name, the message and the throwable (or null). */
    record Warning(String logger, String message, Throwable thrown) {
    }

    private final List<Warning> warnings = new CopyOnWriteArrayList<>();
    private final InternalLoggerFactory previous;

    private CapturedNettyLog() {
        this.previous = InternalLoggerFactory.getDefaultFactory();
    }

    /** Installs a capturing factory as Netty's default until {@link #close()}. */
    static CapturedNettyLog install() {
        CapturedNettyLog log = new CapturedNettyLog();
        InternalLoggerFactory.setDefaultFactory(new InternalLoggerFactory() {
            @Override
            protected InternalLogger newInstance(String name) {
                return log.logger(name);
            }
        });
        return log;
    }

    /** A logger with every level enabled that records warn(String, Throwable) and warn(String). */
    private InternalLogger logger(String name) {
        return (InternalLogger) Proxy.newProxyInstance(InternalLogger.class.getClassLoader(),
                new Class<?>[] {InternalLogger.class}, (proxy, method, args) -> {
                    String m = method.getName();
                    if (m.equals("name") || m.equals("toString")) {
                        return name;
                    }
                    if (m.equals("hashCode")) {
                        return System.identityHashCode(proxy);
                    }
                    if (m.equals("equals")) {
                        return proxy == args[0];
                    }
                    if (method.getReturnType() == boolean.class) {
                        return true; // isXxxEnabled
                    }
                    if (m.equals("warn") && args != null && args.length >= 1 && args[0] instanceof String) {
                        Throwable t = args.length == 2 && args[1] instanceof Throwable ? (Throwable) args[1] : null;
                        warnings.add(new Warning(name, (String) args[0], t));
                    }
                    return null;
                });
    }

    List<Warning> warnings() {
        return warnings;
    }

    @Override
    public void close() {
        InternalLoggerFactory.setDefaultFactory(previous);
    }
}
