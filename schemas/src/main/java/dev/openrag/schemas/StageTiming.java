package dev.openrag.schemas;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * When and where a stage worked on a document, carried by its status event: the instance, ISO-8601
 * start and end, the attempts it made, how long it waited before its last attempt (failures and
 * backoff, an engine's outage above all), and the document journey's trace id.
 */
public record StageTiming(String instance, String startedAt, String finishedAt, int attempts, long waitedMs, String traceId) {

    /**
     * The trace id of a document's journey through one job when no trace is recorded (OpenTelemetry's SDK is off):
     * 32 lowercase hex digits (W3C trace-context's format), derived from the job and the document so that every
     * stage on every instance names the same. With the SDK on, the stages name the recorded trace's id instead,
     * which the Kafka records' {@code traceparent} headers carry from stage to stage.
     */
    public static String traceId(String jobId, String documentId) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest((jobId + "\n" + documentId).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
