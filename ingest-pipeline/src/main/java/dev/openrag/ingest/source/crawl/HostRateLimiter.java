package dev.openrag.ingest.source.crawl;

import java.util.HashMap;
import java.util.Map;

/** At most one request per interval to each host: the caller waits its turn. One per crawl run (single thread). */
final class HostRateLimiter {

    private final long minIntervalMillis;
    private final Map<String, Long> lastRequest = new HashMap<>();

    HostRateLimiter(double requestsPerSecond) {
        this.minIntervalMillis = (long) Math.ceil(1000 / requestsPerSecond);
    }

    /** Waits until the host may be asked again ({@code crawlDelayMillis} from robots.txt when longer). */
    void acquire(String host, long crawlDelayMillis) throws InterruptedException {
        long interval = Math.max(minIntervalMillis, crawlDelayMillis);
        Long last = lastRequest.get(host);
        if (last != null) {
            long wait = last + interval - System.currentTimeMillis();
            if (wait > 0) {
                Thread.sleep(wait);
            }
        }
        lastRequest.put(host, System.currentTimeMillis());
    }
}
