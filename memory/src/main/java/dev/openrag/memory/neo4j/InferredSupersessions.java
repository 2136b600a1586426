package dev.openrag.memory.neo4j;

import java.util.Map;

import org.neo4j.driver.Driver;
import org.neo4j.driver.Session;

import dev.openrag.memory.Memory;

/**
 * The start-up migration that brings back the memories an earlier release hid by inference. That release turned what
 * its contradiction check inferred into {@value Memory#SUPERSEDES} links, the same links a caller's {@code supersedes}
 * makes, and ended the older memory's validity with them. Since this release a caller's supersession is marked
 * ({@code by: 'caller'}) and nothing inferred hides a memory, so an unmarked supersedes link was written by that
 * release; as it did not record whether it inferred the link or was told, every unmarked link is read as inferred:
 * it becomes a {@value Memory#SUGGESTED_SUPERSEDES} link (an agent confirms it with {@code link_memories}), and the
 * older memory's validity ends only where a caller's supersession or a correction still ends it.
 * <p>
 * Idempotent: a second run finds no unmarked link. Runs in one transaction per batch of links, at every start, from
 * {@link MemorySchema#bootstrap}.
 */
public final class InferredSupersessions {

    /** Who made a supersedes link, on links this release writes. */
    static final String BY_CALLER = "caller";

    /** Why a restored link is a suggestion (its {@code reason}). */
    static final String REASON = "restored: an earlier release hid the older memory by this link without recording who made it";

    private static final int BATCH = 1000;

    private InferredSupersessions() {
    }

    /** Restores every memory hidden by an unmarked supersedes link; returns how many memories it restored. */
    static long restore(Driver driver) {
        long restored = 0;
        try (Session session = driver.session()) {
            while (true) {
                long batch = session.executeWrite(tx -> tx.run("""
                        MATCH (n:Memory)-[l:LINKED {type: $supersedes}]->(o:Memory) WHERE l.by IS NULL
                        WITH n, l, o LIMIT $batch
                        MERGE (n)-[s:LINKED {type: $suggested}]->(o)
                          ON CREATE SET s.fact = 'what both say', s.reason = $reason
                        DELETE l
                        WITH DISTINCT o
                        OPTIONAL MATCH (k:Memory)-[:LINKED {type: $supersedes}]->(o)
                        WITH o, min(coalesce(k.occurredAt, k.createdAt)) AS superseded
                        OPTIONAL MATCH (c:Correction)-[:CORRECTS]->(o)
                        WITH o, superseded, min(c.createdAt) AS corrected
                        SET o.validTo = CASE WHEN superseded IS NULL THEN corrected
                                             WHEN corrected IS NULL OR superseded < corrected THEN superseded ELSE corrected END
                        RETURN count(o) AS restored""",
                        Map.of("supersedes", Memory.SUPERSEDES, "suggested", Memory.SUGGESTED_SUPERSEDES, "reason", REASON,
                                "batch", BATCH)).single().get("restored").asLong());
                if (batch == 0) {
                    return restored;
                }
                restored += batch;
            }
        }
    }
}
