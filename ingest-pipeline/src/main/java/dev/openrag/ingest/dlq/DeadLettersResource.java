package dev.openrag.ingest.dlq;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;

import dev.openrag.ingest.job.JobTracker;
import dev.openrag.ingest.stage.StageRunner;
import dev.openrag.ingest.stage.Stages;
import dev.openrag.knowledge.access.Role;
import dev.openrag.knowledge.runtime.ApiException;
import dev.openrag.knowledge.runtime.auth.Access;
import dev.openrag.schemas.EventEnvelope;
import dev.openrag.schemas.Ids;
import dev.openrag.schemas.StageCompleted;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;

/** {@code GET /api/dlq} lists dead letters with their reasons; {@code POST /api/dlq/redrive} sends them back. */
@Path("/api/dlq")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
@RolesAllowed(Role.ADMINISTRATOR)
public class DeadLettersResource {

    static final int MAX_LIMIT = 1000;

    /** {@code POST /api/dlq/redrive} body: which letters; {@code all: true} is needed to redrive without a filter. */
    public record RedriveRequest(Boolean all, String jobId, String documentId, String collection, String stage) {
    }

    public record Listing(List<DeadLetters.Letter> deadLetters, int count) {
    }

    public record Redriven(String jobId, int redriven, List<String> documentIds, List<String> skipped) {
    }

    private final DeadLetters letters;
    private final JobTracker jobs;
    private final StageRunner runner;
    private final MutinyEmitter<String> redrive;
    private final List<String> finalStages;

    public DeadLettersResource(DeadLetters letters, JobTracker jobs, StageRunner runner, @Channel("redrive-out") MutinyEmitter<String> redrive,
                               @ConfigProperty(name = "openrag.vectors.backend", defaultValue = "neo4j") String vectorBackend) {
        this.letters = letters;
        this.jobs = jobs;
        this.runner = runner;
        this.redrive = redrive;
        this.finalStages = Stages.finalStages(vectorBackend);
    }

    @GET
    @Operation(summary = "Dead letters, newest first, with the stage and the reason; filter by collection, stage, job or document")
    public Listing list(@QueryParam("collection") String collection, @QueryParam("stage") String stage, @QueryParam("jobId") String jobId,
                        @QueryParam("documentId") String documentId, @QueryParam("limit") @DefaultValue("100") int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw ApiException.badRequest("'limit' must be between 1 and " + MAX_LIMIT + ", got " + limit);
        }
        List<DeadLetters.Letter> found = letters.list(filter(collection, stage, jobId, documentId), limit);
        return new Listing(found, found.size());
    }

    @POST
    @Path("/redrive")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Re-publish dead letters to the topics they came from, as a new job {all | jobId | documentId | collection | stage}")
    public Response redrive(RedriveRequest request) {
        if (request == null) {
            throw ApiException.badRequest("a JSON body is required: {\"all\": true} or a filter {jobId, documentId, collection, stage}");
        }
        DeadLetters.Filter filter = filter(request.collection(), request.stage(), request.jobId(), request.documentId());
        if (filter.isEmpty() && !Boolean.TRUE.equals(request.all())) {
            throw ApiException.badRequest("give a filter (jobId, documentId, collection, stage) or {\"all\": true} to redrive every dead letter");
        }
        DeadLetters.Redrive plan = letters.planRedrive(filter);
        if (plan.resends().isEmpty()) {
            return Response.ok(new Redriven(null, 0, List.of(), plan.skipped())).build();
        }
        List<String> documents = plan.resends().stream().map(DeadLetters.Resend::documentId).distinct().toList();
        jobs.register(plan.jobId(), null, documents);
        for (DeadLetters.Resend resend : plan.resends()) {
            // final stages the re-sent event does not flow through were done in the original job: say so in the new one
            for (String done : alreadyDone(resend.topic())) {
                runner.emitStatus(new StageCompleted(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(), resend.documentId(),
                        plan.jobId(), resend.collection(), done, StageCompleted.STATUS, 0, null));
            }
            redrive.sendMessageAndAwait(Message.of(resend.event()).addMetadata(
                    OutgoingKafkaRecordMetadata.<String>builder().withTopic(resend.topic()).withKey(resend.documentId()).build()));
        }
        return Response.accepted(new Redriven(plan.jobId(), plan.resends().size(), documents, plan.skipped())).build();
    }

    private Set<String> alreadyDone(String topic) {
        Set<String> done = new LinkedHashSet<>(finalStages);
        done.removeAll(Stages.finalStagesFed(topic, finalStages));
        return done;
    }

    private static DeadLetters.Filter filter(String collection, String stage, String jobId, String documentId) {
        return new DeadLetters.Filter(blankToNull(collection), blankToNull(stage), blankToNull(jobId), blankToNull(documentId));
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
