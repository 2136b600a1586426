package dev.openrag.memory.neo4j;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Session;

import dev.openrag.memory.Memory;
import dev.openrag.memory.MemoryHit;
import dev.openrag.memory.MemoryQuery;
import dev.openrag.memory.MemoryWords;

/**
 * The start-up migration on a store written in the shape of the release that hid memories by inference: its
 * supersedes links carried no mark of who made them, and ended the older memory's validity. Run as an app's start
 * runs it, by memory's schema bootstrap.
 */
@ExtendWith(MemoryNeo4j.class)
class InferredSupersessionsTest {

    private static Driver driver;

    @BeforeAll
    static void connect(Driver shared) {
        driver = shared;
    }

    /** What an app's start does to memory's part of the store. */
    private static MemorySchema.Migrated start() {
        return MemorySchema.bootstrap(driver, MemoryNeo4j.DIMENSIONS, MemoryWords.of(true));
    }

    /** A memory as the earlier release wrote it (its own vector list, no packed vectors). */
    private static void oldMemory(Session session, String scope, String id, String text, long at, float[] vector) {
        session.run("""
                CREATE (m:Memory {id: $id, scope: $scope, text: $text, tags: [], pinned: false, createdAt: $at, updatedAt: $at,
                                  occurredAt: $at, embedding: $vector})""",
                Map.of("id", id, "scope", scope, "text", text, "at", at, "vector", List.of(vector[0], vector[1], vector[2], vector[3])))
                .consume();
    }

    /** A supersedes link as the earlier release wrote it, by inference or for a caller alike. */
    private static void oldSupersedes(Session session, String newer, String older) {
        session.run("""
                MATCH (n:Memory {id: $newer}), (o:Memory {id: $older})
                MERGE (n)-[:LINKED {type: 'supersedes'}]->(o)
                SET o.validTo = coalesce(o.validTo, n.occurredAt, n.createdAt)""", Map.of("newer", newer, "older", older)).consume();
    }

    private static List<String> found(Neo4jMemoryStore store, String scope) {
        return store.search(new MemoryQuery(scope, null, new float[] {1, 0, 0, 0}, 10, null, 0, false, null, null, null, 10_000,
                MemoryQuery.VECTOR, null, null, false)).stream().map(MemoryHit::memory).map(Memory::id).toList();
    }

    @Test
    void memoriesHiddenByAnUnmarkedSupersessionComeBackAndTheirLinksBecomeSuggestionsOnce() {
        String scope = "restore-" + System.nanoTime();
        try (Session session = driver.session()) {
            oldMemory(session, scope, scope + "-mysql", "The staging database is MySQL 8.", 1_000, new float[] {1, 0, 0, 0});
            oldMemory(session, scope, scope + "-pg", "Staging runs PostgreSQL 16 on db-stage-2.", 2_000, new float[] {1, 0.1f, 0, 0});
            oldMemory(session, scope, scope + "-paris", "Die Zentrale ist in Paris.", 1_000, new float[] {1, 0.2f, 0, 0});
            oldMemory(session, scope, scope + "-lyon", "总部在里昂。", 2_000, new float[] {1, 0.3f, 0, 0});
            oldSupersedes(session, scope + "-pg", scope + "-mysql");
            oldSupersedes(session, scope + "-lyon", scope + "-paris");
            // control: a correction ended the validity of one of them; it stays ended
            session.run("""
                    MATCH (m:Memory {id: $id})
                    CREATE (c:Correction {id: $id + '-c', scope: $scope, text: 'wrong', createdAt: 1500})-[:CORRECTS]->(m)""",
                    Map.of("id", scope + "-paris", "scope", scope)).consume();
        }
        Neo4jMemoryStore store = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 0);
        assertThat(found(store, scope)).as("the old shape hides both").doesNotContain(scope + "-mysql", scope + "-paris");

        assertThat(start().supersessionsRestored()).isGreaterThanOrEqualTo(2);

        assertThat(found(store, scope)).contains(scope + "-mysql", scope + "-pg", scope + "-lyon").doesNotContain(scope + "-paris");
        Memory newer = store.get(scope + "-pg").orElseThrow();
        assertThat(newer.links()).extracting(Memory.Link::type, Memory.Link::toId)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(Memory.SUGGESTED_SUPERSEDES, scope + "-mysql"));
        assertThat(store.get(scope + "-paris").orElseThrow().validTo()).as("ended by the correction").isEqualTo(1500L);
        assertThat(store.get(scope + "-mysql").orElseThrow().validTo()).isNull();

        // idempotent: a second start changes nothing
        assertThat(start().supersessionsRestored()).isZero();
        assertThat(store.get(scope + "-pg").orElseThrow().links()).hasSize(1);
    }

    @Test
    void aCallersSupersessionWrittenByThisReleaseStays() {
        String scope = "restore-caller-" + System.nanoTime();
        Neo4jMemoryStore store = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 0);
        store.add(new Memory(scope + "-old", scope, "The rota is weekly.", List.of(), false, 1_000, 1_000, null, null, null, List.of(),
                List.of()), new float[] {1, 0, 0, 0});
        store.add(new Memory(scope + "-new", scope, "The rota is fortnightly.", List.of(), false, 2_000, 2_000, null, null, null,
                List.of(), List.of(new Memory.Link(Memory.SUPERSEDES, scope + "-old"))), new float[] {1, 0.1f, 0, 0});

        start();

        assertThat(found(store, scope)).containsExactly(scope + "-new");
        assertThat(store.get(scope + "-new").orElseThrow().links()).extracting(Memory.Link::type).containsExactly(Memory.SUPERSEDES);
    }
}
