package dev.openrag.ingest.source.sync;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

import dev.openrag.localstack.Engine;
import dev.openrag.localstack.test.TestStack;

/**
 * Source ownership across ingest instances, on the real Neo4j: a kept source stays with its owner while it renews,
 * a lapsed or released lease (an instance that died, or restarted) is taken over by exactly one instance, a run asked
 * through another instance reaches the owner once, and what a source synced survives a new store (a restart).
 */
class SourceStoreLeaseTest {

    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule());
    private static Driver driver;

    @BeforeAll
    static void neo4j() {
        driver = GraphDatabase.driver(TestStack.ensure(EnumSet.of(Engine.NEO4J)).neo4jUri(), AuthTokens.none());
        driver.executableQuery("MATCH (s:SyncSource) WHERE s.collection STARTS WITH 'lease-' DETACH DELETE s").execute();
    }

    @AfterAll
    static void close() {
        driver.close();
    }

    private static SourceStore store(Duration lease) {
        return new SourceStore(driver, lease, JSON);
    }

    private static String save(SourceStore store, String owner, String collection) {
        String id = "src-" + collection + "-" + System.nanoTime();
        store.save(id, new SourceRequest("folder", "/srv/" + collection, collection, List.of("*.md"), List.of(), null, null, true), owner);
        return id;
    }

    @Test
    void aKeptSourceStaysWithItsOwnerAndALapsedOneGoesToExactlyOneInstance() throws Exception {
        SourceStore store = store(Duration.ofSeconds(30));
        String id = save(store, "instance-a", "lease-kept");
        assertThat(store.claimOrphans("instance-b")).extracting(SourceStore.Stored::id).doesNotContain(id);
        assertThat(store.claim(id, "instance-b")).as("held by a").isFalse();
        assertThat(store.claim(id, "instance-a")).isTrue();
        assertThat(store.renew("instance-a", Set.of(id))).containsExactly(id);
        assertThat(store.renew("instance-b", Set.of(id))).isEmpty();

        SourceStore quick = store(Duration.ofMillis(200));
        String lapsing = save(quick, "instance-dead", "lease-lapsed");
        Thread.sleep(400);
        // an ingest app that an earlier test class left running in this JVM is an instance too: it may take the
        // lapsed source first, so the lease lapses again right before the two claims, and the owner is read after
        driver.executableQuery("MATCH (s:SyncSource {id: $id}) SET s.leaseUntil = 0, s.owner = 'instance-dead'")
                .withParameters(java.util.Map.of("id", lapsing)).execute();
        CyclicBarrier together = new CyclicBarrier(2);
        List<CompletableFuture<List<String>>> claims = new ArrayList<>();
        for (String instance : List.of("instance-b", "instance-c")) {
            claims.add(CompletableFuture.supplyAsync(() -> {
                try {
                    together.await();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                return store(Duration.ofSeconds(30)).claimOrphans(instance).stream().map(SourceStore.Stored::id).toList();
            }));
        }
        List<String> winners = new ArrayList<>();
        for (int i = 0; i < claims.size(); i++) {
            if (claims.get(i).join().contains(lapsing)) {
                winners.add(List.of("instance-b", "instance-c").get(i));
            }
        }
        String owner = driver.executableQuery("MATCH (s:SyncSource {id: $id}) RETURN s.owner AS owner")
                .withParameters(java.util.Map.of("id", lapsing)).execute().records().getFirst().get("owner").asString();
        assertThat(winners).as("never both instances").hasSizeLessThanOrEqualTo(1);
        assertThat(owner).as("exactly one instance takes the lapsed source").isNotEqualTo("instance-dead");
        if (!winners.isEmpty()) {
            assertThat(owner).as("the one that says it took it holds it").isEqualTo(winners.getFirst());
        }
    }

    @Test
    void aRunAskedThroughAnotherInstanceReachesTheOwnerOnceAndAReleasedSourceIsTakenAtOnce() {
        SourceStore store = store(Duration.ofSeconds(30));
        String id = save(store, "instance-a", "lease-run");
        store.requestRun(id, "run-1", true);
        assertThat(store.takeRunRequests("instance-b")).as("not the owner's").isEmpty();
        assertThat(store.takeRunRequests("instance-a")).containsExactly(new SourceStore.RunRequest(id, "run-1", true));
        assertThat(store.takeRunRequests("instance-a")).as("taken once").isEmpty();

        store.synced(id, List.of(new SourceStore.SyncedFile("a.md", "h1", "doc-a"), new SourceStore.SyncedFile("b.md", "h2", "doc-b")));
        store.forgotten(id, List.of("b.md"));
        store.release("instance-a");
        SourceStore restarted = store(Duration.ofSeconds(30));
        assertThat(restarted.claimOrphans("instance-a2")).extracting(SourceStore.Stored::id).contains(id);
        assertThat(restarted.files(id)).containsOnlyKeys("a.md");
        SourceStore.Stored stored = restarted.get(id).orElseThrow();
        assertThat(stored.documents()).isEqualTo(1);
        assertThat(stored.request().includeOrNone()).containsExactly("*.md");
        assertThat(stored.request().watching()).isTrue();
        restarted.delete(id);
        assertThat(restarted.get(id)).isEmpty();
        assertThat(restarted.files(id)).isEmpty();
    }
}
