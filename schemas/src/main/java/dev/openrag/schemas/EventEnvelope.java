package dev.openrag.schemas;

/** The fields every event carries (ARCHITECTURE §3); events are keyed by {@link #documentId()}. */
public interface EventEnvelope {

    /** Version of the event layout; bumped on an incompatible change. */
    int CURRENT_SCHEMA_VERSION = 1;

    int schemaVersion();

    String eventId();

    String documentId();

    String jobId();

    String collection();
}
