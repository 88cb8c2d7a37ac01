package dev.tickwheel;

import java.lang.invoke.MethodHandle;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A shorter EEVDF slice for the timer's threads ({@link WheelTimer.Builder#schedulerSlice}): each thread the timer
 * starts asks the Linux kernel, first thing, for this slice with {@code sched_setattr} (policy and nice unchanged,
 * {@code sched_runtime} set: Linux 6.12 and later read it as a fair task's slice, from 0.1 to 100 ms, with no
 * privilege needed).
 *
 * <p>Why: on a machine whose cores are all busy, a thread that wakes for a due timer waits out the running thread's
 * protected slice (1.4 ms at 2 CPUs, more with more) unless the kernel owes it time or it asks for a shorter slice
 * than the running thread's. A short slice lets the timer's wake-ups preempt at once. The README's "which tick, which
 * pool" guide has the measurements, and the cost on a quiet machine.
 *
 * <p>The call is made through the foreign function API ({@code java.lang.foreign}, final in JDK 22), reached by
 * reflection so that the library still compiles and runs on Java 17; where it is missing, or native access is not
 * enabled for this module, or the kernel is not Linux 6.12 or later on x86-64 or AArch64, {@link #of} throws
 * {@link UnsupportedOperationException} naming what is missing. Threads: {@link #of} runs on the builder's thread
 * (it checks on a short-lived probe thread that the kernel takes the slice); {@link #applyToCurrentThread} runs on
 * each timer thread as it starts, and touches only that thread's own state. Memory ordering: an instance and its
 * bound calls are immutable (final fields) and reach each timer thread through {@code Thread.start}, which
 * happens-before everything the thread does.
 */
final class SchedulerSlice {
    /** The shortest slice Linux takes for a fair task; a shorter request is clamped to this. */
    static final long MIN_NANOS = 100_000L;
    /** The longest slice Linux takes for a fair task. */
    static final long MAX_NANOS = 100_000_000L;

    /** {@code struct sched_attr}, SCHED_ATTR_SIZE_VER1: its size and the offset of {@code sched_runtime}. */
    private static final long ATTR_SIZE = 56;
    private static final long RUNTIME_OFFSET = 24;

    private final long nanos;
    private final Native calls;

    private SchedulerSlice(long nanos, Native calls) {
        this.nanos = nanos;
        this.calls = calls;
    }

    /**
     * @param nanos the slice, from {@link #MIN_NANOS} to {@link #MAX_NANOS}
     * @return a slice the kernel was seen to take, on a probe thread
     * @throws IllegalArgumentException if nanos is outside that range
     * @throws UnsupportedOperationException if this JVM, its flags or the kernel cannot set it (the message says
     *         which)
     */
    static SchedulerSlice of(long nanos) {
        if (nanos < MIN_NANOS || nanos > MAX_NANOS) {
            throw new IllegalArgumentException("schedulerSlice " + nanos + " ns is outside [" + MIN_NANOS + ", "
                    + MAX_NANOS + "] ns: the range in which Linux takes a fair task's slice");
        }
        SchedulerSlice slice = new SchedulerSlice(nanos, Native.load());
        long seen = slice.probe();
        if (seen != nanos) {
            throw new UnsupportedOperationException("schedulerSlice: the kernel (" + System.getProperty("os.version")
                    + ") accepted a slice of " + nanos + " ns but its thread reads se.slice " + seen
                    + " ns: it needs Linux 6.12 or later");
        }
        return slice;
    }

    /** @return the slice asked for, in nanoseconds */
    long nanos() {
        return nanos;
    }

    /**
     * Asks the kernel for this slice for the calling thread.
     *
     * @return whether the kernel took it (false: the thread keeps the kernel's default slice)
     */
    boolean applyToCurrentThread() {
        try {
            return calls.setSlice(nanos);
        } catch (Throwable e) {
            return false;
        }
    }

    /**
     * @param factory the factory that makes the timer's threads
     * @return a factory whose threads apply this slice before they run their role; the role is still what the
     *         given factory sees, so its {@code toString()} still names it
     */
    ThreadFactory around(ThreadFactory factory) {
        return r -> factory.newThread(TimerThreads.role(r.toString(), () -> {
            applyToCurrentThread(); // a refusal leaves the kernel's default slice: the thread runs regardless
            r.run();
        }));
    }

    /**
     * @return the calling thread's slice as the kernel reports it ({@code se.slice} in
     *         {@code /proc/thread-self/sched}), or -1 if that file or line cannot be read
     */
    static long currentThreadSlice() {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/thread-self/sched"));
            for (String line : lines) {
                if (line.startsWith("se.slice")) {
                    return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /** Applies the slice on a fresh thread and reads it back there: this thread's own slice stays as it was. */
    private long probe() {
        AtomicReference<Object> seen = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                seen.set(calls.setSlice(nanos) ? currentThreadSlice() : -1L);
            } catch (Throwable e) {
                seen.set(e);
            }
        }, "tickwheel-slice-probe");
        t.setDaemon(true);
        t.start();
        boolean interrupted = false;
        while (t.isAlive()) {
            try {
                t.join();
            } catch (InterruptedException e) {
                interrupted = true; // the probe is a few system calls: wait for it, keep the interrupt
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        Object r = seen.get();
        if (r instanceof Throwable) {
            throw new UnsupportedOperationException("schedulerSlice: the sched_setattr call failed", (Throwable) r);
        }
        long s = (Long) r;
        if (s == -1L) {
            throw new UnsupportedOperationException("schedulerSlice: the kernel (" + System.getProperty("os.version")
                    + ") refused sched_setattr with a " + nanos + " ns slice: it needs Linux 6.12 or later");
        }
        return s;
    }

    /**
     * The two system calls, bound through {@code java.lang.foreign} by reflection: {@code syscall(nr, 0, attr, size,
     * flags)} for {@code sched_getattr} and {@code sched_setattr} on the calling thread (pid 0). Immutable once
     * loaded; each call allocates its 56-byte {@code struct sched_attr} in a confined arena it closes.
     */
    private static final class Native {
        private final long getattr;
        private final long setattr;
        private final MethodHandle syscall;
        private final java.lang.reflect.Method ofConfined;
        private final java.lang.reflect.Method allocate;
        private final java.lang.reflect.Method setLong;
        private final java.lang.reflect.Method setInt;
        private final Object javaLong;
        private final Object javaInt;

        private Native(long getattr, long setattr, MethodHandle syscall, java.lang.reflect.Method ofConfined,
                       java.lang.reflect.Method allocate, java.lang.reflect.Method setLong,
                       java.lang.reflect.Method setInt, Object javaLong, Object javaInt) {
            this.getattr = getattr;
            this.setattr = setattr;
            this.syscall = syscall;
            this.ofConfined = ofConfined;
            this.allocate = allocate;
            this.setLong = setLong;
            this.setInt = setInt;
            this.javaLong = javaLong;
            this.javaInt = javaInt;
        }

        static Native load() {
            if (!"Linux".equals(System.getProperty("os.name"))) {
                throw new UnsupportedOperationException("schedulerSlice needs Linux 6.12 or later; this is "
                        + System.getProperty("os.name"));
            }
            String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
            long getattr;
            long setattr;
            if (arch.equals("amd64") || arch.equals("x86_64")) {
                getattr = 315;
                setattr = 314;
            } else if (arch.equals("aarch64")) {
                getattr = 275;
                setattr = 274;
            } else {
                throw new UnsupportedOperationException("schedulerSlice knows the system calls of x86-64 and AArch64,"
                        + " not of " + arch);
            }
            if (Runtime.version().feature() < 22) {
                throw new UnsupportedOperationException("schedulerSlice needs JDK 22 or later (the foreign function"
                        + " API); this is " + Runtime.version());
            }
            try {
                Module module = SchedulerSlice.class.getModule();
                boolean enabled = (Boolean) Module.class.getMethod("isNativeAccessEnabled").invoke(module);
                if (!enabled) {
                    throw new UnsupportedOperationException("schedulerSlice makes a native call: start the JVM with"
                            + " --enable-native-access=" + (module.isNamed() ? module.getName() : "ALL-UNNAMED"));
                }
                Class<?> linkerC = Class.forName("java.lang.foreign.Linker");
                Class<?> optionC = Class.forName("java.lang.foreign.Linker$Option");
                Class<?> lookupC = Class.forName("java.lang.foreign.SymbolLookup");
                Class<?> layoutC = Class.forName("java.lang.foreign.MemoryLayout");
                Class<?> valueC = Class.forName("java.lang.foreign.ValueLayout");
                Class<?> ofLongC = Class.forName("java.lang.foreign.ValueLayout$OfLong");
                Class<?> ofIntC = Class.forName("java.lang.foreign.ValueLayout$OfInt");
                Class<?> descC = Class.forName("java.lang.foreign.FunctionDescriptor");
                Class<?> segC = Class.forName("java.lang.foreign.MemorySegment");
                Class<?> arenaC = Class.forName("java.lang.foreign.Arena");
                Object linker = linkerC.getMethod("nativeLinker").invoke(null);
                Object libc = linkerC.getMethod("defaultLookup").invoke(linker);
                Optional<?> symbol = (Optional<?>) lookupC.getMethod("find", String.class).invoke(libc, "syscall");
                if (symbol.isEmpty()) {
                    throw new UnsupportedOperationException("schedulerSlice: the C library has no syscall()");
                }
                Object javaLong = valueC.getField("JAVA_LONG").get(null);
                Object javaInt = valueC.getField("JAVA_INT").get(null);
                Object address = valueC.getField("ADDRESS").get(null);
                // long syscall(long number, ...): variadic from the second argument on (the pid, 0 for the calling
                // thread; the struct's address; the size or flags; flags or an unused 0).
                Object args = Array.newInstance(layoutC, 5);
                Array.set(args, 0, javaLong);
                Array.set(args, 1, javaLong);
                Array.set(args, 2, address);
                Array.set(args, 3, javaLong);
                Array.set(args, 4, javaLong);
                Object desc = descC.getMethod("of", layoutC, args.getClass()).invoke(null, javaLong, args);
                Object options = Array.newInstance(optionC, 1);
                Array.set(options, 0, optionC.getMethod("firstVariadicArg", int.class).invoke(null, 1));
                MethodHandle syscall = (MethodHandle) linkerC.getMethod("downcallHandle", segC, descC,
                        options.getClass()).invoke(linker, symbol.get(), desc, options);
                return new Native(getattr, setattr, syscall, arenaC.getMethod("ofConfined"),
                        arenaC.getMethod("allocate", long.class, long.class),
                        segC.getMethod("set", ofLongC, long.class, long.class),
                        segC.getMethod("set", ofIntC, long.class, int.class), javaLong, javaInt);
            } catch (InvocationTargetException e) {
                throw new UnsupportedOperationException("schedulerSlice: the foreign function API refused the"
                        + " binding of syscall()", e.getCause());
            } catch (ReflectiveOperationException | ClassCastException e) {
                throw new UnsupportedOperationException("schedulerSlice: the foreign function API of "
                        + Runtime.version() + " is not the one it was written for", e);
            }
        }

        /** sched_getattr then sched_setattr with {@code sched_runtime} = nanos, for the calling thread. */
        boolean setSlice(long nanos) throws Throwable {
            try (AutoCloseable arena = (AutoCloseable) ofConfined.invoke(null)) {
                Object attr = allocate.invoke(arena, ATTR_SIZE, 8L);
                setInt.invoke(attr, javaInt, 0L, (int) ATTR_SIZE);
                long r = (long) syscall.invokeWithArguments(getattr, 0L, attr, ATTR_SIZE, 0L);
                if (r != 0) {
                    return false;
                }
                setInt.invoke(attr, javaInt, 0L, (int) ATTR_SIZE); // sched_getattr wrote back the size it filled
                setLong.invoke(attr, javaLong, RUNTIME_OFFSET, nanos);
                return (long) syscall.invokeWithArguments(setattr, 0L, attr, 0L, 0L) == 0;
            }
        }
    }
}
