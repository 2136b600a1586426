package dev.openrag.ingest.source.crawl;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * At most one request per interval to each host: the caller waits its turn. The interval runs from
 * the end of the previous request to the start of the next, on the monotonic clock, so a host sees
 * requests at least that far apart however late the previous one reached it (measuring from send to
 * send, a delayed request could arrive closer to the next one). One per crawl run (single thread).
 */
final class HostRateLimiter {

    /** A request's turn; closing it marks the request done, from when the next interval counts. */
    interface Turn extends AutoCloseable {
        @Override
        void close();
    }

    private final long minIntervalNanos;
    private final Map<String, Long> lastDone = new HashMap<>();

    HostRateLimiter(double requestsPerSecond) {
        this.minIntervalNanos = (long) Math.ceil(TimeUnit.SECONDS.toNanos(1) / requestsPerSecond);
    }

    /** Waits until the host may be asked again ({@code crawlDelayMillis} from robots.txt when longer). */
    Turn acquire(String host, long crawlDelayMillis) throws InterruptedException {
        long interval = Math.max(minIntervalNanos, TimeUnit.MILLISECONDS.toNanos(crawlDelayMillis));
        Long last = lastDone.get(host);
        if (last != null) {
            long wait = last + interval - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
        }
        return () -> lastDone.put(host, System.nanoTime());
    }
}
