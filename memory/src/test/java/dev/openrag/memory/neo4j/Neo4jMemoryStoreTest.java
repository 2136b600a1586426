package dev.openrag.memory.neo4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.neo4j.driver.Driver;

import dev.openrag.memory.Memory;
import dev.openrag.memory.MemoryHit;
import dev.openrag.memory.MemoryQuery;
import dev.openrag.memory.neo4j.Neo4jMemoryStore.SearchTuning;

/**
 * Memory search on real Neo4j: a big scope goes through the shared vector index, a small one next
 * to it is scanned exactly, and both give the scope's nearest memories and nothing of other scopes.
 */
@ExtendWith(MemoryNeo4j.class)
class Neo4jMemoryStoreTest {

    private static Driver driver;

    @BeforeAll
    static void connect(Driver shared) {
        driver = shared;
    }

    private static Memory memory(String id, String scope) {
        return new Memory(id, scope, "memory " + id, List.of(), false, 1, 1, null, null, null, List.of(), List.of());
    }

    @Test
    void concurrentAddsNamingTheSameEntitiesInOtherOrdersAllLandThoughNeo4jFindsDeadlocksBetweenThem() throws Exception {
        Neo4jMemoryStore store = new Neo4jMemoryStore(driver, 50, 0);
        String scope = "contended-" + System.nanoTime();
        List<String> orders = List.of("Alba met Brin, Cato and Dara", "Dara met Cato, Brin and Alba",
                "Cato met Alba, Dara and Brin", "Brin met Dara, Alba and Cato");
        int threads = 4;
        int each = 40;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> adds = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                adds.add(pool.submit(() -> {
                    for (int i = 0; i < each; i++) {
                        String text = orders.get((thread + i) % orders.size()) + " (" + thread + "-" + i + ")";
                        store.add(new Memory(scope + "-" + thread + "-" + i, scope, text, List.of(), false, 1, 1, null, null, null,
                                List.of(), List.of()), new float[] {1, thread, i, 0});
                    }
                    return null;
                }));
            }
            for (Future<?> add : adds) {
                add.get(2, TimeUnit.MINUTES); // a deadlock that reached the caller fails here
            }
        } finally {
            pool.shutdownNow();
        }
        try (var session = driver.session()) {
            var counts = session.run("""
                    MATCH (m:Memory {scope: $scope}) WITH count(m) AS memories
                    MATCH (e:MemoryEntity {scope: $scope})
                    RETURN memories, count(e) AS entities, sum(COUNT { (e)<-[:MENTIONS]-(:Memory) }) AS mentions""",
                    Map.of("scope", scope)).single();
            assertThat(counts.get("memories").asInt()).as("every add stored once").isEqualTo(threads * each);
            assertThat(counts.get("entities").asInt()).as("one entity per name").isEqualTo(4);
            assertThat(counts.get("mentions").asInt()).as("each memory names all four").isEqualTo(4 * threads * each);
        }
    }

    @Test
    void bigScopesUseTheVectorIndexSmallOnesAnExactScanAndScopesNeverMix() {
        Neo4jMemoryStore store = new Neo4jMemoryStore(driver, 50, 0); // no in-memory copy: Neo4j answers every search
        long run = System.nanoTime();
        String big = "big-" + run;
        String small = "small-" + run;
        for (int i = 0; i < 120; i++) {
            double angle = i * Math.PI / 240; // spread over a quarter circle in the first two dimensions
            store.add(memory(big + "-" + i, big), new float[] {(float) Math.cos(angle), (float) Math.sin(angle), 0, 0});
        }
        List<String> smallIds = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            smallIds.add(small + "-" + i);
            store.add(memory(small + "-" + i, small), new float[] {1, 0, 0.01f * i, 0});
        }

        float[] query = {1, 0, 0, 0}; // nearest to big-0, big-1, ...
        List<MemoryHit> bigHits = store.search(big, query, 5, null, 0, false, 2);
        assertThat(bigHits).extracting(MemoryHit::id).containsExactly(big + "-0", big + "-1", big + "-2", big + "-3", big + "-4");
        assertThat(bigHits.get(0).score()).isGreaterThan(bigHits.get(4).score());

        List<MemoryHit> smallHits = store.search(small, query, 5, null, 0, false, 2);
        assertThat(Set.copyOf(smallHits.stream().map(MemoryHit::id).toList())).isEqualTo(Set.copyOf(smallIds));

        try (var session = driver.session()) {
            List<String> properties = session.run("SHOW INDEXES YIELD name, properties WHERE name = $name RETURN properties",
                    Map.of("name", MemorySchema.MEMORY_VECTOR_INDEX)).single().get("properties").asList(org.neo4j.driver.Value::asString);
            assertThat(properties).as("big scopes are searched with the scope as the index's filter").contains("embedding", "scope");
            assertThat(session.run("SHOW INDEXES YIELD name, labelsOrTypes WHERE name = $name RETURN labelsOrTypes",
                    Map.of("name", MemorySchema.MEMORY_VECTOR_INDEX)).single().get("labelsOrTypes").asList(org.neo4j.driver.Value::asString))
                    .as("the index holds the memories moved into it, not every memory at its write").containsExactly(MemorySchema.INDEXED_MEMORY);
        }
    }

    @Test
    void aNewMemoryOfABigScopeIsFoundBeforeItEntersTheVectorIndexAndAfter() throws InterruptedException {
        // a scope bigger than the exact scan, no copy, and no moves into the index but the test's own
        Thread.sleep(Neo4jMemoryStore.VECTOR_INDEX_DELAY.toMillis() + 200); // other tests' stores' scheduled moves have run by now
        Neo4jMemoryStore store = new Neo4jMemoryStore(driver, 5, 0, SearchTuning.DEFAULT, null);
        String scope = "queued-" + System.nanoTime();
        for (int i = 0; i < 20; i++) { // all near the query, so that the index alone fills k with them
            store.add(memory(scope + "-" + i, scope), new float[] {0.9f, 0.1f * (i + 1), 0, 0});
        }
        assertThat(labels(scope + "-0")).contains(MemorySchema.MEMORY_TO_INDEX).doesNotContain(MemorySchema.INDEXED_MEMORY);
        assertThat(store.indexQueuedVectors()).isGreaterThanOrEqualTo(20);
        assertThat(labels(scope + "-0")).contains(MemorySchema.INDEXED_MEMORY).doesNotContain(MemorySchema.MEMORY_TO_INDEX);

        store.add(memory(scope + "-new", scope), new float[] {1, 0, 0, 0});
        assertThat(labels(scope + "-new")).contains(MemorySchema.MEMORY_TO_INDEX);
        assertThat(store.search(scope, new float[] {1, 0, 0, 0}, 3, null, 0, false, 2)).extracting(MemoryHit::id)
                .as("the index's three nearest are older memories; the queued one is scanned beside them").startsWith(scope + "-new");

        assertThat(store.indexQueuedVectors()).isGreaterThanOrEqualTo(1);
        assertThat(labels(scope + "-new")).contains(MemorySchema.INDEXED_MEMORY).doesNotContain(MemorySchema.MEMORY_TO_INDEX);
        assertThat(store.search(scope, new float[] {1, 0, 0, 0}, 3, null, 0, false, 2)).extracting(MemoryHit::id)
                .as("now from the index").startsWith(scope + "-new").hasSize(3);
        assertThat(store.indexQueuedVectors()).as("nothing left to move").isZero();
    }

    @Test
    void aStoreMovesNewMemoriesIntoTheVectorIndexByItself() throws InterruptedException {
        Neo4jMemoryStore store = new Neo4jMemoryStore(driver, 5, 0, SearchTuning.DEFAULT, java.time.Duration.ofMillis(50));
        String scope = "moved-" + System.nanoTime();
        store.add(memory(scope + "-0", scope), new float[] {1, 0, 0, 0});
        long deadline = System.currentTimeMillis() + 10_000;
        while (labels(scope + "-0").contains(MemorySchema.MEMORY_TO_INDEX) && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        assertThat(labels(scope + "-0")).contains(MemorySchema.INDEXED_MEMORY).doesNotContain(MemorySchema.MEMORY_TO_INDEX);
    }

    private static List<String> labels(String memoryId) {
        try (var session = driver.session()) {
            return session.run("MATCH (m:Memory {id: $id}) RETURN labels(m) AS labels", Map.of("id", memoryId))
                    .single().get("labels").asList(org.neo4j.driver.Value::asString);
        }
    }

    @Test
    void bm25FromNeo4jsIndexFindsEachMemoryRightAfterItsAddThoughTheIndexIsUpdatedAfterTheCommit() {
        // no copy and no exact scan (a scope Neo4j scans exactly is read for the search), so the words list comes from the
        // fulltext index, which Neo4j updates on a thread of its own
        Neo4jMemoryStore store = new Neo4jMemoryStore(driver, 0, 0, SearchTuning.DEFAULT);
        String scope = "words-" + System.nanoTime();
        for (int i = 0; i < 30; i++) {
            String word = "quokka" + (char) ('a' + i % 26) + (char) ('a' + i / 26) + "x"; // a word no other memory has
            store.add(new Memory(scope + "-" + i, scope, "the " + word + " said hello", List.of(), false, 1, 1, null, null, null,
                    List.of(), List.of()), new float[] {1, 0.01f * i, 0, 0});
            MemoryQuery byWords = new MemoryQuery(scope, word, new float[] {1, 0, 0, 0}, 3, null, 0, false, null, null, null, 2,
                    MemoryQuery.BM25, null, null, false);
            assertThat(store.search(byWords)).extracting(MemoryHit::id).as("round %d", i).containsExactly(scope + "-" + i);
        }
    }

    @Test
    void theDefaultFusionLetsOneListsFirstHitAheadOfMemoriesBothListsRankMiddling() {
        String scope = "fusion-" + System.nanoTime();
        // no feedback list: the two lists alone
        Neo4jMemoryStore store = Neo4jMemoryStore.readingEachSearch(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000, new SearchTuning(SearchTuning.DEFAULT.rrfK(), 0, 0));
        // a memory without the word, so that the word tells memories apart (else its list would be silent); vectors' rank 7
        store.add(new Memory(scope + "-u", scope, "quiet", List.of(), false, 1, 1, null, null, null, List.of(), List.of()),
                new float[] {0, 0, 1, 0});
        // the shortest text naming the word: BM25's first hit; orthogonal to the query: vectors' last
        store.add(new Memory(scope + "-x", scope, "zephyr", List.of(), false, 1, 1, null, null, null, List.of(), List.of()),
                new float[] {0, 0, 0, 1});
        for (int i = 1; i <= 6; i++) { // BM25 rank i + 1 (longer and longer), vector rank i
            store.add(new Memory(scope + "-m" + i, scope, "zephyr" + " word".repeat(i), List.of(), false, 1, 1, null, null, null,
                    List.of(), List.of()), new float[] {1, 0.1f * i, 0, 0});
        }
        MemoryQuery query = new MemoryQuery(scope, "zephyr", new float[] {1, 0, 0, 0}, 7, null, 0, false, null, null, null, 2);

        assertThat(rankOf(store.search(query), scope + "-x")).as("rrfK %d", SearchTuning.DEFAULT.rrfK()).isEqualTo(3);
        assertThat(rankOf(Neo4jMemoryStore.readingEachSearch(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000, new SearchTuning(60, 0, 0)).search(query), scope + "-x"))
                .as("rrfK 60: behind m1, m2 and m3, which both lists rank near the top").isEqualTo(4);
        assertThatThrownBy(() -> new SearchTuning(0, 10, 10)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> new SearchTuning(3, -1, 10)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("negative");
    }

    private static int rankOf(List<MemoryHit> hits, String id) {
        return hits.stream().map(MemoryHit::id).toList().indexOf(id) + 1;
    }

    @Test
    void entityLinksRankTheMemoriesSharingTheRarestNameFirst() {
        Neo4jMemoryStore store = new Neo4jMemoryStore(driver);
        String scope = "entities-" + System.nanoTime();
        for (int i = 0; i < 20; i++) {
            store.add(new Memory(scope + "-w" + i, scope, "Weekly note " + i + ": the fence needs paint", List.of(), false, 1, 1,
                    null, null, null, List.of(), List.of()), new float[] {1, 0.01f * i, 0, 0});
        }
        store.add(new Memory(scope + "-adopted", scope, "Jolene adopted a greyhound called Biscuit", List.of(), false, 1, 1,
                null, null, null, List.of(), List.of()), new float[] {1, 0, 0, 0});
        store.add(new Memory(scope + "-prize", scope, "Biscuit won first prize at the county show", List.of(), false, 1, 1,
                null, null, null, List.of(), List.of()), new float[] {0, 1, 0, 0});

        List<MemoryHit> hits = store.search(new MemoryQuery(scope, "Did Jolene's pet ever win anything?", new float[] {1, 0, 0, 0}, 5,
                null, 0, false, null, null, null, 2, MemoryQuery.HYBRID, null, null, true));
        MemoryHit prize = hits.stream().filter(hit -> hit.id().equals(scope + "-prize")).findFirst()
                .orElseThrow(() -> new AssertionError("the prize memory, linked through 'Biscuit', is missing from " + hits));
        assertThat(prize.ranks()).containsEntry("entity", 1);
        assertThat(store.get(scope + "-adopted").orElseThrow().entities()).containsExactlyInAnyOrder("Jolene", "Biscuit");

        // a new text names new entities; a name no memory mentions any more is gone with the last mention
        store.update(scope + "-adopted", "Jolene adopted a cat called Pixel", new float[] {1, 0, 0, 0}, null, 3);
        assertThat(store.get(scope + "-adopted").orElseThrow().entities()).containsExactlyInAnyOrder("Jolene", "Pixel");
        assertThat(entityKeys(scope)).contains("biscuit", "pixel");
        assertThat(store.delete(scope + "-prize")).isTrue();
        assertThat(store.delete(scope + "-prize")).isFalse();
        assertThat(entityKeys(scope)).containsExactlyInAnyOrder("jolene", "pixel", "weekly");
    }

    private static List<String> entityKeys(String scope) {
        try (var session = driver.session()) {
            return session.run("MATCH (e:MemoryEntity {scope: $scope}) RETURN e.key AS key", Map.of("scope", scope))
                    .list(row -> row.get("key").asString());
        }
    }

    @Test
    void aSpeakerNamedInTheQuestionIsFoundRightAfterTheirFirstMemoryThoughTheScopesFactsAreCached() {
        Neo4jMemoryStore store = new Neo4jMemoryStore(driver);
        String scope = "speakers-" + System.nanoTime();
        store.add(speaking(scope, "c1", "Caroline went to a support group", "Caroline"), new float[] {1, 0, 0, 0});
        assertThat(speakerRank(store, scope, "what did Melanie paint")).as("nobody called Melanie speaks yet").isNull();

        store.add(speaking(scope, "m1", "I painted a sunrise over the lake", "Melanie"), new float[] {0, 1, 0, 0});

        assertThat(speakerRank(store, scope, "what did Melanie paint")).as("the new speaker, within the cache's lifetime").isEqualTo(1);
        assertThat(speakerRank(store, scope, "what did caroline say")).as("names match in any case").isEqualTo(1);
    }

    @Test
    void recencyRanksNewerMemoriesHigherOnlyWhenAskedAndFiltersNothing() throws InterruptedException {
        long day = 86_400_000L;
        long reference = 1_700_000_000_000L;
        for (long maxCopied : new long[] {0, Neo4jMemoryStore.DEFAULT_MAX_COPIED}) { // Neo4j answers; then the scope's copy
            Neo4jMemoryStore store = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, maxCopied);
            String scope = "recency-" + System.nanoTime();
            // equally similar to the query; "later" happened after the reference time, which counts as new
            long[] happened = {reference - 90 * day, reference - 30 * day, reference - 10 * day, reference + day};
            String[] names = {"old", "month", "recent", "later"};
            for (int i = 0; i < names.length; i++) {
                store.add(new Memory(scope + "-" + names[i], scope, "ramen lunch with Priya", List.of(), false, 1, 1, null, null, null,
                        List.of(), List.of(), happened[i], null), new float[] {1, 0, 0, 0});
            }
            store.add(new Memory(scope + "-unrelated", scope, "the quarterly report is due", List.of(), false, 1, 1, null, null, null,
                    List.of(), List.of(), reference, null), new float[] {0, 1, 0, 0});
            for (int attempt = 0; maxCopied > 0 && !store.servesFromMemory(scope) && attempt < 100; attempt++) {
                Thread.sleep(100); // the copy is read in the background
            }
            assertThat(store.servesFromMemory(scope)).isEqualTo(maxCopied > 0);
            float[] query = {1, 0, 0, 0};
            MemoryQuery.Recency recency = new MemoryQuery.Recency(30.0 * day, reference);

            for (String text : new String[] {null, "ramen lunch"}) { // vectors only, and the fused lists
                List<MemoryHit> plain = store.search(new MemoryQuery(scope, text, query, 5, null, 0, false, null, null, null, 2,
                        MemoryQuery.HYBRID, null, null, false, null));
                List<MemoryHit> recent = store.search(new MemoryQuery(scope, text, query, 5, null, 0, false, null, null, null, 2,
                        MemoryQuery.HYBRID, null, null, false, null, recency));
                assertThat(recent).extracting(MemoryHit::id).as("same hits, %s", text)
                        .containsExactlyInAnyOrderElementsOf(plain.stream().map(MemoryHit::id).toList());
                assertThat(plain).allSatisfy(hit -> assertThat(hit.adjusted() == null || !hit.adjusted().containsKey("recency")).isTrue());
                Map<String, Double> lift = new java.util.HashMap<>();
                recent.forEach(hit -> lift.put(hit.id().substring(scope.length() + 1), hit.adjusted().get("recency")));
                assertThat(lift.get("later")).as("after the reference time: new").isEqualTo(MemoryQuery.Recency.WEIGHT);
                assertThat(lift.get("month")).as("one half-life old").isCloseTo(MemoryQuery.Recency.WEIGHT / 2, within(1e-9));
                assertThat(lift.get("recent")).isBetween(lift.get("month"), lift.get("later"));
                assertThat(lift.get("old")).isCloseTo(MemoryQuery.Recency.WEIGHT / 8, within(1e-9));
                // each score is the score without recency, over the best, plus the lift
                double best = plain.stream().mapToDouble(MemoryHit::score).max().orElseThrow();
                for (MemoryHit hit : recent) {
                    double without = plain.stream().filter(other -> other.id().equals(hit.id())).findFirst().orElseThrow().score();
                    assertThat(hit.score()).as(hit.id()).isCloseTo(without / best + hit.adjusted().get("recency"), within(1e-9));
                }
                if (text == null) { // equally similar: newest first, and the unrelated memory stays last however new
                    assertThat(recent).extracting(MemoryHit::id).containsExactly(scope + "-later", scope + "-recent", scope + "-month",
                            scope + "-old", scope + "-unrelated");
                }
            }
        }
        assertThatThrownBy(() -> new MemoryQuery.Recency(0, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("half-life must be positive");
    }

    private static Memory speaking(String scope, String id, String text, String speaker) {
        return new Memory(scope + "-" + id, scope, text, List.of(), false, 1, 1, null, null, null, List.of(), List.of(), 1L, speaker);
    }

    /** The rank of the first hit in the list of memories by the speaker the question names, or null when there is no such list. */
    private static Integer speakerRank(Neo4jMemoryStore store, String scope, String question) {
        return store.search(new MemoryQuery(scope, question, new float[] {0.5f, 0.5f, 0, 0}, 5, null, 0, false, null, null, null, 2))
                .stream().map(hit -> hit.ranks() == null ? null : hit.ranks().get("speaker")).filter(java.util.Objects::nonNull)
                .min(Integer::compare).orElse(null);
    }
}
