package dev.openrag.ingest.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.runtime.ApiException;
import dev.openrag.schemas.PremadeChunk;

/** Issue 72: two chunks of one document with one {@code original_index} are refused with their positions, never one silently replacing the other. */
class CorpusReaderTest {

    private static String corpus(String secondDocumentsChunks) {
        return """
                [{"doc_id": "a", "original_uuid": "u-a", "content": "Alpha. Beta.",
                  "chunks": [{"chunk_id": "a_0", "original_index": 0, "content": "Alpha."},
                             {"chunk_id": "a_1", "original_index": 1, "content": "Beta."}]},
                 {"doc_id": "b", "original_uuid": "u-b", "content": "Gamma. Delta. Epsilon.",
                  "chunks": [%s]}]""".formatted(secondDocumentsChunks);
    }

    @Test
    void aDuplicateOriginalIndexWithinADocumentIsRefusedByPosition() {
        assertThatThrownBy(() -> CorpusReader.read(corpus("""
                {"original_index": 0, "content": "Gamma."}, {"original_index": 1, "content": "Delta."},
                {"original_index": 0, "content": "Epsilon."}"""), "j", "c"))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(400))
                .hasMessage("$[1].chunks[2].original_index: 0 is already the index of $[1].chunks[0]; each chunk of a document needs its own");
    }

    @Test
    void controlTheSameIndexInTwoDocumentsAndIndexesOutOfOrderAreRead() {
        var documents = CorpusReader.read(corpus("""
                {"original_index": 1, "content": "Delta."}, {"original_index": 0, "content": "Gamma."},
                {"original_index": 5, "content": "Epsilon."}"""), "j", "c");
        assertThat(documents).hasSize(2);
        assertThat(documents.get(1).chunks()).extracting(PremadeChunk::index).containsExactly(1, 0, 5);
    }
}
