package dev.openrag.query;

import java.util.List;

import org.neo4j.driver.Driver;
import org.opensearch.client.opensearch.OpenSearchClient;

import dev.openrag.knowledge.neo4j.Neo4jGraphStore;
import dev.openrag.knowledge.opensearch.OpenSearchLexicalIndex;
import dev.openrag.knowledge.port.Embedder;
import dev.openrag.knowledge.port.IndexedChunk;

/** Writes {@link SearchFixture} into the real stores the way the ingest sinks do. */
public final class FixtureLoader {

    private FixtureLoader() {
    }

    public static void load(Driver driver, OpenSearchClient openSearch, Embedder embedder) {
        Neo4jGraphStore graph = new Neo4jGraphStore(driver);
        List<IndexedChunk> chunks = SearchFixture.chunks(embedder);
        for (IndexedChunk chunk : chunks) {
            graph.upsertDocument(SearchFixture.COLLECTION, chunk.documentId(), chunk.title(), chunk.sourceUri(), "h", List.of(chunk));
        }
        new OpenSearchLexicalIndex(openSearch, true).upsert(chunks);
    }
}
