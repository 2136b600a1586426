package dev.openrag.localstack.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;

/**
 * The shared evaluation corpus ({@code ../shared/datasets/codebase/codebase_chunks.json}, 90 files,
 * 737 pre-made chunks) as its first documents, with the counts a test expects back.
 *
 * <p>The fault tests (an engine, a broker or the app killed mid-corpus) need work in flight when
 * the kill comes, not the whole corpus: its first documents keep every stage busy for long enough
 * and cost a third of the embedding, which on two cores is most of such a test's time.
 *
 * @param json the corpus JSON as {@code POST /api/corpus} takes it
 */
public record SharedCorpus(String json, int documents, int chunks) {

    /** The corpus file, from a module's directory (where Surefire and Failsafe run). */
    public static final Path FILE = Path.of("../../shared/datasets/codebase/codebase_chunks.json");

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The corpus's first {@code count} documents, in file order. */
    public static SharedCorpus firstDocuments(int count) {
        try {
            JsonNode all = JSON.readTree(FILE.toFile());
            ArrayNode kept = JSON.createArrayNode();
            int chunks = 0;
            for (int i = 0; i < Math.min(count, all.size()); i++) {
                kept.add(all.get(i));
                chunks += all.get(i).path("chunks").size();
            }
            return new SharedCorpus(JSON.writeValueAsString(kept), kept.size(), chunks);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the shared corpus at " + FILE.toAbsolutePath(), e);
        }
    }
}
