package dev.openrag.ingest.source;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.openrag.knowledge.runtime.ApiException;
import dev.openrag.schemas.DocumentArrived;
import dev.openrag.schemas.EventEnvelope;
import dev.openrag.schemas.Ids;
import dev.openrag.schemas.PremadeChunk;
import dev.openrag.schemas.Source;

/**
 * Reads the pre-chunked corpus format (ARCHITECTURE §5): a JSON array of
 * {@code {doc_id, original_uuid, content, chunks: [{chunk_id, original_index, content}]}}.
 * {@code original_uuid} becomes the document id and {@code original_index} the chunk index, so
 * evaluation golden chunks ([documentId, chunkIndex]) match what is indexed. Errors name the
 * offending position, e.g. {@code $[3].chunks[0].content}; two chunks of a document with one
 * {@code original_index} are refused.
 */
final class CorpusReader {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private CorpusReader() {
    }

    static List<DocumentArrived> read(String json, String jobId, String collection) {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            var location = e.getLocation();
            throw new ApiException(400, "invalid_json", "the corpus is not valid JSON"
                    + (location == null ? "" : " at line " + location.getLineNr() + ", column " + location.getColumnNr())
                    + ": " + e.getOriginalMessage());
        }
        if (root == null || !root.isArray()) {
            throw ApiException.badRequest("$: the corpus must be a JSON array of documents");
        }
        if (root.isEmpty()) {
            throw ApiException.badRequest("$: the corpus is empty");
        }
        List<DocumentArrived> documents = new ArrayList<>();
        for (int i = 0; i < root.size(); i++) {
            JsonNode document = root.get(i);
            String at = "$[" + i + "]";
            String documentId = text(document, "original_uuid", at);
            String name = document.hasNonNull("doc_id") ? document.get("doc_id").asText() : documentId;
            String content = text(document, "content", at);
            JsonNode chunks = document.get("chunks");
            if (chunks == null || !chunks.isArray() || chunks.isEmpty()) {
                throw ApiException.badRequest(at + ".chunks: must be a non-empty array");
            }
            List<PremadeChunk> premade = new ArrayList<>();
            Map<Integer, Integer> seen = new HashMap<>(); // original_index -> position of the chunk holding it
            for (int c = 0; c < chunks.size(); c++) {
                JsonNode chunk = chunks.get(c);
                String chunkAt = at + ".chunks[" + c + "]";
                JsonNode index = chunk.get("original_index");
                if (index == null || !index.canConvertToInt() || index.asInt() < 0) {
                    throw ApiException.badRequest(chunkAt + ".original_index: must be a non-negative integer");
                }
                Integer first = seen.putIfAbsent(index.asInt(), c);
                if (first != null) { // the index is the chunk's id: a second one would silently replace the first
                    throw ApiException.badRequest(chunkAt + ".original_index: " + index.asInt() + " is already the index of "
                            + at + ".chunks[" + first + "]; each chunk of a document needs its own");
                }
                premade.add(new PremadeChunk(chunk.hasNonNull("chunk_id") ? chunk.get("chunk_id").asText() : null,
                        index.asInt(), text(chunk, "content", chunkAt)));
            }
            documents.add(new DocumentArrived(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(), documentId, jobId,
                    collection, new Source("corpus", "corpus://" + name), name, "text/plain", content, DocumentArrived.TEXT,
                    premade, Map.of("docId", name)));
        }
        return documents;
    }

    private static String text(JsonNode node, String field, String at) {
        JsonNode value = node == null ? null : node.get(field);
        if (value == null || !value.isTextual()) {
            throw ApiException.badRequest(at + "." + field + ": required string is missing");
        }
        return value.asText();
    }
}
