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

    /** A file read as a document, or refused with the reason and the HTTP status that reason answers alone. */
    public record FileRead(DocumentArrived document, DocumentPublisher.Rejection rejection, int status) {
    }

    /** A file's content, detected: what a document is made of. */
    public record Detected(String mediaType, String base64) {
    }

    /** Reads a file's bytes (only once its size passed). */
    @FunctionalInterface
    public interface Bytes {
        byte[] read() throws IOException;
    }

    private final DocumentParser parser;
    private final Tika tika = new Tika();

    public Uploads(DocumentParser parser) {
        this.parser = parser;
    }

    /** A file checked: its content detected, or the reason it is refused and the HTTP status that reason answers alone. */
    public record Checked(Detected detected, DocumentPublisher.Rejection rejection, int status) {
    }

    /** Empty, oversized and unrecognised binary files are refused with their reason; the bytes are read only past the size checks. */
    public Checked check(String name, long size, Bytes content) throws IOException {
        if (size == 0) {
            return new Checked(null, new DocumentPublisher.Rejection(name, "empty file (0 bytes)", ""), 400);
        }
        if (size > parser.maxBytes()) {
            return new Checked(null, new DocumentPublisher.Rejection(name, "file too large: " + size + " bytes, the limit is "
                    + parser.maxBytes() + " (openrag.ingest.max-document-bytes)", ""), 413);
        }
        byte[] bytes = content.read();
        String mediaType = tika.detect(new ByteArrayInputStream(bytes), name);
        String base64 = Base64.getEncoder().encodeToString(bytes);
        if (mediaType.equals("application/octet-stream")) {
            return new Checked(null, new DocumentPublisher.Rejection(name, "unsupported document type (unrecognised binary content)",
                    base64), 415);
        }
        return new Checked(new Detected(mediaType, base64), null, 0);
    }

    /** One file as a document ({@code document(detected)}), or refused ({@link #check}). Shared by uploads and synced sources. */
    public FileRead read(String name, long size, Bytes content, java.util.function.Function<Detected, DocumentArrived> document)
            throws IOException {
        Checked checked = check(name, size, content);
        return checked.rejection() != null ? new FileRead(null, checked.rejection(), checked.status())
                : new FileRead(document.apply(checked.detected()), null, 0);
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
            String uri = "upload://" + name;
            FileRead read = read(name, file.size(), () -> Files.readAllBytes(file.uploadedFile()), bytes -> new DocumentArrived(
                    EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(), Ids.documentIdFromUri(uri), jobId, collection,
                    new Source("upload", uri), null, bytes.mediaType(), bytes.base64(), DocumentArrived.BASE64, null,
                    Map.of("fileName", name)));
            if (read.document() != null) {
                documents.add(read.document());
            } else {
                rejections.add(read.rejection());
                worstStatus = Math.max(worstStatus, read.status());
            }
        }
        return new Read(documents, rejections, worstStatus);
    }
}
