package dev.openrag.ingest.source;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.jboss.resteasy.reactive.RestForm;
import org.jboss.resteasy.reactive.multipart.FileUpload;

import dev.openrag.ingest.stage.StageRunner;
import dev.openrag.ingest.stage.parse.DocumentParser;
import dev.openrag.knowledge.access.Role;
import dev.openrag.knowledge.runtime.ApiException;
import dev.openrag.knowledge.runtime.auth.Access;
import dev.openrag.schemas.DocumentArrived;
import dev.openrag.schemas.Ids;
import dev.openrag.schemas.Source;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.reactive.messaging.MutinyEmitter;

/** {@code POST /api/documents} (multipart files or JSON text) and {@code DELETE /api/documents/{id}}. */
@Path("/api/documents")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
@RolesAllowed(Role.WRITER)
public class DocumentsResource {

    /** JSON ingest body. */
    public record TextDocument(String title, String text, String uri, String collection, Map<String, Object> metadata) {
    }

    /** 202 answer: the job to follow and the ids of the accepted documents; refused files with reasons. */
    public record Accepted(String jobId, List<String> documentIds, List<DocumentPublisher.Rejection> rejected) {
    }

    private final DocumentPublisher publisher;
    private final DocumentParser parser;
    private final StageRunner runner;
    private final MutinyEmitter<String> deleted;
    private final Uploads uploads;
    private final Access access;

    public DocumentsResource(DocumentPublisher publisher, DocumentParser parser, StageRunner runner,
                             @Channel("deleted-out") MutinyEmitter<String> deleted, Access access, Uploads uploads) {
        this.access = access;
        this.uploads = uploads;
        this.publisher = publisher;
        this.parser = parser;
        this.runner = runner;
        this.deleted = deleted;
    }

    @POST
    @Consumes(MediaType.MULTIPART_FORM_DATA)
    @Operation(summary = "Upload files (one or more `files` parts, optional `collection`, optional `metadata`: a JSON object "
            + "of key → string, number, ISO-8601 date or list of strings, at most openrag.metadata.max-bytes bytes as JSON (a 400 names "
            + "the configured number), given to every file of the request)")
    public Response upload(@RestForm("files") List<FileUpload> files, @RestForm("collection") String collection,
                           @RestForm("metadata") String metadata) throws IOException {
        String target = access.collection(collection);
        Map<String, Object> callerMetadata = CallerMetadata.fromJson(metadata);
        String jobId = DocumentPublisher.newJobId();
        Uploads.Read read = uploads.read(files, target, jobId);
        List<DocumentArrived> documents = read.documents().stream().map(document -> CallerMetadata.withMetadata(document, callerMetadata)).toList();
        List<DocumentPublisher.Rejection> rejections = read.rejections();
        if (documents.isEmpty()) {
            publisher.publish(jobId, target, List.of(), rejections);
            throw read.nothingAccepted();
        }
        List<String> ids = publisher.publish(jobId, target, documents, rejections);
        return Response.accepted(new Accepted(jobId, ids, rejections.stream()
                .map(r -> new DocumentPublisher.Rejection(r.name(), r.reason(), null)).toList())).build();
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Ingest one text document given as JSON {title, text, uri, collection, metadata}")
    public Response ingestText(TextDocument document) {
        if (document == null) {
            throw ApiException.badRequest("missing JSON body {title, text, uri, collection, metadata}");
        }
        if (document.text() == null || document.text().isBlank()) {
            throw ApiException.badRequest("field 'text' is required and must not be blank");
        }
        if (document.text().length() > parser.maxBytes()) {
            throw new ApiException(413, "too_large", "field 'text' has " + document.text().length()
                    + " characters, the limit is " + parser.maxBytes());
        }
        String collection = access.collection(document.collection());
        Map<String, Object> callerMetadata = CallerMetadata.checked(document.metadata());
        String uri = document.uri() != null && !document.uri().isBlank() ? document.uri()
                : "text://" + (document.title() != null && !document.title().isBlank() ? document.title() : Ids.contentHash(document.text()));
        String jobId = DocumentPublisher.newJobId();
        String mediaType = uri.toLowerCase(java.util.Locale.ROOT).matches(".*\\.(md|markdown)$") ? "text/markdown" : "text/plain";
        List<String> ids = publisher.publish(jobId, collection, List.of(CallerMetadata.withMetadata(DocumentPublisher.text(jobId,
                collection, new Source("api", uri), Ids.documentIdFromUri(uri), document.title(), mediaType, document.text(), Map.of()),
                callerMetadata)), List.of());
        return Response.accepted(new Accepted(jobId, ids, List.of())).build();
    }

    @DELETE
    @Path("/{id}")
    @Operation(summary = "Remove a document from every store")
    public Response delete(@PathParam("id") String documentId, @QueryParam("collection") String collection) {
        String target = access.collection(collection);
        String jobId = DocumentPublisher.newJobId();
        runner.emit(deleted, publisher.deletion(jobId, target, documentId));
        return Response.accepted(new Accepted(jobId, List.of(documentId), List.of())).build();
    }
}
