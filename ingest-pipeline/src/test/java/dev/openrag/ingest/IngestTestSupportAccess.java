package dev.openrag.ingest;

import java.time.Duration;
import java.util.List;

import io.restassured.path.json.JsonPath;

/** {@link IngestTestSupport} for tests in the sub-packages (it is package-private). */
public final class IngestTestSupportAccess {

    private IngestTestSupportAccess() {
    }

    public static JsonPath awaitJob(String jobId, Duration timeout) {
        return IngestTestSupport.awaitJob(jobId, timeout);
    }

    public static List<String> readUntil(String topic, String marker, Duration timeout) {
        return IngestTestSupport.readUntil(topic, marker, 1, timeout);
    }
}
