package dev.openrag.ingest.source;

import java.util.List;
import java.util.Map;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;

import dev.openrag.knowledge.access.Role;
import dev.openrag.knowledge.runtime.ApiException;
import dev.openrag.knowledge.runtime.auth.Access;
import dev.openrag.schemas.DocumentArrived;
import io.smallrye.common.annotation.Blocking;

/** {@code POST /api/corpus?collection=NAME}: imports a pre-chunked corpus through the pipeline. */
@Path("/api/corpus")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
public class CorpusResource {

    private final DocumentPublisher publisher;

    private final Access access;

    public CorpusResource(DocumentPublisher publisher, Access access) {
        this.publisher = publisher;
        this.access = access;
    }

    @POST
    @RolesAllowed(Role.WRITER)
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Import a pre-chunked corpus [{doc_id, original_uuid, content, chunks: [{chunk_id, original_index, content}]}]")
    public Response importCorpus(@QueryParam("collection") String collection, String body) {
        if (body == null || body.isBlank()) {
            throw ApiException.badRequest("empty body: send the corpus as a JSON array");
        }
        String target = access.collection(collection);
        String jobId = DocumentPublisher.newJobId();
        List<DocumentArrived> documents = CorpusReader.read(body, jobId, target);
        List<String> ids = publisher.publish(jobId, target, documents, List.of());
        return Response.accepted(Map.of("jobId", jobId, "documents", ids.size(),
                "chunks", documents.stream().mapToInt(d -> d.chunks().size()).sum())).build();
    }
}
