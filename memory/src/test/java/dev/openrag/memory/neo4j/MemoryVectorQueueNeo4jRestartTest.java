package dev.openrag.memory.neo4j;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Config;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.Value;
import org.neo4j.driver.exceptions.ServiceUnavailableException;
import org.neo4j.driver.exceptions.SessionExpiredException;

import dev.openrag.localstack.Engine;
import dev.openrag.localstack.LocalStack;
import dev.openrag.localstack.StackConfig;
import dev.openrag.localstack.test.LocalStackExtension.WithEngines;
import dev.openrag.localstack.test.TestStack;
import dev.openrag.memory.Memory;
import dev.openrag.memory.neo4j.Neo4jMemoryStore.SearchTuning;

/**
 * Neo4j killed (SIGKILL) while a new memory waits for the vector index, and restarted: with no
 * further write, the memory store moves it into the index by itself once Neo4j is back.
 */
@WithEngines(Engine.NEO4J)
class MemoryVectorQueueNeo4jRestartTest {

    private static StackConfig stack;
    private static Driver driver;

    @BeforeAll
    static void connect(StackConfig config) {
        stack = config;
        driver = MemoryNeo4j.connect(config); // its own: the Neo4j restarts under it
    }

    @AfterAll
    static void close() {
        driver.close();
    }

    @Test
    void aMemoryQueuedWhenNeo4jDiesEntersTheIndexOnceItIsBackWithNoFurtherWrite() throws Exception {
        // the driver's own retries of a transaction (30 s by default) would outlast this outage: with
        // them cut to a second, the move fails, and only the store's retry can move the memory later
        try (Driver impatient = GraphDatabase.driver(stack.neo4jUri(), AuthTokens.none(),
                Config.builder().withMaxTransactionRetryTime(1, TimeUnit.SECONDS).build())) {
            queuedMemoryOutlivesAnOutage(impatient);
        }
    }

    private void queuedMemoryOutlivesAnOutage(Driver impatient) throws Exception {
        // the move is due 2 s after the write: Neo4j is dead by then
        Neo4jMemoryStore store = new Neo4jMemoryStore(impatient, 5, 0, SearchTuning.DEFAULT, Duration.ofSeconds(2));
        String id = "restart-" + System.nanoTime();
        store.add(new Memory(id, "restart", "written before the outage", List.of(), false, 1, 1, null, null, null, List.of(), List.of()),
                new float[] {1, 0, 0, 0});
        try {
            long pid = new LocalStack(stack, false).status(Engine.NEO4J).pid();
            new ProcessBuilder("kill", "-9", Long.toString(pid)).start().waitFor();
            ProcessHandle.of(pid).ifPresent(process -> process.onExit().join());
            Thread.sleep(4000); // the move runs, finds Neo4j away and gives up
        } finally {
            TestStack.ensure(EnumSet.of(Engine.NEO4J));
        }

        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        List<String> labels = labels(id);
        while (!labels.contains(MemorySchema.INDEXED_MEMORY) && System.nanoTime() < deadline) {
            Thread.sleep(250);
            labels = labels(id);
        }
        assertThat(labels).as("moved by the store's own retry").contains(MemorySchema.INDEXED_MEMORY)
                .doesNotContain(MemorySchema.MEMORY_TO_INDEX);
    }

    /** The memory's labels; none while the driver still finds Neo4j away. */
    private static List<String> labels(String id) {
        try (var session = driver.session()) {
            return session.run("MATCH (m:Memory {id: $id}) RETURN labels(m) AS labels", Map.of("id", id))
                    .single().get("labels").asList(Value::asString);
        } catch (ServiceUnavailableException | SessionExpiredException e) {
            return List.of();
        }
    }
}
