package dev.openrag.query;

import java.util.List;

import dev.openrag.knowledge.port.Embedder;
import dev.openrag.knowledge.port.IndexedChunk;

/** Four small chunks with contexts and real bge-small vectors, for search tests. */
public final class SearchFixture {

    public static final String COLLECTION = "search-fixture";

    private SearchFixture() {
    }

    public static List<IndexedChunk> chunks(Embedder embedder) {
        List<String[]> rows = List.of(
                new String[] {"fn parse_http_header(raw: &str) -> HeaderMap", "Source file: http.rs (rust). Defines: fn parse_http_header"},
                new String[] {"The scheduler runs queued jobs in parallel on worker threads.", "Document: Scheduling guide"},
                new String[] {"Tomatoes need six hours of sun and regular watering.", "Document: Gardening notes"},
                new String[] {"Consumers in one group share the partitions of a topic.", "Document: Kafka notes"});
        List<IndexedChunk> chunks = new java.util.ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            String text = rows.get(i)[0];
            String context = rows.get(i)[1];
            chunks.add(new IndexedChunk(COLLECTION, "doc-" + i, COLLECTION + "/doc-" + i + "#0", 0, "Title " + i,
                    "file:///doc-" + i, List.of(), text, context, embedder.embed(List.of(context + "\n\n" + text)).get(0)));
        }
        return chunks;
    }
}
