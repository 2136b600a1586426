package dev.openrag.ingest.estimate;

import java.io.IOException;
import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.resteasy.reactive.RestForm;
import org.jboss.resteasy.reactive.multipart.FileUpload;

import dev.openrag.ingest.source.DocumentPublisher;
import dev.openrag.ingest.source.Uploads;
import dev.openrag.knowledge.access.Role;
import dev.openrag.knowledge.runtime.auth.Access;
import io.smallrye.common.annotation.Blocking;

/** {@code POST /api/estimate}: the LLM tokens and cost of ingesting the uploaded files, no model called. */
@Path("/api/estimate")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
@RolesAllowed(Role.READER)
public class EstimateResource {

    private final Uploads uploads;
    private final CostEstimator estimator;
    private final Access access;

    public EstimateResource(Uploads uploads, CostEstimator estimator, Access access) {
        this.uploads = uploads;
        this.estimator = estimator;
        this.access = access;
    }

    @POST
    @Consumes(MediaType.MULTIPART_FORM_DATA)
    @Operation(summary = "Tokens and cost of ingesting these files (one or more `files` parts) with the collection's settings")
    public CostEstimator.Estimate estimate(@RestForm("files") List<FileUpload> files, @RestForm("collection") String collection)
            throws IOException {
        String target = access.collection(collection);
        Uploads.Read read = uploads.read(files, target, "estimate");
        if (read.documents().isEmpty()) {
            throw read.nothingAccepted();
        }
        return estimator.estimate(target, read.documents(), read.rejections().stream()
                .map(r -> new DocumentPublisher.Rejection(r.name(), r.reason(), null)).toList());
    }
}
