package dev.openrag.query;

import java.util.List;

import org.neo4j.driver.Driver;
import org.opensearch.client.opensearch.OpenSearchClient;

import dev.openrag.knowledge.browse.DocumentText;
import dev.openrag.knowledge.neo4j.Neo4jDocumentTexts;
import dev.openrag.knowledge.neo4j.Neo4jGraphStore;
import dev.openrag.knowledge.opensearch.OpenSearchLexicalIndex;
import dev.openrag.knowledge.port.Embedder;
import dev.openrag.knowledge.port.IndexedChunk;
import dev.openrag.schemas.GraphExtracted;

/** Writes {@link SearchFixture} (and two entities doc-3 mentions) into the real stores the way the ingest sinks do. */
public final class FixtureLoader {

    private FixtureLoader() {
    }

    public static void load(Driver driver, OpenSearchClient openSearch, Embedder embedder) {
        Neo4jGraphStore graph = new Neo4jGraphStore(driver);
        List<IndexedChunk> chunks = SearchFixture.chunks(embedder);
        for (IndexedChunk chunk : chunks) {
            graph.upsertDocument(SearchFixture.COLLECTION, chunk.documentId(), chunk.title(), chunk.sourceUri(), "h", List.of(chunk), List.of());
        }
        new OpenSearchLexicalIndex(openSearch, true).upsert(chunks);
        // each fixture document's text is its one chunk's, as the text sink keeps it
        Neo4jDocumentTexts texts = new Neo4jDocumentTexts(driver);
        for (IndexedChunk chunk : chunks) {
            texts.put(new DocumentText(SearchFixture.COLLECTION, chunk.documentId(), "h", chunk.text(), List.of(), List.of(),
                    List.of(new DocumentText.ChunkSpan(0, 0, chunk.text().length()))));
        }
        String c = SearchFixture.COLLECTION;
        graph.upsertGraph(new GraphExtracted(1, "e1", "doc-3", "job", c,
                List.of(new GraphExtracted.Entity("kafka:tech", "Kafka", "technology"),
                        new GraphExtracted.Entity("consumer-group:term", "Consumer Group", "term")),
                List.of(new GraphExtracted.Relation("consumer-group:term", "kafka:tech", "PART_OF")),
                List.of(new GraphExtracted.Mention(c + "/doc-3#0", "kafka:tech"),
                        new GraphExtracted.Mention(c + "/doc-3#0", "consumer-group:term")), null));
    }
}
