package dev.openrag.schemas;

/**
 * An event of one version of a document on its way through the pipeline. The version is named once,
 * when the document is parsed: its job and the time it arrived ({@link #arrivedAt}), which every stage
 * carries on unchanged, so that each store, whatever its host's clock, records the same version.
 */
public interface VersionedEvent extends EventEnvelope {

    /** Epoch milliseconds the version arrived, fixed by the parse stage; null in events written before it was carried. */
    Long arrivedAt();
}
