package dev.openrag.knowledge.neo4j;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.neo4j.driver.Driver;
import org.neo4j.driver.Session;
import org.neo4j.driver.Value;

import dev.openrag.knowledge.port.ChunkSubjects;

/** {@link ChunkSubjects} in one auto-commit read: each chunk by its id constraint with the entities it mentions; its document's uid as the graph store makes it. */
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
        Set<String> subjects = new HashSet<>();
        try (Session session = driver.session()) {
            // each chunk by its id constraint; its document's uid is made here, not matched (no index on the pair)
            session.run("""
                    UNWIND $chunkIds AS id
                    MATCH (ch:Chunk {chunkId: id})
                    OPTIONAL MATCH (ch)-[:MENTIONS]->(e:Entity)
                    RETURN ch.collection AS collection, ch.documentId AS documentId, collect(e.uid) AS entities""",
                    Map.of("chunkIds", List.copyOf(chunkIds))).forEachRemaining(row -> {
                subjects.add(Neo4jGraphStore.documentUid(row.get("collection").asString(), row.get("documentId").asString()));
                subjects.addAll(row.get("entities").asList(Value::asString));
            });
        }
        return subjects;
    }
}
