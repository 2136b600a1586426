package dev.openrag.ingest.source;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.tika.Tika;
import org.jboss.resteasy.reactive.multipart.FileUpload;

import dev.openrag.ingest.stage.parse.DocumentParser;
import dev.openrag.knowledge.runtime.ApiException;
import dev.openrag.schemas.DocumentArrived;
import dev.openrag.schemas.EventEnvelope;
import dev.openrag.schemas.Ids;
import dev.openrag.schemas.Source;

/**
 * Uploaded files as documents: empty, oversized and unrecognised binary files are refused with
 * their reason (and the status the whole request gets when nothing is left), the rest detected
 * by Tika. Shared by {@code POST /api/documents} and {@code POST /api/estimate}.
 */
@ApplicationScoped
public class Uploads {

    /** The documents read and the files refused; {@code worstStatus} is the answer when no document was read. */
    public record Read(List<DocumentArrived> documents, List<DocumentPublisher.Rejection> rejections, int worstStatus) {

        /** 400, 413 or 415 naming every refused file, for a request that kept no document. */
        public ApiException nothingAccepted() {
            int status = worstStatus;
            return new ApiException(status, status == 413 ? "too_large" : status == 415 ? "unsupported_media_type" : "bad_request",
                    "no document accepted: " + String.join("; ", rejections.stream().map(r -> r.name() + ": " + r.reason()).toList()));
        }
    }

    private final DocumentParser parser;
    private final Tika tika = new Tika();

    public Uploads(DocumentParser parser) {
        this.parser = parser;
    }

    public Read read(List<FileUpload> files, String collection, String jobId) throws IOException {
        if (files == null || files.isEmpty()) {
            throw ApiException.badRequest("empty upload: send one or more files in multipart parts named 'files'");
        }
        List<DocumentArrived> documents = new ArrayList<>();
        List<DocumentPublisher.Rejection> rejections = new ArrayList<>();
        int worstStatus = 400;
        for (FileUpload file : files) {
            String name = file.fileName() == null || file.fileName().isBlank() ? "unnamed" : file.fileName();
            long size = file.size();
            if (size == 0) {
                rejections.add(new DocumentPublisher.Rejection(name, "empty file (0 bytes)", ""));
                continue;
            }
            if (size > parser.maxBytes()) {
                rejections.add(new DocumentPublisher.Rejection(name, "file too large: " + size + " bytes, the limit is "
                        + parser.maxBytes() + " (openrag.ingest.max-document-bytes)", ""));
                worstStatus = 413;
                continue;
            }
            byte[] bytes = Files.readAllBytes(file.uploadedFile());
            String mediaType = tika.detect(new ByteArrayInputStream(bytes), name);
            if (mediaType.equals("application/octet-stream")) {
                rejections.add(new DocumentPublisher.Rejection(name, "unsupported document type (unrecognised binary content)",
                        Base64.getEncoder().encodeToString(bytes)));
                worstStatus = Math.max(worstStatus, 415);
                continue;
            }
            String uri = "upload://" + name;
            documents.add(new DocumentArrived(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(), Ids.documentIdFromUri(uri),
                    jobId, collection, new Source("upload", uri), null, mediaType, Base64.getEncoder().encodeToString(bytes),
                    DocumentArrived.BASE64, null, Map.of("fileName", name)));
        }
        return new Read(documents, rejections, worstStatus);
    }
}
