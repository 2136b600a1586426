package dev.openrag.knowledge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;

import dev.openrag.knowledge.neo4j.Neo4jGraphStore;
import dev.openrag.knowledge.neo4j.Neo4jSchema;
import dev.openrag.knowledge.neo4j.Neo4jSearchState;
import dev.openrag.knowledge.neo4j.Neo4jVectorIndex;
import dev.openrag.knowledge.port.ChunkLookup;
import dev.openrag.knowledge.port.IndexedChunk;
import dev.openrag.knowledge.port.ScoredChunk;
import dev.openrag.knowledge.port.SearchState;
import dev.openrag.knowledge.port.VectorIndex;
import dev.openrag.knowledge.vector.InMemoryVectorIndex;
import dev.openrag.localstack.Engine;
import dev.openrag.localstack.StackConfig;
import dev.openrag.localstack.test.LocalStackExtension.WithEngines;

/** The in-memory copy of small collections against real Neo4j: same answers as the index, never stale, even while written. */
@WithEngines(Engine.NEO4J)
class InMemoryVectorIndexTest {

    private static Driver driver;
    private static Neo4jGraphStore graph;
    private static Neo4jVectorIndex neo4j;
    private final Random random = new Random(5);

    @BeforeAll
    static void connect(StackConfig config) {
        driver = GraphDatabase.driver(config.neo4jUri(), AuthTokens.none());
        Neo4jSchema.bootstrap(driver, 4);
        graph = new Neo4jGraphStore(driver);
        neo4j = new Neo4jVectorIndex(driver);
    }

    /** The other tests of this module share the engine, and some search the whole chunk index. */
    @AfterAll
    static void removeTheCollectionsAndClose() {
        try (var session = driver.session()) {
            session.run("MATCH (n) WHERE (n:Document OR n:Section OR n:Chunk) AND n.collection STARTS WITH 'mem-' DETACH DELETE n")
                    .consume();
        }
        driver.close();
    }

    @Test
    void aSmallCollectionIsSearchedInMemoryWithTheIndexsRanksAndScores() throws Exception {
        writeDocuments("mem-same", 3, 20);
        InMemoryVectorIndex index = new InMemoryVectorIndex(neo4j, neo4j, neo4j, 1000);

        awaitInMemory(index, "mem-same");

        assertThat(index.chunksInMemory()).isEqualTo(60);
        for (int q = 0; q < 30; q++) {
            float[] query = randomVector();
            List<ScoredChunk> fromMemory = index.search("mem-same", query, 10);
            List<ScoredChunk> fromNeo4j = neo4j.search("mem-same", query, 10);
            assertThat(fromMemory).extracting(hit -> hit.chunk().chunkId())
                    .containsExactlyElementsOf(fromNeo4j.stream().map(hit -> hit.chunk().chunkId()).toList());
            assertThat(fromMemory).extracting(ScoredChunk::rank).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
            for (int i = 0; i < 10; i++) {
                assertThat(fromMemory.get(i).score()).as("Neo4j's cosine score, (1 + cos) / 2")
                        .isCloseTo(fromNeo4j.get(i).score(), within(1e-5));
            }
        }
        IndexedChunk best = index.search("mem-same", randomVector(), 1).get(0).chunk();
        assertThat(best.text()).startsWith("chunk ");
        assertThat(best.context()).isEqualTo("context of " + best.documentId());
        assertThat(best.vector()).as("hits carry no vector, as the index's").isNull();
    }

    @Test
    void aWriteIsSeenByTheVeryNextSearchAndADeleteToo() throws Exception {
        writeDocuments("mem-fresh", 2, 10);
        InMemoryVectorIndex index = new InMemoryVectorIndex(neo4j, neo4j, neo4j, 1000);
        awaitInMemory(index, "mem-fresh");
        float[] query = {0.1f, -0.7f, 0.2f, 0.4f};

        graph.upsertDocument("mem-fresh", "new", "New", "file:///new", "h-new",
                List.of(chunk("mem-fresh", "new", 0, query)), List.of());
        List<ScoredChunk> afterWrite = index.search("mem-fresh", query, 3);
        graph.deleteDocument("mem-fresh", "new");
        List<ScoredChunk> afterDelete = index.search("mem-fresh", query, 3);

        assertThat(afterWrite.get(0).chunk().chunkId()).as("the chunk written a moment ago").isEqualTo("mem-fresh/new#0");
        assertThat(afterWrite.get(0).score()).isCloseTo(1.0, within(1e-5));
        assertThat(afterDelete).extracting(hit -> hit.chunk().chunkId()).doesNotContain("mem-fresh/new#0").hasSize(3);
        awaitInMemory(index, "mem-fresh");
        assertThat(index.search("mem-fresh", query, 30)).as("the copy read again after the changes").hasSize(20)
                .extracting(hit -> hit.chunk().chunkId()).doesNotContain("mem-fresh/new#0");
    }

    @Test
    void aCollectionBeingWrittenIsSearchedFromItsCopyBroughtUpToDateNotFromTheIndex() throws Exception {
        writeDocuments("mem-live", 3, 10);
        CountingIndex counting = new CountingIndex(neo4j);
        InMemoryVectorIndex index = new InMemoryVectorIndex(counting, neo4j, neo4j, 1000);
        awaitInMemory(index, "mem-live");
        int askedBefore = counting.searches.get();
        float[] added = {0.9f, 0.1f, -0.2f, 0.3f};
        float[] replaced = {-0.4f, 0.8f, 0.1f, -0.3f};

        graph.upsertDocument("mem-live", "added", "Added", "file:///added", "h-added",
                List.of(chunk("mem-live", "added", 0, added), chunk("mem-live", "added", 1, randomVector())), List.of());
        graph.upsertDocument("mem-live", "doc1", "Document 1", "file:///doc1", "h1-new",
                List.of(chunk("mem-live", "doc1", 0, replaced)), List.of());
        graph.deleteDocument("mem-live", "doc2");
        List<ScoredChunk> toAdded = index.search("mem-live", added, 1);
        List<ScoredChunk> toReplaced = index.search("mem-live", replaced, 30);

        assertThat(counting.searches.get()).as("searches of a changing collection stay in memory").isEqualTo(askedBefore);
        assertThat(index.servesFromMemory("mem-live")).as("the copy is current after the search, without a reload").isTrue();
        assertThat(toAdded.get(0).chunk().chunkId()).isEqualTo("mem-live/added#0");
        assertThat(toReplaced).extracting(hit -> hit.chunk().chunkId()).as("doc0's 10, doc1's new one, added's 2; doc2 gone")
                .hasSize(13).contains("mem-live/doc1#0", "mem-live/added#1").noneMatch(id -> id.startsWith("mem-live/doc2"))
                .containsExactlyElementsOf(neo4j.search("mem-live", replaced, 30).stream().map(hit -> hit.chunk().chunkId()).toList());
        assertThat(toReplaced.get(0).chunk().chunkId()).isEqualTo("mem-live/doc1#0");
        assertThat(toReplaced.get(0).chunk().text()).isEqualTo("chunk 0 of doc1");
        for (int i = 0; i < toReplaced.size(); i++) {
            assertThat(toReplaced.get(i).score()).isCloseTo(neo4j.search("mem-live", replaced, 30).get(i).score(), within(1e-5));
        }
        assertThat(index.chunksInMemory()).isEqualTo(13);
    }

    @Test
    void searchesThatFindTheCopyStaleAtOnceShareOneCatchUp() throws Exception {
        writeDocuments("mem-many", 2, 10);
        CountingSource source = new CountingSource(neo4j);
        InMemoryVectorIndex index = new InMemoryVectorIndex(neo4j, source, neo4j, 1000);
        awaitInMemory(index, "mem-many");
        float[] added = {0.2f, 0.2f, 0.9f, -0.1f};
        graph.upsertDocument("mem-many", "added", "Added", "file:///added", "h-added",
                List.of(chunk("mem-many", "added", 0, added)), List.of());
        int readsBefore = source.changeReads.get();

        List<java.util.concurrent.Future<List<ScoredChunk>>> searches = new ArrayList<>();
        try (var threads = java.util.concurrent.Executors.newFixedThreadPool(8)) {
            for (int i = 0; i < 8; i++) {
                searches.add(threads.submit(() -> index.search("mem-many", added, 1)));
            }
        }

        for (var search : searches) {
            assertThat(search.get().get(0).chunk().chunkId()).isEqualTo("mem-many/added#0");
        }
        assertThat(source.changeReads.get() - readsBefore).as("one read of the changes for eight searches").isEqualTo(1);
    }

    @Test
    void aCopyThatWouldOutgrowTheBudgetIsDroppedAndTheIndexAnswers() throws Exception {
        writeDocuments("mem-grow", 2, 10);
        CountingIndex counting = new CountingIndex(neo4j);
        InMemoryVectorIndex index = new InMemoryVectorIndex(counting, neo4j, neo4j, 25);
        awaitInMemory(index, "mem-grow");
        int askedBefore = counting.searches.get();

        writeDocuments("mem-grow", 3, 10); // doc0 and doc1 rewritten, doc2 added: 30 chunks
        float[] query = randomVector();
        List<ScoredChunk> hits = index.search("mem-grow", query, 5);

        assertThat(counting.searches.get()).as("the index answered").isEqualTo(askedBefore + 1);
        assertThat(index.chunksInMemory()).as("the copy was dropped").isZero();
        assertThat(hits).extracting(hit -> hit.chunk().chunkId())
                .containsExactlyElementsOf(neo4j.search("mem-grow", query, 5).stream().map(hit -> hit.chunk().chunkId()).toList());
    }

    @Test
    void theSearchStateReadsTheVersionAndTheExistenceChecksInOneQueryAndKeepsTheCopyCurrent() throws Exception {
        writeDocuments("mem-state", 2, 10);
        InMemoryVectorIndex index = new InMemoryVectorIndex(neo4j, neo4j, neo4j, 1000);
        Neo4jSearchState state = new Neo4jSearchState(driver);
        awaitInMemory(index, "mem-state");
        float[] query = {0.3f, 0.1f, -0.9f, 0.2f};

        SearchState.Snapshot before = state.read("mem-state");
        assertThat(before.vectors()).isEqualTo(neo4j.version("mem-state"));
        assertThat(before.vectors().chunks()).isEqualTo(20);
        graph.upsertDocument("mem-state", "new", "New", "file:///new", "h-new",
                List.of(chunk("mem-state", "new", 0, query)), List.of());
        SearchState.Snapshot after = state.read("mem-state");
        List<ScoredChunk> hits = index.prepareSearch("mem-state", after::vectors).nearest(query, 1);

        assertThat(after.vectors()).isNotEqualTo(before.vectors()).isEqualTo(neo4j.version("mem-state"));
        assertThat(hits.get(0).chunk().chunkId()).as("the copy is brought up to the new version")
                .isEqualTo("mem-state/new#0");
        assertThat(state.read("mem-unknown").vectors().chunks()).isZero();

        try (var session = driver.session()) {
            session.run("CREATE (:Feedback {id: 'state-test'}), (:Memory {id: 'state-test', pinned: true}), (:Correction {id: 'state-test'})")
                    .consume();
            SearchState.Snapshot withAll = state.read("mem-state");
            session.run("MATCH (n {id: 'state-test'}) WHERE n:Feedback OR n:Memory OR n:Correction DETACH DELETE n").consume();
            SearchState.Snapshot withNone = state.read("mem-state");
            boolean othersFeedback = session.run("RETURN EXISTS { MATCH (:Feedback) } AS any").single().get("any").asBoolean();
            boolean othersMemories = session.run("RETURN EXISTS { MATCH (:Memory {pinned: true}) } OR EXISTS { MATCH (:Correction) } AS any")
                    .single().get("any").asBoolean();

            assertThat(withAll.anyFeedback()).isTrue();
            assertThat(withAll.anyPinnedOrCorrections()).isTrue();
            assertThat(withNone.anyFeedback()).as("other tests' feedback only").isEqualTo(othersFeedback);
            assertThat(withNone.anyPinnedOrCorrections()).as("other tests' memories only").isEqualTo(othersMemories);
        }

        try (Driver unreachable = GraphDatabase.driver("bolt://127.0.0.1:1", AuthTokens.none())) {
            assertThatThrownBy(() -> new Neo4jSearchState(unreachable).read("mem-state"))
                    .isInstanceOf(org.neo4j.driver.exceptions.ServiceUnavailableException.class);
        }
    }

    /** Issue 72: which lookups a search's memories step needs, per kind, in the searched scopes only. */
    @Test
    void theSearchStateTellsPinnedMemoriesThoseAboutSomethingAndCorrectionsApartPerScope() {
        String scope = "state-kinds-" + System.nanoTime();
        Neo4jSearchState state = new Neo4jSearchState(driver);
        try (var session = driver.session()) {
            assertThat(state.read("mem-state", List.of(scope))).satisfies(none -> {
                assertThat(none.anyPinned()).isFalse();
                assertThat(none.anyPinnedAbout()).isFalse();
                assertThat(none.anyCorrections()).isFalse();
            });
            session.run("CREATE (:Memory {id: $scope + '-plain', scope: $scope, pinned: true}),"
                    + " (:Memory {id: $scope + '-unpinned', scope: $scope, pinned: false})-[:ABOUT]->(:Document {uid: $scope + '/d'})",
                    java.util.Map.of("scope", scope)).consume();
            SearchState.Snapshot pinned = state.read("mem-state", List.of(scope));
            assertThat(pinned.anyPinned()).isTrue();
            assertThat(pinned.anyPinnedAbout()).as("only an unpinned memory is about something").isFalse();
            assertThat(pinned.anyCorrections()).isFalse();

            session.run("MATCH (m:Memory {id: $scope + '-plain'}), (d:Document {uid: $scope + '/d'}) CREATE (m)-[:ABOUT]->(d)",
                    java.util.Map.of("scope", scope)).consume();
            assertThat(state.read("mem-state", List.of(scope)).anyPinnedAbout()).isTrue();
            assertThat(state.read("mem-state", List.of(scope + "-other")).anyPinnedAbout()).as("another scope").isFalse();
            session.run("MATCH (m:Memory {id: $scope + '-plain'}) SET m.forgottenAt = 1", java.util.Map.of("scope", scope)).consume();
            assertThat(state.read("mem-state", List.of(scope))).as("forgotten").satisfies(forgotten -> {
                assertThat(forgotten.anyPinned()).isFalse();
                assertThat(forgotten.anyPinnedAbout()).isFalse();
            });

            session.run("CREATE (:Correction {id: $scope + '-c', scope: $scope})", java.util.Map.of("scope", scope)).consume();
            SearchState.Snapshot corrected = state.read("mem-state", List.of(scope));
            assertThat(corrected.anyCorrections()).isTrue();
            assertThat(corrected.anyPinnedOrCorrections()).isTrue();
            assertThat(corrected.anyPinned()).isFalse();
            session.run("MATCH (n) WHERE n.id STARTS WITH $scope OR n.uid STARTS WITH $scope DETACH DELETE n",
                    java.util.Map.of("scope", scope)).consume();
        }
    }

    /** Issue 72: chunks by key from the held copy, only at the version asked for, without a store round trip. */
    @Test
    void heldChunksComeFromTheCopyOnlyAtItsVersion() throws Exception {
        writeDocuments("mem-held", 2, 3);
        InMemoryVectorIndex index = new InMemoryVectorIndex(neo4j, neo4j, neo4j, 1000);
        assertThat(index.holdsCopy("mem-held")).isFalse();
        assertThat(index.heldChunks("mem-held", neo4j.version("mem-held"), List.of())).as("no copy yet").isNull();
        awaitInMemory(index, "mem-held");
        List<ChunkLookup.ChunkKey> keys = List.of(new ChunkLookup.ChunkKey("doc0", 1), new ChunkLookup.ChunkKey("doc1", 2),
                new ChunkLookup.ChunkKey("doc1", 9));

        List<IndexedChunk> held = index.heldChunks("mem-held", neo4j.version("mem-held"), keys);

        assertThat(index.holdsCopy("mem-held")).isTrue();
        assertThat(held).extracting(IndexedChunk::chunkId).as("the key the copy lacks is absent")
                .containsExactlyInAnyOrder("mem-held/doc0#1", "mem-held/doc1#2");
        assertThat(held).usingRecursiveFieldByFieldElementComparator().containsExactlyInAnyOrderElementsOf(
                neo4j.chunks("mem-held", keys));
        assertThat(index.heldChunks("mem-held", new dev.openrag.knowledge.port.CollectionVectors.Version("another", 6), keys))
                .as("a copy at another version answers nothing").isNull();
    }

    @Test
    void collectionsBeyondTheBudgetStayInTheIndexAndTheLeastRecentlySearchedCopyMakesRoom() throws Exception {
        writeDocuments("mem-big", 3, 20);
        writeDocuments("mem-one", 1, 20);
        writeDocuments("mem-two", 1, 20);
        InMemoryVectorIndex index = new InMemoryVectorIndex(neo4j, neo4j, neo4j, 30);
        float[] query = randomVector();

        List<ScoredChunk> big = index.search("mem-big", query, 5);
        Thread.sleep(300); // time for a copy to be read, were one wrongly started
        assertThat(index.servesFromMemory("mem-big")).as("60 chunks exceed the budget of 30").isFalse();
        assertThat(big).extracting(hit -> hit.chunk().chunkId())
                .containsExactlyElementsOf(neo4j.search("mem-big", query, 5).stream().map(hit -> hit.chunk().chunkId()).toList());

        awaitInMemory(index, "mem-one");
        awaitInMemory(index, "mem-two");

        assertThat(index.servesFromMemory("mem-one")).as("evicted to make room for mem-two").isFalse();
        assertThat(index.chunksInMemory()).isEqualTo(20);
    }

    @Test
    void badInputAndAnUnreachableStoreAreClearErrors() throws Exception {
        writeDocuments("mem-bad", 1, 5);
        InMemoryVectorIndex index = new InMemoryVectorIndex(neo4j, neo4j, neo4j, 1000);
        awaitInMemory(index, "mem-bad");

        assertThatThrownBy(() -> index.search("mem-bad", new float[] {1, 0}, 3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the query vector has 2 dimensions, the collection's vectors 4");
        assertThat(index.search("mem-unknown", randomVector(), 3)).as("nothing ingested there").isEmpty();

        try (Driver unreachable = GraphDatabase.driver("bolt://127.0.0.1:1", AuthTokens.none())) {
            Neo4jVectorIndex down = new Neo4jVectorIndex(unreachable);
            InMemoryVectorIndex overDown = new InMemoryVectorIndex(down, down, down, 1000);
            assertThatThrownBy(() -> overDown.search("mem-bad", randomVector(), 3))
                    .as("the search fails, so that hybrid search can name the vectors as degraded")
                    .isInstanceOf(org.neo4j.driver.exceptions.ServiceUnavailableException.class);
        }
    }

    /** Searches until the first search's background read has made a current copy (at most 10 s). */
    private void awaitInMemory(InMemoryVectorIndex index, String collection) throws InterruptedException {
        for (int attempt = 0; attempt < 100 && !index.servesFromMemory(collection); attempt++) {
            index.search(collection, randomVector(), 1);
            Thread.sleep(100);
        }
        assertThat(index.servesFromMemory(collection)).as(collection + " copied into memory").isTrue();
    }

    @Test
    void chunksByPlaceComeFromTheCopyOrTheStoreAndOnlyFromTheAskedCollection() throws Exception {
        writeDocuments("mem-place", 2, 5);
        writeDocuments("mem-other", 2, 5); // the same document ids in another collection
        InMemoryVectorIndex index = new InMemoryVectorIndex(neo4j, neo4j, neo4j, 1000);
        List<ChunkLookup.ChunkKey> keys = List.of(new ChunkLookup.ChunkKey("doc0", 0), new ChunkLookup.ChunkKey("doc1", 4),
                new ChunkLookup.ChunkKey("doc1", 5), new ChunkLookup.ChunkKey("nope", 0));

        for (ChunkLookup lookup : List.<ChunkLookup>of(neo4j, index)) {
            assertThat(lookup.chunks("mem-place", keys)).extracting(IndexedChunk::chunkId).as(lookup.getClass().getSimpleName())
                    .containsExactlyInAnyOrder("mem-place/doc0#0", "mem-place/doc1#4");
        }
        awaitInMemory(index, "mem-place");
        assertThat(index.chunks("mem-place", keys)).extracting(IndexedChunk::text)
                .containsExactlyInAnyOrder("chunk 0 of doc0", "chunk 4 of doc1");
        assertThat(index.chunks("mem-place", keys)).allSatisfy(chunk -> assertThat(chunk.collection()).isEqualTo("mem-place"));
        assertThat(neo4j.chunks("mem-place", List.of())).isEmpty();
    }

    /** The store read by the copies, counting the reads of changes. */
    private static final class CountingSource implements dev.openrag.knowledge.port.CollectionVectors {
        private final dev.openrag.knowledge.port.CollectionVectors delegate;
        private final AtomicInteger changeReads = new AtomicInteger();

        CountingSource(dev.openrag.knowledge.port.CollectionVectors delegate) {
            this.delegate = delegate;
        }

        @Override
        public Version version(String collection) {
            return delegate.version(collection);
        }

        @Override
        public Changes changesSince(String collection, java.util.Map<String, String> known) {
            if (!known.isEmpty()) { // the first, whole read comes from the background load
                changeReads.incrementAndGet();
            }
            return delegate.changesSince(collection, known);
        }
    }

    /** The wrapped index, counting the searches that reach it. */
    private static final class CountingIndex implements VectorIndex {
        private final VectorIndex delegate;
        private final AtomicInteger searches = new AtomicInteger();

        CountingIndex(VectorIndex delegate) {
            this.delegate = delegate;
        }

        @Override
        public List<ScoredChunk> search(String collection, float[] queryVector, int k) {
            searches.incrementAndGet();
            return delegate.search(collection, queryVector, k);
        }

        @Override
        public List<ScoredChunk> searchWithin(String collection, float[] queryVector, int k, java.util.Set<String> documentIds) {
            searches.incrementAndGet();
            return delegate.searchWithin(collection, queryVector, k, documentIds);
        }

        @Override
        public void upsert(List<IndexedChunk> chunks) {
            delegate.upsert(chunks);
        }

        @Override
        public void replaceDocument(String collection, String documentId, List<IndexedChunk> chunks) {
            delegate.replaceDocument(collection, documentId, chunks);
        }

        @Override
        public void deleteDocument(String collection, String documentId) {
            delegate.deleteDocument(collection, documentId);
        }

        @Override
        public long countChunks(String collection) {
            return delegate.countChunks(collection);
        }
    }

    private void writeDocuments(String collection, int documents, int chunksEach) {
        for (int d = 0; d < documents; d++) {
            String documentId = "doc" + d;
            List<IndexedChunk> chunks = new ArrayList<>();
            for (int i = 0; i < chunksEach; i++) {
                chunks.add(chunk(collection, documentId, i, randomVector()));
            }
            graph.upsertDocument(collection, documentId, "Document " + d, "file:///" + documentId, "h" + d, chunks, List.of());
        }
    }

    private static IndexedChunk chunk(String collection, String documentId, int index, float[] vector) {
        return new IndexedChunk(collection, documentId, collection + "/" + documentId + "#" + index, index, null, null, List.of(),
                "chunk " + index + " of " + documentId, "context of " + documentId, vector);
    }

    private float[] randomVector() {
        return new float[] {(float) random.nextGaussian(), (float) random.nextGaussian(), (float) random.nextGaussian(),
                (float) random.nextGaussian()};
    }
}
