package dev.tickwheel.netty;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.asynchttpclient.AsyncCompletionHandler;
import org.asynchttpclient.AsyncHttpClient;
import org.asynchttpclient.Dsl;
import org.asynchttpclient.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A real client on the adapter: AsyncHttpClient, given a {@link NettyWheelTimer} as its Netty timer (the one line a
 * user changes), against a local HTTP server bound to 127.0.0.1 only; and the same with the {@code HashedWheelTimer}
 * it replaces, so that what the client does with either timer can be compared. Requests that get answers complete and leave
 * no timeout behind; requests to a server that never answers time out by the request timeout, and requests whose
 * response stalls after the first bytes time out by the read timeout: each exactly once, and none before its
 * timeout (AsyncHttpClient re-checks the last read when its read timeout fires and, if there was one since, waits
 * a whole read timeout again: so a read timeout may end up to twice its value after the request started, with
 * either timer). Then the client closes cleanly, leaves the timer running (it did not create it), and the timer
 * stops with none of the client's request timeouts left in it (its connection pool's and cookie store's periodic
 * tasks may be).
 *
 * <p>A handful of requests, all in flight together, so the test takes about as long as its longest timeout. The
 * only timing assertions are "never early"; every wait has a generous hang guard.
 */
class AsyncHttpClientTimeoutTest {

    static final long HANG_GUARD_SECONDS = 30;
    static final long REQUEST_TIMEOUT_MS = 300;
    static final long READ_TIMEOUT_MS = 250;
    /** Requests of each kind. */
    static final int REQUESTS = 3;

    /** Released at the end, so that the server's handlers (which never answer on their own) return. */
    private final CountDownLatch release = new CountDownLatch(1);
    private HttpServer server;
    private ExecutorService serverThreads;
    private String base;
    private Timer timer;

    /** The timers the client is given: the adapter, and, for comparison, the timer it replaces. */
    enum Kind {
        TICKWHEEL {
            @Override
            Timer create() {
                return new NettyWheelTimer();
            }

            @Override
            long pending(Timer t) {
                return ((NettyWheelTimer) t).pendingTimeouts();
            }
        },
        HASHED_WHEEL_TIMER_1MS {
            @Override
            Timer create() {
                return new HashedWheelTimer(1, MILLISECONDS);
            }

            @Override
            long pending(Timer t) {
                return ((HashedWheelTimer) t).pendingTimeouts();
            }
        };

        abstract Timer create();

        abstract long pending(Timer t);
    }

    @BeforeEach
    void startServer() throws IOException {
        serverThreads = Executors.newCachedThreadPool();
        server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 16);
        server.setExecutor(serverThreads);
        server.createContext("/ok", exchange -> respond(exchange, "ok"));
        server.createContext("/hang", exchange -> { // never a byte: the request timeout's case
            awaitRelease();
            exchange.close();
        });
        server.createContext("/stall", exchange -> { // headers and a first chunk, then nothing: the read timeout's
            exchange.sendResponseHeaders(200, 0);
            OutputStream body = exchange.getResponseBody();
            body.write("first chunk\n".getBytes(StandardCharsets.US_ASCII));
            body.flush();
            awaitRelease();
            exchange.close();
        });
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stopServer() {
        release.countDown();
        server.stop(0);
        serverThreads.shutdownNow();
        if (timer != null) {
            timer.stop();
        }
    }

    private void awaitRelease() {
        try {
            release.await(HANG_GUARD_SECONDS, SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void respond(HttpExchange exchange, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream body = exchange.getResponseBody()) {
            body.write(bytes);
        }
    }

    /** One request's view from the client: every callback counted, when it ended, and how. */
    static final class Outcome extends AsyncCompletionHandler<Response> {
        final long startNanos = System.nanoTime();
        final AtomicInteger completions = new AtomicInteger();
        final AtomicInteger failures = new AtomicInteger();
        final CompletableFuture<Throwable> ended = new CompletableFuture<>();
        volatile long endNanos;

        @Override
        public Response onCompleted(Response response) {
            completions.incrementAndGet();
            endNanos = System.nanoTime();
            ended.complete(null);
            return response;
        }

        @Override
        public void onThrowable(Throwable t) {
            failures.incrementAndGet();
            endNanos = System.nanoTime();
            ended.complete(t);
        }

        Throwable awaitEnd() throws Exception {
            return ended.get(HANG_GUARD_SECONDS, SECONDS);
        }

        long elapsedMillis() {
            return (endNanos - startNanos) / 1_000_000;
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void requestAndReadTimeoutsFireOnceAndNeverEarlyAndTheClientShutsDownCleanly(Kind kind) throws Exception {
        timer = kind.create();
        AsyncHttpClient client = Dsl.asyncHttpClient(Dsl.config()
                .setNettyTimer(timer) // the one line: HashedWheelTimer's place
                .setMaxRequestRetry(0)
                .setConnectTimeout(Duration.ofSeconds(HANG_GUARD_SECONDS))
                .setRequestTimeout(Duration.ofSeconds(HANG_GUARD_SECONDS))
                .setReadTimeout(Duration.ofSeconds(HANG_GUARD_SECONDS))
                .setShutdownQuietPeriod(Duration.ZERO)
                .setShutdownTimeout(Duration.ofSeconds(HANG_GUARD_SECONDS)));
        boolean closed = false;
        try {
            // Answered requests: their timeouts are scheduled and then cancelled.
            for (int i = 0; i < REQUESTS; i++) {
                Outcome ok = new Outcome();
                Response r = client.prepareGet(base + "/ok").execute(ok).get(HANG_GUARD_SECONDS, SECONDS);
                assertEquals("ok", r.getResponseBody());
            }

            List<Outcome> requestTimeouts = new ArrayList<>();
            List<Outcome> readTimeouts = new ArrayList<>();
            for (int i = 0; i < REQUESTS; i++) {
                Outcome o = new Outcome();
                client.prepareGet(base + "/hang").setRequestTimeout(Duration.ofMillis(REQUEST_TIMEOUT_MS)).execute(o);
                requestTimeouts.add(o);
                Outcome s = new Outcome();
                client.prepareGet(base + "/stall").setReadTimeout(Duration.ofMillis(READ_TIMEOUT_MS)).execute(s);
                readTimeouts.add(s);
            }
            for (Outcome o : requestTimeouts) {
                assertTimedOut(kind, o, "Request timeout", REQUEST_TIMEOUT_MS, 0);
            }
            for (Outcome o : readTimeouts) {
                // AsyncHttpClient measures the read timeout from the last read on the wall clock, in whole
                // milliseconds: it may call it 1 ms before the nanoTime interval this test measures.
                assertTimedOut(kind, o, "Read timeout", READ_TIMEOUT_MS, 1);
            }

            // The client did not stop a timer it was given: the timer still takes timeouts.
            CountDownLatch stillRunning = new CountDownLatch(1);
            timer.newTimeout(t -> stillRunning.countDown(), 1, MILLISECONDS);
            assertTrue(stillRunning.await(HANG_GUARD_SECONDS, SECONDS));

            client.close();
            closed = true;
            assertTrue(client.isClosed());
            for (Outcome o : requestTimeouts) {
                assertEquals(1, o.failures.get(), "a request timed out more than once");
                assertEquals(0, o.completions.get());
            }
            for (Outcome o : readTimeouts) {
                assertEquals(1, o.failures.get(), "a request timed out more than once");
                assertEquals(0, o.completions.get());
            }
        } finally {
            if (!closed) {
                client.close();
            }
        }

        Set<Timeout> left = timer.stop();
        for (Timeout t : left) {
            String task = t.task().getClass().getSimpleName();
            assertFalse(task.contains("RequestTimeout") || task.contains("ReadTimeout"),
                    "a request's timeout outlived its request: " + t);
        }
        if (kind == Kind.TICKWHEEL) {
            // HashedWheelTimer's pendingTimeouts() keeps counting the timeouts its stop() returned.
            assertEquals(0, kind.pending(timer), timer::toString);
        }
    }

    private static void assertTimedOut(Kind timer, Outcome o, String kind, long timeoutMs, long wallClockSlackMs)
            throws Exception {
        Throwable t = o.awaitEnd();
        assertTrue(t instanceof TimeoutException, "expected a " + kind + ", got " + t);
        assertTrue(t.getMessage().startsWith(kind), t.getMessage());
        long elapsed = o.elapsedMillis();
        assertTrue(elapsed >= timeoutMs - wallClockSlackMs, kind + " after " + elapsed + " ms, before its "
                + timeoutMs + " ms");
        System.out.println(String.format(Locale.ROOT, "%s: %s of %d ms, after %d ms", timer, kind, timeoutMs,
                elapsed));
    }
}
