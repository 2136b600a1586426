package dev.openrag.memory.neo4j;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.neo4j.driver.Driver;

import dev.openrag.memory.Memory;
import dev.openrag.memory.MemoryHit;
import dev.openrag.memory.MemoryQuery;

/** update_memory keeps each earlier text as a version with when it held; asOf before an edit reads the text as it was. */
@ExtendWith(MemoryNeo4j.class)
class MemoryVersionsTest {

    private static Driver driver;

    @BeforeAll
    static void connect(Driver shared) {
        driver = shared;
    }

    private static List<MemoryHit> search(Neo4jMemoryStore store, String scope, Long asOf) {
        return store.search(new MemoryQuery(scope, null, new float[] {1, 0, 0, 0}, 5, null, 0, false, null, null, null, 10_000,
                MemoryQuery.VECTOR, null, asOf, false));
    }

    @Test
    void eachEditKeepsTheTextItReplacesAndAsOfReadsTheTextOfItsTime() {
        for (long copied : List.of(0L, 10_000L)) {
            Neo4jMemoryStore store = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, copied);
            String scope = "versions-" + copied + "-" + System.nanoTime();
            String id = scope + "-m";
            store.add(new Memory(id, scope, "Der Server steht in Raum 4.", List.of(), false, 1_000, 1_000, null, null, null, List.of(),
                    List.of()), new float[] {1, 0, 0, 0});
            store.update(id, "服务器在五号房间。", new float[] {1, 0.1f, 0, 0}, null, null, 2_000);
            store.update(id, "The server is in room 6 🖥️.", new float[] {1, 0.2f, 0, 0}, null, null, 3_000);

            Memory now = store.get(id).orElseThrow();
            assertThat(now.text()).isEqualTo("The server is in room 6 🖥️.");
            assertThat(now.versions()).containsExactly(new Memory.Version("Der Server steht in Raum 4.", 1_000, 2_000),
                    new Memory.Version("服务器在五号房间。", 2_000, 3_000));

            assertThat(search(store, scope, null)).extracting(hit -> hit.memory().text()).containsExactly("The server is in room 6 🖥️.");
            assertThat(search(store, scope, 1_500L)).extracting(hit -> hit.memory().text()).containsExactly("Der Server steht in Raum 4.");
            assertThat(search(store, scope, 2_000L)).as("from the edit on").extracting(hit -> hit.memory().text())
                    .containsExactly("服务器在五号房间。");
            assertThat(search(store, scope, 3_500L)).extracting(hit -> hit.memory().text()).containsExactly("The server is in room 6 🖥️.");
        }
    }

    @Test
    void anEditThatKeepsTheTextOrChangesOnlyTagsMakesNoVersion() {
        Neo4jMemoryStore store = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 0);
        String scope = "versions-same-" + System.nanoTime();
        String id = scope + "-m";
        store.add(new Memory(id, scope, "Backups run at 02:00.", List.of(), false, 1_000, 1_000, null, null, null, List.of(), List.of()),
                new float[] {1, 0, 0, 0});
        store.update(id, null, null, null, List.of("ops"), 2_000);
        store.update(id, "Backups run at 02:00.", new float[] {1, 0, 0, 0}, null, null, 3_000);
        assertThat(store.get(id).orElseThrow().versions()).isEmpty();
        store.update(id, "Backups run at 03:00.", new float[] {1, 0, 0, 0}, null, null, 4_000);
        assertThat(store.get(id).orElseThrow().versions()).as("control: a new text")
                .containsExactly(new Memory.Version("Backups run at 02:00.", 1_000, 4_000));
        assertThat(store.delete(id)).isTrue();
        try (var session = driver.session()) {
            assertThat(session.run("MATCH (m:Memory {id: $id}) RETURN count(m) AS n", java.util.Map.of("id", id)).single().get("n").asLong())
                    .as("deleted with its versions").isZero();
        }
    }
}
