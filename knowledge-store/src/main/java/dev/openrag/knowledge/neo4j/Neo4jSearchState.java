package dev.openrag.knowledge.neo4j;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Session;

import dev.openrag.knowledge.port.SearchState;

/**
 * {@link SearchState} on Neo4j: the collection's version ({@link Neo4jVectorIndex#COLLECTION_VERSION}),
 * whether a Feedback node exists, and whether the scopes hold a pinned Memory (one about something) or a Correction, in one
 * auto-commit query (one Bolt round trip). The memory check can only start from the pinned memories
 * ({@code memory_pinned}; "$scopes IS NULL OR" keeps the scope index out), never from a scope's: a scope of
 * 10,000 unpinned memories costs it nothing.
 */
public final class Neo4jSearchState implements SearchState {

    private final Driver driver;

    public Neo4jSearchState(Driver driver) {
        this.driver = driver;
    }

    @Override
    public Snapshot read(String collection, Collection<String> scopes) {
        Map<String, Object> params = new HashMap<>();
        params.put("collection", collection);
        params.put("scopes", scopes == null ? null : List.copyOf(scopes));
        params.put("now", System.currentTimeMillis());
        try (Session session = driver.session()) {
            // the same conditions as the memory store's relatedPinned(): skipped only where it could return nothing
            String live = """
                    WHERE ($scopes IS NULL OR m.scope IN $scopes) AND m.forgottenAt IS NULL
                      AND (m.expiresAt IS NULL OR m.expiresAt > $now) AND (m.validTo IS NULL OR m.validTo > $now)""";
            Record row = session.run(Neo4jVectorIndex.COLLECTION_VERSION + """

                    RETURN documents, chunks, updated,
                           EXISTS { MATCH (:Feedback) } AS anyFeedback,
                           EXISTS { MATCH (m:Memory {pinned: true}) %s } AS anyPinned,
                           EXISTS { MATCH (m:Memory {pinned: true})-[:ABOUT]->() %s } AS anyPinnedAbout,
                           EXISTS { MATCH (c:Correction) WHERE $scopes IS NULL OR c.scope IN $scopes } AS anyCorrections"""
                    .formatted(live, live), params).single();
            return new Snapshot(Neo4jVectorIndex.version(row), row.get("anyFeedback").asBoolean(), row.get("anyPinned").asBoolean(),
                    row.get("anyPinnedAbout").asBoolean(), row.get("anyCorrections").asBoolean());
        }
    }
}
