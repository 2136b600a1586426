package dev.openrag.ingest.source.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;

import dev.openrag.ingest.credentials.SecretBox;
import dev.openrag.localstack.Engine;
import dev.openrag.localstack.test.TestStack;

/**
 * Crawl ownership across ingest instances, on the real Neo4j: a crawl has one owner while its
 * lease is renewed, exactly one of two instances claiming an orphan at once gets it, a lapsed or
 * released lease is taken over, and a crawl stopped through another instance is lost by its owner
 * at its next renewal and shows as stopped everywhere.
 */
class CrawlStoreLeaseTest {

    private static Driver driver;
    private static int next;

    @BeforeAll
    static void neo4j() {
        driver = GraphDatabase.driver(TestStack.ensure(EnumSet.of(Engine.NEO4J)).neo4jUri(), AuthTokens.none());
        driver.executableQuery("MATCH (c:Crawl) DETACH DELETE c").execute();
    }

    @AfterAll
    static void close() {
        driver.close();
    }

    @Test
    void aRenewedLeaseKeepsTheCrawlWithItsOwner() {
        CrawlStore store = store(Duration.ofSeconds(30));
        String id = save(store, "instance-a");

        assertThat(store.claimOrphans("instance-b")).extracting(CrawlStore.Stored::id).doesNotContain(id);
        assertThat(store.renew("instance-a", List.of(status(id, "running")))).containsExactly(id);
        assertThat(store.renew("instance-b", List.of(status(id, "running")))).as("not the owner").isEmpty();
        assertThat(store.status(id)).get().extracting(CrawlStatus::state).isEqualTo("running");
    }

    @Test
    void ofTwoInstancesClaimingLapsedCrawlsAtOnceExactlyOneGetsEach() throws Exception {
        CrawlStore store = store(Duration.ofMillis(300));
        List<String> ids = IntStream.range(0, 20).mapToObj(i -> save(store, "instance-dead")).toList();
        Thread.sleep(400); // the owner died: its leases lapse

        CyclicBarrier together = new CyclicBarrier(2);
        List<CompletableFuture<List<String>>> claims = new ArrayList<>();
        for (String instance : List.of("instance-b", "instance-c")) {
            claims.add(CompletableFuture.supplyAsync(() -> {
                try {
                    together.await();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                return store(Duration.ofSeconds(30)).claimOrphans(instance).stream().map(CrawlStore.Stored::id).toList();
            }));
        }
        List<String> b = claims.get(0).get();
        List<String> c = claims.get(1).get();

        assertThat(b).noneMatch(c::contains);
        List<String> claimed = new ArrayList<>(b);
        claimed.addAll(c);
        assertThat(claimed).containsAll(ids);
        assertThat(store.renew("instance-dead", ids.stream().map(id -> status(id, "running")).toList()))
                .as("the dead owner's late renewal finds its crawls taken over").isEmpty();
        assertThat(store.claimOrphans("instance-d")).as("claimed crawls hold fresh leases").extracting(CrawlStore.Stored::id)
                .doesNotContainAnyElementsOf(ids);
    }

    @Test
    void aReleasedCrawlIsClaimedAtOnceWithItsRequestAndItsRunsSoFar() {
        CrawlStore store = store(Duration.ofSeconds(30));
        String id = save(store, "instance-stopping");
        store.renew("instance-stopping", List.of(status(id, "scheduled", 3)));
        store.release("instance-stopping");

        List<CrawlStore.Stored> claimed = store.claimOrphans("instance-b");
        assertThat(claimed).extracting(CrawlStore.Stored::id).contains(id);
        CrawlStore.Stored crawl = claimed.stream().filter(stored -> stored.id().equals(id)).findFirst().orElseThrow();
        assertThat(crawl.request().seedUrls()).containsExactly("https://example.org/" + id);
        assertThat(crawl.runs()).as("the resumed crawl counts on from here").isEqualTo(3);
    }

    @Test
    void aCrawlWhoseStoredStatusIsUnreadableIsStillClaimedCountingFromNoRuns() {
        CrawlStore store = store(Duration.ofSeconds(30));
        String id = save(store, "instance-stopping");
        driver.executableQuery("MATCH (c:Crawl {id: $id}) SET c.status = '{not json'").withParameters(Map.of("id", id)).execute();
        store.release("instance-stopping");

        assertThat(store.claimOrphans("instance-b")).filteredOn(crawl -> crawl.id().equals(id))
                .singleElement().extracting(CrawlStore.Stored::runs).isEqualTo(0);
    }

    @Test
    void aCrawlStoppedThroughAnotherInstanceIsLostByItsOwnerAndShowsStopped() {
        CrawlStore store = store(Duration.ofSeconds(30));
        String id = save(store, "instance-a");
        store.renew("instance-a", List.of(status(id, "scheduled")));

        store.finished(id, null); // DELETE /api/crawls/{id} answered by instance b

        assertThat(store.renew("instance-a", List.of(status(id, "scheduled")))).isEmpty();
        assertThat(store.status(id)).get().extracting(CrawlStatus::state).isEqualTo("stopped");
        assertThat(store.statuses(1000)).extracting(CrawlStatus::crawlId).contains(id);
        assertThat(store.claimOrphans("instance-b")).as("a finished crawl is nobody's to resume")
                .extracting(CrawlStore.Stored::id).doesNotContain(id);
    }

    @Test
    void literalLoginValuesAreSealedInNeo4jAndOpenAgainForTheInstanceThatResumesTheCrawl() {
        String id = "login-" + System.nanoTime();
        CrawlRequest.Login login = new CrawlRequest.Login("https://example.org/login", new java.util.LinkedHashMap<>(Map.of(
                "#user", LoginValue.of("alice"), "#pass", LoginValue.of("canary-s3cret"),
                "#token", LoginValue.ofCredential("intranet", "token"))), "#go", "#welcome");
        CrawlRequest request = request(id).withLogin(login);
        store(Duration.ofMillis(1)).save(id, request, "instance-a", status(id, "scheduled"));

        String node = driver.executableQuery("MATCH (c:Crawl {id: $id}) RETURN properties(c) AS p").withParameters(Map.of("id", id))
                .execute().records().get(0).get("p").toString();
        assertThat(node).as("Neo4j holds no literal value in the clear").doesNotContain("canary-s3cret").doesNotContain("alice")
                .contains("intranet");
        assertThat(driver.executableQuery("MATCH (c:Crawl {id: $id}) RETURN c.request AS r").withParameters(Map.of("id", id)).execute()
                .records().get(0).get("r").asString()).as("the request as stored shows it hidden").contains("\"#pass\":\"***\"");

        CrawlRequest.Login resumed = store(Duration.ofSeconds(30)).claimOrphans("instance-b").stream()
                .filter(crawl -> crawl.id().equals(id)).findFirst().orElseThrow().request().login();
        assertThat(resumed.fields().get("#pass")).isEqualTo(LoginValue.of("canary-s3cret"));
        assertThat(resumed.fields().get("#user")).isEqualTo(LoginValue.of("alice"));
        assertThat(resumed.fields().get("#token")).as("a credential reference stays one").isEqualTo(LoginValue.ofCredential("intranet", "token"));

        // another server key (OPENRAG_SECRETS_KEY changed): the crawl resumes, its values stay hidden, never garbled
        driver.executableQuery("MATCH (c:Crawl {id: $id}) SET c.leaseUntil = 0").withParameters(Map.of("id", id)).execute();
        String otherKey = java.util.Base64.getEncoder().encodeToString(new byte[32]);
        CrawlRequest.Login unopened = store(Duration.ofSeconds(30), otherKey).claimOrphans("instance-c").stream()
                .filter(crawl -> crawl.id().equals(id)).findFirst().orElseThrow().request().login();
        assertThat(unopened.fields().get("#pass").literal()).isEqualTo("***");
        store(Duration.ofSeconds(30)).finished(id, null);
    }

    @Test
    void anUnknownCrawlHasNoStatus() {
        assertThat(store(Duration.ofSeconds(30)).status("no-such-crawl")).isEmpty();
    }

    private static final String KEY = java.util.Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes());

    private static CrawlStore store(Duration lease) {
        return store(lease, KEY);
    }

    private static CrawlStore store(Duration lease, String key) {
        return new CrawlStore(driver, new SecretBox(java.util.Optional.of(key), "unused.key"), lease);
    }

    private static synchronized String save(CrawlStore store, String owner) {
        String id = "lease-" + System.nanoTime() + "-" + next++;
        store.save(id, request(id), owner, status(id, "running"));
        return id;
    }

    private static CrawlRequest request(String id) {
        return new CrawlRequest(List.of("https://example.org/" + id), "crawls", 1, 10, null, null, null, null, null);
    }

    private static CrawlStatus status(String id, String state) {
        return status(id, state, 1);
    }

    private static CrawlStatus status(String id, String state, int runs) {
        return new CrawlStatus(id, "job-" + id, state, new CrawlStatus.Pages(1, 0, 0), List.of(), runs, null, null, request(id));
    }
}
