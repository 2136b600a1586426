package dev.openrag.knowledge.neo4j;

import java.util.Map;

import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Session;

import dev.openrag.knowledge.port.SearchState;

/**
 * {@link SearchState} on Neo4j: the collection's version ({@link Neo4jVectorIndex#COLLECTION_VERSION}),
 * whether a Feedback node exists, and whether a pinned Memory or a Correction exists, in one
 * auto-commit query (one Bolt round trip).
 */
public final class Neo4jSearchState implements SearchState {

    private final Driver driver;

    public Neo4jSearchState(Driver driver) {
        this.driver = driver;
    }

    @Override
    public Snapshot read(String collection) {
        try (Session session = driver.session()) {
            Record row = session.run(Neo4jVectorIndex.COLLECTION_VERSION + """

                    RETURN documents, chunks, updated,
                           EXISTS { MATCH (:Feedback) } AS anyFeedback,
                           EXISTS { MATCH (:Memory {pinned: true}) } OR EXISTS { MATCH (:Correction) } AS anyPinnedOrCorrections""",
                    Map.of("collection", collection)).single();
            return new Snapshot(Neo4jVectorIndex.version(row), row.get("anyFeedback").asBoolean(),
                    row.get("anyPinnedOrCorrections").asBoolean());
        }
    }
}
