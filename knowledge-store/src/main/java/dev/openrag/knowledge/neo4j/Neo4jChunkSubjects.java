package dev.openrag.knowledge.neo4j;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.neo4j.driver.Driver;
import org.neo4j.driver.Session;
import org.neo4j.driver.Value;

import dev.openrag.knowledge.port.ChunkSubjects;

/** {@link ChunkSubjects} in one auto-commit read: each chunk by its id constraint, its document by (collection, documentId). */
public final class Neo4jChunkSubjects implements ChunkSubjects {

    private final Driver driver;

    public Neo4jChunkSubjects(Driver driver) {
        this.driver = driver;
    }

    @Override
    public Set<String> of(Collection<String> chunkIds) {
        if (chunkIds.isEmpty()) {
            return Set.of();
        }
        try (Session session = driver.session()) {
            return Set.copyOf(session.run("""
                    UNWIND $chunkIds AS id
                    MATCH (ch:Chunk {chunkId: id})
                    CALL (ch) {
                      MATCH (d:Document {collection: ch.collection, documentId: ch.documentId}) RETURN d.uid AS uid
                      UNION
                      MATCH (ch)-[:MENTIONS]->(e:Entity) RETURN e.uid AS uid
                    }
                    RETURN collect(DISTINCT uid) AS uids""", Map.of("chunkIds", List.copyOf(chunkIds)))
                    .single().get("uids").asList(Value::asString));
        }
    }
}
