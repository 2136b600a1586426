package dev.openrag.ingest.source;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Channel;

import dev.openrag.ingest.job.JobTracker;
import dev.openrag.ingest.stage.StageRunner;
import dev.openrag.knowledge.tracing.Tracing;
import dev.openrag.schemas.DocumentArrived;
import dev.openrag.schemas.DocumentDeleted;
import dev.openrag.schemas.EventEnvelope;
import dev.openrag.schemas.Ids;
import dev.openrag.schemas.Source;
import dev.openrag.schemas.StageCompleted;
import dev.openrag.schemas.Topics;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.smallrye.reactive.messaging.MutinyEmitter;

/**
 * The one way sources (REST upload, corpus import, CLI) put documents into the pipeline: the job
 * learns about each document first (an "accepted" status event, keyed by job so it precedes the
 * document's later progress), then the document goes to openrag.documents.arrived. Documents
 * refused before the pipeline go to the dead-letter topic and into the job's failures.
 */
@ApplicationScoped
public class DocumentPublisher {

    /** A document refused by a source, with the reason. */
    public record Rejection(String name, String reason, String content) {
    }

    public static final String UPLOAD_STAGE = "upload";

    private final StageRunner runner;
    private final JobTracker jobs;
    private final MutinyEmitter<String> arrived;
    private final AcceptanceClock clock;

    private final Tracer tracer;

    public DocumentPublisher(StageRunner runner, JobTracker jobs, @Channel("arrived-out") MutinyEmitter<String> arrived, Tracer tracer,
                             AcceptanceClock clock) {
        this.runner = runner;
        this.jobs = jobs;
        this.arrived = arrived;
        this.tracer = tracer;
        this.clock = clock;
    }

    public static String newJobId() {
        return Ids.newEventId();
    }

    /** Publishes the documents of one job; returns their ids in order. */
    public List<String> publish(String jobId, String collection, List<DocumentArrived> documents, List<Rejection> rejections) {
        List<String> ids = new ArrayList<>();
        documents.forEach(document -> ids.add(document.documentId()));
        jobs.register(jobId, collection, ids);
        // the job's trace: a child of the upload's request span, or the root of a crawl's or a sync's
        return Tracing.inSpan(tracer, "publish-documents", () -> {
            Span.current().setAttribute("openrag.job.id", jobId).setAttribute("openrag.collection", collection)
                    .setAttribute("openrag.documents", documents.size());
            String traceId = Tracing.currentTraceId();
            runner.emitAllStatuses(documents.stream().map(document -> StageCompleted.accepted(document, traceId)).toList());
            // each document's record timestamp is its acceptance time, which parsing fixes as its version's
            runner.emitAll(arrived, documents, document -> clock.stamp(document.collection(), document.documentId()));
            for (Rejection rejection : rejections) {
                reject(jobId, collection, rejection);
            }
            return ids;
        });
    }

    /** A delete of the document, its time fixed now ({@link AcceptanceClock}), for the caller to send. */
    public DocumentDeleted deletion(String jobId, String collection, String documentId) {
        return new DocumentDeleted(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(), documentId, jobId, collection,
                clock.stamp(collection, documentId));
    }

    private void reject(String jobId, String collection, Rejection rejection) {
        String uri = "upload://" + rejection.name();
        String documentId = Ids.documentIdFromUri(uri);
        runner.reportRejected(UPLOAD_STAGE, documentId, jobId, collection, rejection.name() + ": " + rejection.reason(),
                Topics.DOCUMENTS_ARRIVED, rejection.content(), new Source("upload", uri));
        jobs.rejected(jobId, documentId, uri, UPLOAD_STAGE, rejection.name() + ": " + rejection.reason());
    }

    public static DocumentArrived text(String jobId, String collection, Source source, String documentId, String title,
                                       String mediaType, String text, java.util.Map<String, Object> metadata) {
        return new DocumentArrived(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(), documentId, jobId, collection,
                source, title, mediaType, text, DocumentArrived.TEXT, null, metadata == null ? java.util.Map.of() : metadata);
    }
}
