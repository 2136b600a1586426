package dev.openrag.memory.neo4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.neo4j.driver.Driver;

import dev.openrag.knowledge.port.Correction;
import dev.openrag.memory.Memory;
import dev.openrag.memory.MemoryEmbeddings;
import dev.openrag.memory.MemoryHit;
import dev.openrag.memory.MemoryQuery;
import dev.openrag.memory.TimeExpressions;
import dev.openrag.memory.neo4j.Neo4jMemoryStore.SearchTuning;

/**
 * The in-memory copies of memory scopes on real Neo4j: a current copy ranks exactly as Neo4j does
 * under every filter, and a write through another store instance (another mcp-memory) is seen by
 * the very next search, because every write gives the scope a new version.
 */
@ExtendWith(MemoryNeo4j.class)
class MemoryScopeCopiesTest {

    private static final int DIMENSIONS = MemoryNeo4j.DIMENSIONS;
    private static final long NOW = 1_000_000;

    /** The lists alone: no feedback list, speaker focus or episodes. */
    private static final SearchTuning NO_FEEDBACK = new SearchTuning(SearchTuning.DEFAULT.rrfK(), 0, 0, 1, false, 0);

    private static Driver driver;

    @BeforeAll
    static void connect(Driver shared) {
        driver = shared;
    }

    @Test
    void aCurrentCopyRanksAsNeo4jDoesUnderEveryFilter() {
        // the default settings, feedback list included: a scope Neo4j scans exactly is read for a search without a copy
        Neo4jMemoryStore copied = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000, SearchTuning.DEFAULT);
        Neo4jMemoryStore neo4jOnly = Neo4jMemoryStore.readingEachSearch(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000, SearchTuning.DEFAULT);
        String scope = "copies-" + System.nanoTime();
        String conversation = copied.createConversation(scope, "planning", NOW).id();
        Random random = new Random(7);
        for (int i = 0; i < 60; i++) {
            Long expiresAt = i % 13 == 5 ? Long.valueOf(NOW - 1) : i % 13 == 6 ? Long.valueOf(NOW + 1) : null;
            copied.add(new Memory(scope + "-" + i, scope, "note " + i + (i % 2 == 0 ? " about the garden" : " about the boat"), List.of(),
                    false, i, i, expiresAt, null, i % 7 == 3 ? conversation : null, List.of(), List.of(), 1000L * i,
                    i % 3 == 0 ? "Ada" : "Bo"), randomVector(random));
        }
        for (int i = 0; i < 60; i += 11) {
            copied.setForgotten(scope + "-" + i, NOW - 10);
        }
        for (int i = 17; i < 60; i += 17) {
            copied.link(scope + "-" + i, scope + "-" + (i - 1), Memory.SUPERSEDES);
        }
        awaitTrue(() -> copied.servesFromMemory(scope), "the scope is copied into memory");

        for (int q = 0; q < 5; q++) {
            float[] vector = randomVector(random);
            List<MemoryQuery> queries = List.of(
                    new MemoryQuery(scope, null, vector, 10, null, 0, false, null, null, null, NOW),
                    new MemoryQuery(scope, null, vector, 10, null, 0, true, null, null, null, NOW),
                    new MemoryQuery(scope, null, vector, 10, null, 0, false, "Ada", null, null, NOW),
                    new MemoryQuery(scope, null, vector, 10, null, 0, false, null, 10_000L, 40_000L, NOW),
                    new MemoryQuery(scope, null, vector, 10, conversation, 0.3, false, null, null, null, NOW),
                    new MemoryQuery(scope, null, vector, 10, null, 0, false, null, null, null, NOW, MemoryQuery.VECTOR, null, 16_500L, false),
                    // "qqq" is in no memory: no BM25 list, so the period's list is the vector lists' copy against Neo4j
                    new MemoryQuery(scope, "qqq", vector, 10, null, 0, false, null, null, null, NOW, MemoryQuery.HYBRID,
                            new TimeExpressions.Window(20_000, 50_000), null, false));
            for (MemoryQuery query : queries) {
                List<MemoryHit> fromMemory = copied.search(query);
                List<MemoryHit> fromNeo4j = neo4jOnly.search(query);
                assertThat(ids(fromMemory)).as("%s", query).isEqualTo(ids(fromNeo4j)).isNotEmpty();
                for (int i = 0; i < fromMemory.size(); i++) {
                    assertThat(fromMemory.get(i).score()).isCloseTo(fromNeo4j.get(i).score(), within(1e-5));
                    assertThat(fromMemory.get(i).ranks()).isEqualTo(fromNeo4j.get(i).ranks());
                    assertThat(fromMemory.get(i).adjusted()).isEqualTo(fromNeo4j.get(i).adjusted());
                }
            }
        }
        assertThat(copied.servesFromMemory(scope)).as("searching does not change the scope's version").isTrue();
    }

    @Test
    void anAddsCheckTakesTheVectorsOfTheMemoriesASearchFoundFromTheCopyWithoutARead() {
        Neo4jMemoryStore copied = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000, SearchTuning.DEFAULT);
        Neo4jMemoryStore other = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000, SearchTuning.DEFAULT);
        Neo4jMemoryStore uncopied = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 0, SearchTuning.DEFAULT);
        String scope = "vectors-" + System.nanoTime();
        Random random = new Random(11);
        List<String> ids = new ArrayList<>();
        List<float[]> firsts = new ArrayList<>();
        List<float[]> seconds = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ids.add(scope + "-" + i);
            firsts.add(randomVector(random));
            seconds.add(randomVector(random));
            copied.add(plain(scope, String.valueOf(i)), firsts.get(i), seconds.get(i));
        }
        awaitTrue(() -> copied.servesFromMemory(scope), "the scope is copied into memory");
        List<String> found = ids(copied.search(MemoryQuery.byVector(scope, firsts.get(2), 3, null, 0, false, NOW)));
        assertThat(found).hasSize(3).contains(ids.get(2));

        long reads = copied.vectorReads();
        var held = copied.vectors(scope, found);
        assertThat(copied.vectorReads()).as("no read of Neo4j for what the copy holds").isEqualTo(reads);
        assertThat(held).containsOnlyKeys(found);
        for (String id : found) {
            int i = ids.indexOf(id);
            assertThat(cosine(held.get(id).first(), firsts.get(i))).isCloseTo(1, within(1e-5));
            assertThat(cosine(held.get(id).second(), seconds.get(i))).isCloseTo(1, within(1e-5));
        }
        // control: without a copy the same vectors are read from Neo4j
        long uncopiedReads = uncopied.vectorReads();
        var read = uncopied.vectors(scope, found);
        assertThat(uncopied.vectorReads()).isEqualTo(uncopiedReads + 1);
        assertThat(read).containsOnlyKeys(found);
        assertThat(cosine(read.get(ids.get(2)).second(), seconds.get(2))).isCloseTo(1, within(1e-5));

        // another instance gives a memory a new text and vectors: the next search brings the copy to them, still without a read
        float[] newFirst = randomVector(random);
        float[] newSecond = randomVector(random);
        other.update(ids.get(2), "a new text", newFirst, newSecond, null, NOW);
        copied.search(MemoryQuery.byVector(scope, newFirst, 3, null, 0, false, NOW));
        reads = copied.vectorReads();
        var followed = copied.vectors(scope, List.of(ids.get(2)));
        assertThat(copied.vectorReads()).isEqualTo(reads);
        assertThat(cosine(followed.get(ids.get(2)).first(), newFirst)).isCloseTo(1, within(1e-5));
        assertThat(cosine(followed.get(ids.get(2)).second(), newSecond)).isCloseTo(1, within(1e-5));
        assertThat(copied.vectors(scope, List.of("no-such-memory"))).isEmpty();
    }

    private static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int d = 0; d < a.length; d++) {
            dot += a[d] * b[d];
            na += a[d] * a[d];
            nb += b[d] * b[d];
        }
        return dot / Math.sqrt(na * nb);
    }

    @Test
    void bm25CountsTheScopesWordsAloneWithOrWithoutACopy() {
        Neo4jMemoryStore copied = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000);
        Neo4jMemoryStore neo4jOnly = Neo4jMemoryStore.readingEachSearch(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000, SearchTuning.DEFAULT);
        // control: past the exact-scan limit and without a copy, Neo4j's fulltext index answers, with its statistics over every scope
        Neo4jMemoryStore indexOnly = new Neo4jMemoryStore(driver, 1, 0);
        long run = System.nanoTime();
        String scope = "words-" + run;
        String crowd = "crowd-" + run;
        // another scope says "zephyr" all the time: across the whole index the word is common
        List<Memory> crowded = new ArrayList<>();
        List<float[]> vectors = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            crowded.add(plain(crowd, "z" + i));
            vectors.add(new float[] {0, 0, 1, 0});
        }
        copied.addAll(crowded.stream().map(m -> new Memory(m.id(), crowd, "zephyr again " + m.id(), List.of(), false, 1, 1, null, null,
                null, List.of(), List.of())).toList(), vectors);
        // in this scope both words are said once; the shorter memory says more per word
        copied.add(new Memory(scope + "-wind", scope, "a zephyr blew", List.of(), false, 1, 1, null, null, null, List.of(), List.of()),
                new float[] {0, 1, 0, 0});
        copied.add(new Memory(scope + "-bed", scope, "we planted the long garden bed by the old shed", List.of(), false, 1, 1, null,
                null, null, List.of(), List.of()), new float[] {0, 0, 0, 1});
        awaitTrue(() -> copied.servesFromMemory(scope), "the scope is copied into memory");

        MemoryQuery query = new MemoryQuery(scope, "zephyr garden", new float[] {1, 0, 0, 0}, 2, null, 0, false, null, null, null, NOW,
                MemoryQuery.BM25, null, null, false);
        assertThat(ids(copied.search(query))).as("the scope's own statistics").containsExactly(scope + "-wind", scope + "-bed");
        assertThat(ids(neo4jOnly.search(query))).as("without a copy, the same (the scope is read for the search)")
                .containsExactly(scope + "-wind", scope + "-bed");
        assertThat(ids(indexOnly.search(query))).as("the index's, over every scope").containsExactly(scope + "-bed", scope + "-wind");
    }

    @Test
    void feedbackFindsAMemorySharingWordsWithTheFirstHitsAndNoneWithTheQuestion() {
        Neo4jMemoryStore store = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000);
        Neo4jMemoryStore withoutFeedback = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000, NO_FEEDBACK);
        String scope = "feedback-" + System.nanoTime();
        for (int i = 1; i <= 20; i++) { // nearer to the question than either trip, and about something else
            store.add(new Memory(scope + "-pizza" + i, scope, "pizza night number " + i, List.of(), false, 1, 1, null, null, null,
                    List.of(), List.of()), new float[] {1, 0.05f * i, 0, 0});
        }
        store.add(new Memory(scope + "-seattle", scope, "John visited Seattle: the harbour ferry was lovely", List.of(), false, 1, 1,
                null, null, null, List.of(), List.of()), new float[] {0, 1, 0, 0});
        store.add(new Memory(scope + "-chicago", scope, "the harbour ferry in Chicago was lovely too", List.of(), false, 1, 1, null,
                null, null, List.of(), List.of()), new float[] {0, 0, 0, 1});
        awaitTrue(() -> store.servesFromMemory(scope) && withoutFeedback.servesFromMemory(scope), "the scope is copied into memory");
        MemoryQuery query = new MemoryQuery(scope, "which cities has John visited", new float[] {1, 0, 0, 0}, 10, null, 0, false,
                null, null, null, NOW);

        List<MemoryHit> hits = store.search(query);
        assertThat(ids(hits)).as("the other trip, found through the first trip's words").contains(scope + "-chicago");
        assertThat(hits.get(ids(hits).indexOf(scope + "-chicago")).ranks()).containsKey("feedback").doesNotContainKey("bm25");
        assertThat(ids(withoutFeedback.search(query))).as("vectors rank it last, BM25 not at all").doesNotContain(scope + "-chicago");
        List<MemoryHit> noWordFound = store.search(new MemoryQuery(scope, "qqq zzz", new float[] {1, 0, 0, 0}, 10, null, 0, false,
                null, null, null, NOW));
        assertThat(noWordFound).as("nothing found by words: nothing to expand").isNotEmpty()
                .allSatisfy(hit -> assertThat(hit.ranks()).doesNotContainKey("feedback"));
    }

    @Test
    void theSecondModelsVectorsAreAListOfTheirOwnWhileEveryMemoryOfTheScopeHasOne() {
        Neo4jMemoryStore store = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000, NO_FEEDBACK);
        String scope = "second-" + System.nanoTime();
        // the first model finds "alpha" nearest, the second "beta"; the second model's vectors have a size of their own
        store.add(plain(scope, "alpha"), new float[] {1, 0, 0, 0}, new float[] {0, 1, 0});
        store.add(plain(scope, "beta"), new float[] {0, 1, 0, 0}, new float[] {1, 0, 0});
        store.add(plain(scope, "gamma"), new float[] {0, 0, 1, 0}, new float[] {0, 0, 1});
        awaitTrue(() -> store.servesFromMemory(scope), "the scope is copied into memory");
        MemoryQuery question = new MemoryQuery(scope, "memory", new float[] {1, 0, 0, 0}, 10, null, 0, false, null, null, null, NOW,
                MemoryQuery.HYBRID, null, null, false, new float[] {1, 0, 0});

        List<MemoryHit> hits = store.search(question);
        assertThat(hit(hits, scope + "-beta").ranks()).containsEntry(Neo4jMemoryStore.SECOND_VECTOR_LIST, 1).containsEntry("vector", 2);
        assertThat(hit(hits, scope + "-alpha").ranks()).containsEntry("vector", 1).containsEntry(Neo4jMemoryStore.SECOND_VECTOR_LIST, 2);
        assertThat(store.search(query(scope, "memory", new float[] {1, 0, 0, 0})))
                .as("a question without the second vector: no such list").isNotEmpty()
                .allSatisfy(hit -> assertThat(hit.ranks()).doesNotContainKey(Neo4jMemoryStore.SECOND_VECTOR_LIST));
        String conversation = store.createConversation(scope, "chat", NOW).id();
        assertThat(store.search(new MemoryQuery(scope, "memory", new float[] {1, 0, 0, 0}, 10, conversation, 0.1, false, null, null,
                null, NOW, MemoryQuery.HYBRID, null, null, false, new float[] {1, 0, 0})))
                .as("beside a conversation's messages, which the second model does not embed: no such list").isNotEmpty()
                .allSatisfy(hit -> assertThat(hit.ranks()).doesNotContainKey(Neo4jMemoryStore.SECOND_VECTOR_LIST));
        awaitTrue(() -> store.servesFromMemory(scope), "the copy catches up");

        // a new text without a second vector (the model turned off) drops the old one, which described the old text
        store.update(scope + "-alpha", "alpha rewritten", new float[] {1, 0, 0, 0}, null, null, NOW);
        awaitTrue(() -> store.servesFromMemory(scope), "the copy catches up");
        assertThat(store.search(question)).as("a memory without a second vector: the list would leave it out, so none")
                .isNotEmpty().allSatisfy(hit -> assertThat(hit.ranks()).doesNotContainKey(Neo4jMemoryStore.SECOND_VECTOR_LIST));
        assertThat(store.get(scope + "-alpha").orElseThrow().text()).isEqualTo("alpha rewritten");
    }

    @Test
    void anAddThroughThisStoreReachesItsCopyAtOnceAsReadingTheScopeAgainWould() {
        Neo4jMemoryStore store = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000, SearchTuning.DEFAULT);
        String scope = "appended-" + System.nanoTime();
        Random random = new Random(11);
        for (int i = 0; i < 30; i++) {
            store.add(note(scope, i), randomVector(random), secondVector(random));
        }
        awaitTrue(() -> store.servesFromMemory(scope), "the scope is copied into memory");

        for (int round = 0; round < 3; round++) { // an agent that remembers and recalls in turn
            store.add(said(scope, "new" + round, "Ada built a garden shed, part " + round, "Ada"), randomVector(random), secondVector(random));
            assertThat(store.servesFromMemory(scope)).as("round %d: the search right after the add uses the copy", round).isTrue();
        }
        store.add(said(scope, "twice-a", "the boat needs a new sail", "Bo"), randomVector(random), secondVector(random));
        store.add(new Memory(scope + "-twice-b", scope, "the garden gate is broken", List.of(), false, 1, 1, NOW + 60_000, null, null,
                List.of(), List.of(), 5L, null), randomVector(random), secondVector(random));
        assertThat(store.servesFromMemory(scope)).as("two adds before a search").isTrue();

        Neo4jMemoryStore afresh = readAfresh(scope);
        for (int i = 0; i < 5; i++) {
            MemoryQuery question = new MemoryQuery(scope, i % 2 == 0 ? "What did Ada build in the garden?" : "boat sail", randomVector(random),
                    50, null, 0, false, null, null, null, NOW, MemoryQuery.HYBRID, null, null, false, secondVector(random));
            List<MemoryHit> hits = store.search(question);
            assertThat(scored(hits)).as("question %d", i).isEqualTo(scored(afresh.search(question)));
            assertThat(ids(hits)).contains(scope + "-new0", scope + "-new2", scope + "-twice-a", scope + "-twice-b");
        }

        // another instance's add in between breaks the chain of this store's own: the copy reads what was written since
        Neo4jMemoryStore other = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 0, SearchTuning.DEFAULT);
        other.add(said(scope, "elsewhere", "written by another instance", "Bo"), randomVector(random), secondVector(random));
        store.add(said(scope, "after", "written here after it", "Ada"), randomVector(random), secondVector(random));
        assertThat(store.servesFromMemory(scope)).as("another instance wrote in between").isTrue();
        assertThat(ids(store.search(MemoryQuery.byVector(scope, randomVector(random), 50, null, 0, false, NOW))))
                .contains(scope + "-elsewhere", scope + "-after");
        // forgets, a restore, a supersession and a correction through this store reach the copy too, as reading the
        // scope again would
        store.setForgotten(scope + "-new1", NOW - 1);
        store.setForgotten(scope + "-m4", NOW - 1);
        store.setForgotten(scope + "-m4", null);
        store.link(scope + "-after", scope + "-m5", Memory.SUPERSEDES);
        store.correct(new Correction("fix-" + scope, scope, "that was wrong", null, null, scope + "-m7", NOW - 1, null),
                randomVector(random));
        assertThat(store.servesFromMemory(scope)).as("forgets, a supersession and a correction").isTrue();
        Neo4jMemoryStore again = readAfresh(scope);
        float[] vector = randomVector(random);
        for (MemoryQuery question : List.of(MemoryQuery.byVector(scope, vector, 50, null, 0, false, NOW),
                MemoryQuery.byVector(scope, vector, 50, null, 0, true, NOW),
                new MemoryQuery(scope, "garden", vector, 50, null, 0, false, null, null, null, NOW, MemoryQuery.HYBRID, null, null, false,
                        secondVector(random)))) {
            List<MemoryHit> hits = store.search(question);
            assertThat(scored(hits)).as("%s", question).isEqualTo(scored(again.search(question)));
        }
        assertThat(ids(store.search(MemoryQuery.byVector(scope, vector, 50, null, 0, false, NOW))))
                .as("forgotten, superseded and corrected").doesNotContain(scope + "-new1", scope + "-m5", scope + "-m7")
                .contains(scope + "-m4");

        // a new text, new tags alone and a delete through this store reach the copy too
        store.update(scope + "-m6", "the garden shed was painted blue", randomVector(random), secondVector(random), null, NOW);
        store.update(scope + "-m9", null, null, null, List.of("tagged"), NOW);
        assertThat(store.delete(scope + "-m8")).isTrue();
        assertThat(store.delete(scope + "-m8")).as("deleted already").isFalse();
        assertThat(store.servesFromMemory(scope)).as("updates and a delete").isTrue();
        Neo4jMemoryStore afterEdits = readAfresh(scope);
        MemoryQuery painted = new MemoryQuery(scope, "painted blue garden", randomVector(random), 50, null, 0, false, null, null, null,
                NOW, MemoryQuery.HYBRID, null, null, false, secondVector(random));
        List<MemoryHit> hits = store.search(painted);
        assertThat(scored(hits)).isEqualTo(scored(afterEdits.search(painted)));
        assertThat(ids(hits).get(0)).as("found by its new words").isEqualTo(scope + "-m6");
        assertThat(ids(hits)).doesNotContain(scope + "-m8");
    }

    @Test
    void aBatchAddedThroughThisStoreReachesItsCopyAtOnceAsReadingTheScopeAgainWould() {
        Neo4jMemoryStore store = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000, SearchTuning.DEFAULT);
        String scope = "batched-" + System.nanoTime();
        Random random = new Random(12);
        List<Memory> first = notes(scope, 20);
        addAll(store, first, random, i -> i == 0 ? null : "the turn before " + i); // the scope's copy has words in context
        awaitTrue(() -> store.servesFromMemory(scope), "the scope is copied into memory");

        for (int round = 0; round < 3; round++) { // an import in batches while an agent searches
            int part = round;
            List<Memory> batch = List.of(said(scope, "shed" + round, "Ada built a garden shed, part " + round, "Ada"),
                    said(scope, "sail" + round, "the boat got sail number " + round, "Bo"),
                    new Memory(scope + "-late" + round, scope, "the garden gate broke, part " + round, List.of(), false, 1, 1, null, null,
                            null, List.of(), List.of(), NOW + 60_000L * round, null));
            assertThat(addAll(store, batch, random, i -> i == 1 ? "a storm tore it in part " + part : null))
                    .as("round %d", round).hasSize(3);
            assertThat(store.servesFromMemory(scope)).as("round %d: the search right after the batch uses the copy", round).isTrue();
        }
        addAll(store, first, random, i -> null);
        assertThat(store.servesFromMemory(scope)).as("a batch sent again adds nothing and keeps the copy current").isTrue();

        Neo4jMemoryStore afresh = readAfresh(scope);
        for (int i = 0; i < 5; i++) {
            MemoryQuery question = new MemoryQuery(scope, i % 2 == 0 ? "What did Ada build in the garden?" : "the storm",
                    randomVector(random), 50, null, 0, false, null, null, null, NOW, MemoryQuery.HYBRID, null, null, false,
                    secondVector(random));
            List<MemoryHit> hits = store.search(question);
            assertThat(scored(hits)).as("question %d", i).isEqualTo(scored(afresh.search(question)));
            assertThat(ids(hits)).contains(scope + "-shed0", scope + "-sail1", scope + "-late2");
        }

        // a batch that supersedes a memory (one of its own too) ends that memory's validity in the copy as well
        Memory correction = new Memory(scope + "-fix", scope, "the shed was built by Bo", List.of(), false, 1, 1, null, null, null,
                List.of(), List.of(new Memory.Link(Memory.SUPERSEDES, scope + "-shed0")), 2L, "Bo");
        Memory draft = said(scope, "draft", "the shed is red", "Bo");
        Memory redone = new Memory(scope + "-redone", scope, "the shed is green", List.of(), false, 1, 1, null, null, null,
                List.of(), List.of(new Memory.Link(Memory.SUPERSEDES, scope + "-draft")), 3L, "Bo");
        addAll(store, List.of(correction, draft, redone), random, i -> null);
        assertThat(store.servesFromMemory(scope)).as("a batch with supersessions").isTrue();
        Neo4jMemoryStore again = readAfresh(scope);
        for (Long asOf : java.util.Arrays.asList(null, 1L, 2L)) {
            MemoryQuery question = new MemoryQuery(scope, "who built the shed", randomVector(random), 50, null, 0, false, null, null, null,
                    NOW, MemoryQuery.HYBRID, null, asOf, false, secondVector(random));
            List<MemoryHit> hits = store.search(question);
            assertThat(scored(hits)).as("as of %s", asOf).isEqualTo(scored(again.search(question)));
            assertThat(ids(hits).contains(scope + "-shed0")).as("as of %s: the memory superseded at 2", asOf)
                    .isEqualTo(Long.valueOf(1).equals(asOf));
        }

        // a new text of a memory with a context, and deletes (m0 had no context), reach the copy too
        store.update(scope + "-m3", "a hurricane flattened the greenhouse", randomVector(random), secondVector(random), null, NOW);
        assertThat(store.delete(scope + "-m0")).isTrue();
        assertThat(store.delete(scope + "-sail1")).isTrue();
        assertThat(store.servesFromMemory(scope)).as("an update and deletes").isTrue();
        Neo4jMemoryStore afterEdits = readAfresh(scope);
        for (String words : List.of("hurricane greenhouse", "the turn before 3", "the storm")) {
            MemoryQuery question = new MemoryQuery(scope, words, randomVector(random), 50, null, 0, false, null, null, null, NOW,
                    MemoryQuery.HYBRID, null, null, false, secondVector(random));
            List<MemoryHit> hits = store.search(question);
            assertThat(scored(hits)).as(words).isEqualTo(scored(afterEdits.search(question)));
            assertThat(ids(hits)).as(words).doesNotContain(scope + "-m0", scope + "-sail1");
        }
    }

    @Test
    void anotherInstancesWritesReachTheCopyAtOnceAsReadingTheScopeAgainWould() {
        Neo4jMemoryStore searching = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000, SearchTuning.DEFAULT);
        Neo4jMemoryStore writing = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 0, SearchTuning.DEFAULT); // no copies
        String scope = "elsewhere-" + System.nanoTime();
        Random random = new Random(14);
        List<Memory> first = notes(scope, 20);
        addAll(writing, first, random, i -> i == 0 ? null : "the turn before " + i);
        writing.add(expiring(scope, "brief", "a brief note about the garden", 5), randomVector(random), secondVector(random));
        awaitTrue(() -> searching.servesFromMemory(scope), "the scope is copied into memory");

        // each write through the other instance, and the copy current right after it (no read of the whole scope: the
        // throttle would not allow one this soon)
        List<Runnable> writes = List.of(
                () -> writing.add(said(scope, "shed", "Ada built a garden shed", "Ada"), randomVector(random), secondVector(random)),
                () -> addAll(writing, List.of(said(scope, "sail", "the boat got a new sail", "Bo"),
                        new Memory(scope + "-fix", scope, "the shed was built by Bo", List.of(), false, 1, 1, null, null, null,
                                List.of(), List.of(new Memory.Link(Memory.SUPERSEDES, scope + "-shed")), 2L, "Bo")),
                        random, i -> i == 0 ? "a storm tore the old one" : null),
                () -> writing.setForgotten(scope + "-m4", NOW - 1),
                () -> writing.setForgotten(scope + "-m4", null),
                () -> writing.setForgotten(scope + "-m5", NOW - 1),
                () -> writing.link(scope + "-m6", scope + "-m7", Memory.SUPERSEDES),
                () -> writing.correct(new Correction("fix-" + scope, scope, "that was wrong", null, null, scope + "-m8", NOW - 1,
                        null), randomVector(random)),
                () -> writing.update(scope + "-m3", "a hurricane flattened the greenhouse", randomVector(random), secondVector(random),
                        null, NOW),
                () -> writing.update(scope + "-m9", null, null, null, List.of("tagged"), NOW),
                () -> assertThat(writing.delete(scope + "-m11")).isTrue(),
                () -> { // deleted and added again under its id, between two searches
                    assertThat(writing.delete(scope + "-m12")).isTrue();
                    writing.add(said(scope, "m12", "the garden again, under its old id", "Ada"), randomVector(random), secondVector(random));
                },
                () -> assertThat(writing.sweep(5, 0)).as("swept").isPositive());
        for (int i = 0; i < writes.size(); i++) {
            writes.get(i).run();
            assertThat(searching.servesFromMemory(scope)).as("right after write %d", i).isTrue();
        }
        Neo4jMemoryStore afresh = readAfresh(scope);
        float[] vector = randomVector(random);
        List<MemoryQuery> questions = new ArrayList<>(List.of(MemoryQuery.byVector(scope, vector, 50, null, 0, false, NOW),
                MemoryQuery.byVector(scope, vector, 50, null, 0, true, NOW)));
        for (String words : List.of("who built the garden shed", "hurricane greenhouse", "the storm", "the turn before 3")) {
            for (Long asOf : java.util.Arrays.asList(null, 1L)) {
                questions.add(new MemoryQuery(scope, words, randomVector(random), 50, null, 0, false, null, null, null, NOW,
                        MemoryQuery.HYBRID, null, asOf, false, secondVector(random)));
            }
        }
        for (MemoryQuery question : questions) {
            List<MemoryHit> hits = searching.search(question);
            assertThat(scored(hits)).as("%s", question).isEqualTo(scored(afresh.search(question)));
        }
        List<String> now = ids(searching.search(questions.get(0)));
        assertThat(now).as("new, restored, added again; superseded, forgotten, corrected, deleted")
                .contains(scope + "-sail", scope + "-fix", scope + "-m4", scope + "-m12")
                .doesNotContain(scope + "-shed", scope + "-m5", scope + "-m7", scope + "-m8", scope + "-m11");
        assertThat(ids(searching.search(questions.get(1)))).as("swept, forgotten included").doesNotContain(scope + "-brief")
                .contains(scope + "-m5");
        assertThat(hit(searching.search(questions.get(4)), scope + "-m3").ranks()).as("found by its new words")
                .containsKey(Neo4jMemoryStore.CONTEXT_WORDS_LIST);

        // a write that stamps nothing (an older release's, in a rolling upgrade: here a forget in Cypher), after a write
        // that does and before one: the copy cannot read it back, so the scope is read again
        writing.add(said(scope, "before", "written before the older release's forget", "Ada"), randomVector(random), secondVector(random));
        forgetAsAnOlderReleaseWould(scope + "-fix");
        assertThat(searching.servesFromMemory(scope)).as("right after a write that stamped nothing").isFalse();
        awaitTrue(() -> searching.servesFromMemory(scope), "the scope is read again");
        assertThat(ids(searching.search(questions.get(0)))).contains(scope + "-before").doesNotContain(scope + "-fix");
        forgetAsAnOlderReleaseWould(scope + "-m10");
        writing.add(said(scope, "after", "written after the older release's forget", "Ada"), randomVector(random), secondVector(random));
        assertThat(searching.servesFromMemory(scope)).as("after a write that stamped nothing").isFalse();
        awaitTrue(() -> searching.servesFromMemory(scope), "the scope is read again");
        assertThat(ids(searching.search(questions.get(0)))).contains(scope + "-after").doesNotContain(scope + "-m10");

        // a deletion that lists nothing (an older release's) cannot be read back: the scope is read again, and nothing
        // deleted is found meanwhile
        deleteAsAnOlderReleaseWould(scope + "-sail");
        assertThat(searching.servesFromMemory(scope)).as("after a deletion that listed nothing").isFalse();
        assertThat(ids(searching.search(questions.get(0)))).doesNotContain(scope + "-sail");
        awaitTrue(() -> searching.servesFromMemory(scope), "the scope is read again");
    }

    @Test
    void deletionsElsewhereReachTheCopyWhileTheScopeStillListsThem() {
        Neo4jMemoryStore searching = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000, SearchTuning.DEFAULT);
        Neo4jMemoryStore writing = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 0, SearchTuning.DEFAULT);
        String scope = "gone-" + System.nanoTime();
        Random random = new Random(16);
        List<Memory> memories = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            memories.add(said(scope, "m" + i, "note " + i + (i % 2 == 0 ? " about the garden" : " about the boat"), "Ada"));
        }
        // sweeps to come: 300 memories at time 101, 300 at 102, 100 at 103, 501 at 104 (more than a scope lists at once)
        int[][] expiring = {{101, 300}, {102, 300}, {103, 100}, {104, 501}};
        for (int[] batch : expiring) {
            for (int i = 0; i < batch[1]; i++) {
                memories.add(expiring(scope, "e" + batch[0] + "-" + i, "brief " + i + " about the garden", batch[0]));
            }
        }
        for (int from = 0; from < memories.size(); from += 500) {
            addAll(writing, memories.subList(from, Math.min(memories.size(), from + 500)), random, i -> null);
        }
        awaitTrue(() -> searching.servesFromMemory(scope), "the scope is copied into memory");

        assertThat(writing.delete(scope + "-m1")).isTrue();
        assertThat(searching.servesFromMemory(scope)).as("after a listed deletion").isTrue();
        // two sweeps while the copy is not searched: the second pushes part of the first out of the list
        assertThat(writing.sweep(101, 0)).isGreaterThanOrEqualTo(300);
        assertThat(writing.sweep(102, 0)).isGreaterThanOrEqualTo(300);
        assertThat(searching.servesFromMemory(scope)).as("deletions since the copy no longer all listed").isFalse();
        awaitTrue(() -> searching.servesFromMemory(scope), "the scope is read again");
        // the list trimmed again, but still reaching back to the copy's state
        assertThat(writing.sweep(103, 0)).isGreaterThanOrEqualTo(100);
        assertThat(searching.servesFromMemory(scope)).as("after 100 more listed deletions").isTrue();
        assertThat(writing.sweep(104, 0)).isGreaterThanOrEqualTo(501);
        assertThat(searching.servesFromMemory(scope)).as("more deletions at once than a scope lists").isFalse();
        awaitTrue(() -> searching.servesFromMemory(scope), "the scope is read again");

        assertThat(writing.delete(scope + "-m2")).isTrue();
        assertThat(searching.servesFromMemory(scope)).as("a deletion after the reading").isTrue();
        Neo4jMemoryStore afresh = readAfresh(scope);
        MemoryQuery question = new MemoryQuery(scope, "garden boat note", randomVector(random), 50, null, 0, true, null, null, null,
                NOW, MemoryQuery.HYBRID, null, null, false, secondVector(random));
        assertThat(scored(searching.search(question))).isEqualTo(scored(afresh.search(question)));
        assertThat(ids(searching.search(question))).hasSize(18).doesNotContain(scope + "-m1", scope + "-m2");
    }

    @Test
    void updatesAndDeletesInAScopeWithoutSecondVectorsReachItsCopy() {
        Neo4jMemoryStore store = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000, SearchTuning.DEFAULT);
        Neo4jMemoryStore other = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 0, SearchTuning.DEFAULT);
        String scope = "no-second-" + System.nanoTime(); // as with the second model off
        Random random = new Random(15);
        for (int i = 0; i < 20; i++) {
            store.add(note(scope, i), randomVector(random), null);
        }
        awaitTrue(() -> store.servesFromMemory(scope), "the scope is copied into memory");
        store.update(scope + "-m3", "a hurricane flattened the greenhouse", randomVector(random), null, null, NOW);
        assertThat(store.servesFromMemory(scope)).as("after an update here").isTrue();
        assertThat(store.delete(scope + "-m4")).isTrue();
        assertThat(store.servesFromMemory(scope)).as("after a delete here").isTrue();
        other.update(scope + "-m5", "the greenhouse was rebuilt", randomVector(random), null, null, NOW);
        assertThat(store.servesFromMemory(scope)).as("after an update elsewhere").isTrue();
        // one memory with a second vector among those without: still no second list, read afresh or not
        store.update(scope + "-m6", "the greenhouse got a new roof", randomVector(random), secondVector(random), null, NOW);
        assertThat(store.servesFromMemory(scope)).as("after an update with a second vector").isTrue();

        Neo4jMemoryStore afresh = readAfresh(scope);
        for (String words : List.of("hurricane greenhouse", "garden", "What did Bo say about the boat?")) {
            MemoryQuery question = new MemoryQuery(scope, words, randomVector(random), 50, null, 0, false, null, null, null, NOW,
                    MemoryQuery.HYBRID, null, null, false, secondVector(random));
            List<MemoryHit> hits = store.search(question);
            assertThat(scored(hits)).as(words).isEqualTo(scored(afresh.search(question)));
            assertThat(ids(hits)).as(words).doesNotContain(scope + "-m4");
        }

        // the last memory without a second vector gets one: read afresh the scope has the list, which the copy cannot make
        String small = "one-without-" + System.nanoTime();
        store.add(said(small, "a", "the garden is green", "Ada"), randomVector(random), secondVector(random));
        store.add(said(small, "b", "the boat is blue", "Bo"), randomVector(random), null);
        store.add(said(small, "c", "the shed is red", "Ada"), randomVector(random), secondVector(random));
        awaitTrue(() -> store.servesFromMemory(small), "the scope is copied into memory");
        store.update(small + "-b", "the boat is white", randomVector(random), secondVector(random), null, NOW);
        assertThat(store.servesFromMemory(small)).as("the second list would exist now").isFalse();
        awaitTrue(() -> store.servesFromMemory(small), "the scope is read again");
        assertThat(store.search(new MemoryQuery(small, "boat", randomVector(random), 10, null, 0, false, null, null, null, NOW,
                MemoryQuery.HYBRID, null, null, false, secondVector(random))))
                .anySatisfy(hit -> assertThat(hit.ranks()).containsKey(Neo4jMemoryStore.SECOND_VECTOR_LIST));
    }

    @Test
    void vectorsAreReadAsBytesAndFromTheirListsWhereTheBytesAreNotCurrent() {
        Neo4jMemoryStore store = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000, SearchTuning.DEFAULT);
        String scope = "packed-" + System.nanoTime();
        Random random = new Random(17);
        List<Memory> memories = notes(scope, 12);
        addAll(store, memories.subList(0, 6), random, i -> null);
        for (Memory memory : memories.subList(6, 12)) {
            store.add(memory, randomVector(random), secondVector(random));
        }
        try (var session = driver.session()) {
            assertThat(session.run("""
                    MATCH (m:Memory {scope: $scope})
                    RETURN count(m.vectors) AS packed, count(m.secondEmbedding) AS secondLists, count(m.embedding) AS firstLists,
                           count(CASE WHEN m.vectorsOf = m.updatedAt THEN 1 END) AS current""", java.util.Map.of("scope", scope))
                    .single().asMap()).as("both vectors as bytes, the first as the list its index needs, and no second list")
                    .containsEntry("packed", 12L).containsEntry("secondLists", 0L).containsEntry("firstLists", 12L).containsEntry("current", 12L);
        }
        MemoryQuery question = new MemoryQuery(scope, "What did Ada say about the garden?", randomVector(random), 20, null, 0, false,
                null, null, null, NOW, MemoryQuery.HYBRID, null, null, false, secondVector(random));
        List<String> asWritten = scored(readAfresh(scope).search(question));
        assertThat(asWritten).isNotEmpty();

        // the same memories as a release before the bytes wrote them, with lists only: read from the lists, they rank the same
        try (var session = driver.session()) {
            for (var row : session.run("MATCH (m:Memory {scope: $scope}) RETURN m.id AS id, m.vectors AS vectors",
                    java.util.Map.of("scope", scope)).list()) {
                var bytes = java.nio.ByteBuffer.wrap(row.get("vectors").asByteArray()).order(java.nio.ByteOrder.LITTLE_ENDIAN);
                int first = bytes.getInt();
                List<Float> second = new ArrayList<>();
                for (int d = 0; bytes.hasRemaining(); d++) {
                    float value = bytes.getFloat();
                    if (d >= first) {
                        second.add(value);
                    }
                }
                session.run("MATCH (m:Memory {id: $id}) SET m.secondEmbedding = $second REMOVE m.vectors, m.vectorsOf",
                        java.util.Map.of("id", row.get("id").asString(), "second", second)).consume();
            }
        }
        assertThat(scored(readAfresh(scope).search(question))).as("read from the lists").isEqualTo(asWritten);

        // an update of one vector writes both as bytes, the other as it was
        store.update(scope + "-m1", null, new float[] {1, 0, 0, 0}, null, null, NOW);
        try (var session = driver.session()) {
            assertThat(session.run("MATCH (m:Memory {id: $id}) RETURN m.vectors IS NOT NULL AND m.vectorsOf = m.updatedAt AS current,"
                    + " m.secondEmbedding IS NULL AS noList", java.util.Map.of("id", scope + "-m1")).single().asMap())
                    .as("an update writes the bytes of a memory that had lists only").containsEntry("current", true).containsEntry("noList", true);
        }
        MemoryQuery nearM1 = new MemoryQuery(scope, "garden boat note", new float[] {1, 0, 0, 0}, 20, null, 0, false, null, null, null, NOW,
                MemoryQuery.HYBRID, null, null, false, new float[] {0, 0, 0});
        assertThat(hit(readAfresh(scope).search(nearM1), scope + "-m1").ranks()).as("its new first vector, read as bytes")
                .containsEntry("vector", 1).containsKey(Neo4jMemoryStore.SECOND_VECTOR_LIST);
    }

    @Test
    void bytesLeftBehindByAnOlderReleasesUpdateAreNotRead() {
        Neo4jMemoryStore store = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000, SearchTuning.DEFAULT);
        String scope = "stale-bytes-" + System.nanoTime();
        Random random = new Random(19);
        for (int i = 0; i < 8; i++) {
            store.add(plain(scope, "m" + i), randomVector(random), null); // as with the second model off
        }
        float[] elsewhere = randomVector(random);
        // pinning through this release keeps the bytes current; a new text through an older release, which knows only the lists, does not
        store.setPinned(scope + "-m2", true, NOW);
        store.setPinned(scope + "-m3", true, NOW + 1);
        try (var session = driver.session()) {
            session.run("""
                    MATCH (m:Memory {id: $id})
                    SET m.text = 'moved', m.embedding = $embedding, m.secondEmbedding = null, m.updatedAt = $now
                    WITH m MATCH (s:MemoryScope {scope: m.scope}) SET s.version = randomUUID()""",
                    java.util.Map.of("id", scope + "-m3", "embedding", List.of(elsewhere[0], elsewhere[1], elsewhere[2], elsewhere[3]),
                            "now", NOW + 2)).consume();
            assertThat(session.run("MATCH (m:Memory {id: $id}) RETURN m.vectorsOf = m.updatedAt AS current",
                    java.util.Map.of("id", scope + "-m2")).single().get("current").asBoolean()).as("bytes kept current by a pin").isTrue();
        }
        List<MemoryHit> hits = readAfresh(scope).search(new MemoryQuery(scope, null, elsewhere, 3, null, 0, false, null, null, null, NOW));
        assertThat(hits.get(0).id()).as("the memory's new vector, from its list").isEqualTo(scope + "-m3");
        assertThat(hits.get(0).score()).isCloseTo(1.0, within(1e-5));
    }

    @Test
    void vectorBytesThatCannotBeReadLeaveTheScopeToNeo4j() {
        Neo4jMemoryStore store = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000, SearchTuning.DEFAULT);
        String scope = "bad-bytes-" + System.nanoTime();
        Random random = new Random(23);
        for (int i = 0; i < 6; i++) {
            store.add(note(scope, i), randomVector(random), null);
        }
        float[] query = randomVector(random);
        store.add(plain(scope, "exact"), query, null);
        awaitTrue(() -> store.servesFromMemory(scope), "the scope is copied into memory");
        // another writer leaves bytes too short for their vector on a memory, stamped as a write through OpenRAG is
        try (var session = driver.session()) {
            session.run("""
                    MATCH (s:MemoryScope {scope: $scope})
                    SET s.version = randomUUID(), s.seq = s.seq + 1 SET s.stamped = s.version
                    WITH s MATCH (m:Memory {id: $id}) SET m.vectors = $junk, m.seq = s.seq""",
                    java.util.Map.of("scope", scope, "id", scope + "-m2", "junk", new byte[] {9, 0, 0, 0, 1, 2})).consume();
        }
        for (int i = 0; i < 3; i++) { // caught up, then read whole: neither can read it, so Neo4j answers
            assertThat(top(store, scope, query)).as("search %d", i).isEqualTo(scope + "-exact");
        }
        assertThat(store.servesFromMemory(scope)).isFalse();
    }

    /** A deletion as the releases before the scopes' lists of deletions wrote it: counted, not listed. */
    private static void deleteAsAnOlderReleaseWould(String id) {
        try (var session = driver.session()) {
            session.run("""
                    MATCH (m:Memory {id: $id}) WITH m, m.scope AS scope DETACH DELETE m
                    WITH scope MATCH (s:MemoryScope {scope: scope})
                    SET s.version = randomUUID(), s.seq = s.seq + 1, s.deletes = s.deletes + 1 SET s.stamped = s.version""",
                    java.util.Map.of("id", id)).consume();
        }
    }

    /** A forget as the releases before the memories' write stamps wrote it: a new scope version, no stamp. */
    private static void forgetAsAnOlderReleaseWould(String id) {
        try (var session = driver.session()) {
            session.run("""
                    MATCH (m:Memory {id: $id}) SET m.forgottenAt = $at
                    WITH m MATCH (s:MemoryScope {scope: m.scope}) SET s.version = randomUUID()""",
                    java.util.Map.of("id", id, "at", NOW - 1)).consume();
        }
    }

    @Test
    void theFirstSearchOfAScopeWaitsForItsCopyAndRanksAsTheNextOneDoes() {
        String scope = "first-" + System.nanoTime();
        Random random = new Random(13);
        List<Memory> memories = notes(scope, 30);
        // written by another instance: the searching stores below have never seen the scope
        addAll(new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 0, SearchTuning.DEFAULT), memories, random,
                i -> i == 0 ? null : "the turn before " + i);
        Neo4jMemoryStore small = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000, SearchTuning.DEFAULT);
        // a store for which the same scope is too big for Neo4j's exact scan: it waits for the copy all the same
        Neo4jMemoryStore big = new Neo4jMemoryStore(driver, 10, 10_000, SearchTuning.DEFAULT);
        // a store whose copies cannot hold the scope: it is not read for a search alone either (the budget bounds those)
        Neo4jMemoryStore overBudget = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 29, SearchTuning.DEFAULT);
        // a store that keeps no copy but could hold this one: the scope is read for each search alone, and ranks alike
        Neo4jMemoryStore readEachTime = Neo4jMemoryStore.readingEachSearch(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 30,
                SearchTuning.DEFAULT);
        // over the budget and over the exact scan: Neo4j's indexes answer
        Neo4jMemoryStore overBoth = new Neo4jMemoryStore(driver, 10, 29, SearchTuning.DEFAULT);
        MemoryQuery question = new MemoryQuery(scope, "What did Ada say about the garden?", randomVector(random), 20, null, 0, false,
                null, null, null, NOW, MemoryQuery.HYBRID, null, null, false, secondVector(random));

        List<MemoryHit> first = small.search(question);
        assertThat(first).as("the first search").isNotEmpty()
                .anySatisfy(hit -> assertThat(hit.ranks())
                        .containsKeys(Neo4jMemoryStore.SECOND_VECTOR_LIST, Neo4jMemoryStore.CONTEXT_WORDS_LIST));
        assertThat(scored(first)).as("the first search ranks as the next").isEqualTo(scored(small.search(question)));
        assertThat(scored(big.search(question))).as("a scope over the scan limit: its first search too").isEqualTo(scored(first));
        assertThat(scored(readEachTime.search(question))).as("a scope without a kept copy, read for the search").isEqualTo(scored(first));
        assertThat(readEachTime.readsForOneSearch()).isEqualTo(1);
        assertThat(overBudget.search(question)).as("a scope over the copies' budget: Neo4j's lists alone").isNotEmpty()
                .allSatisfy(hit -> assertThat(hit.ranks()).doesNotContainKey(Neo4jMemoryStore.SECOND_VECTOR_LIST));
        assertThat(overBudget.readsForOneSearch()).isZero();
        assertThat(overBoth.servesFromMemory(scope)).isFalse();
        assertThat(overBoth.search(question)).as("over the budget and the exact scan: Neo4j's lists alone").isNotEmpty()
                .allSatisfy(hit -> assertThat(hit.ranks()).doesNotContainKey(Neo4jMemoryStore.SECOND_VECTOR_LIST));
    }

    @Test
    void aSearchReadsItsScopeForItselfOnlyWithinTheCopiesBudgetAndNotAtAllWithCopiesOff() {
        String scope = "once-" + System.nanoTime();
        Random random = new Random(17);
        addAll(new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 0, SearchTuning.DEFAULT), notes(scope, 12), random,
                i -> null);
        MemoryQuery question = new MemoryQuery(scope, "What did Ada say about the garden?", randomVector(random), 5, null, 0, false,
                null, null, null, NOW, MemoryQuery.HYBRID, null, null, false, secondVector(random));
        // copies off ("0: off"): nothing is copied, not even for one search; Neo4j's lists answer
        Neo4jMemoryStore off = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 0, SearchTuning.DEFAULT);
        assertThat(off.search(question)).isNotEmpty()
                .allSatisfy(hit -> assertThat(hit.ranks()).doesNotContainKey(Neo4jMemoryStore.SECOND_VECTOR_LIST));
        assertThat(off.readsForOneSearch()).isZero();
        assertThat(off.memoriesInMemory()).isZero();
        // a budget smaller than the scope, or an exact-scan limit smaller than it: not read for the search either
        Neo4jMemoryStore small = Neo4jMemoryStore.readingEachSearch(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 11, SearchTuning.DEFAULT);
        assertThat(small.search(question)).isNotEmpty();
        assertThat(small.readsForOneSearch()).isZero();
        Neo4jMemoryStore narrow = Neo4jMemoryStore.readingEachSearch(driver, 11, 10_000, SearchTuning.DEFAULT);
        assertThat(narrow.search(question)).isNotEmpty();
        assertThat(narrow.readsForOneSearch()).isZero();
        // controls: a budget that holds the scope exactly, and a larger one, read it for each search and rank as a kept copy
        Neo4jMemoryStore exact = Neo4jMemoryStore.readingEachSearch(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 12, SearchTuning.DEFAULT);
        Neo4jMemoryStore kept = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000, SearchTuning.DEFAULT);
        List<MemoryHit> fromCopy = kept.search(question);
        assertThat(fromCopy).anySatisfy(hit -> assertThat(hit.ranks()).containsKey(Neo4jMemoryStore.SECOND_VECTOR_LIST));
        assertThat(scored(exact.search(question))).isEqualTo(scored(fromCopy));
        assertThat(scored(exact.search(question))).isEqualTo(scored(fromCopy));
        assertThat(exact.readsForOneSearch()).isEqualTo(2);
        assertThat(exact.memoriesInMemory()).as("nothing kept").isZero();
    }

    @Test
    void searchingAScopeWithoutMemoriesWritesNothing() {
        Neo4jMemoryStore store = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000, SearchTuning.DEFAULT);
        String scope = "made-up-" + System.nanoTime(); // any name a caller makes up
        for (int i = 0; i < 3; i++) {
            assertThat(store.search(query(scope, "anything at all", new float[] {1, 0, 0, 0}))).as("search %d", i).isEmpty();
        }
        try (var session = driver.session()) {
            assertThat(session.run("MATCH (s:MemoryScope {scope: $scope}) RETURN count(s) AS n", java.util.Map.of("scope", scope))
                    .single().get("n").asLong()).as("scope versions written by searches").isZero();
        }
        store.add(plain(scope, "first"), new float[] {1, 0, 0, 0});
        assertThat(ids(store.search(query(scope, "memory first", new float[] {1, 0, 0, 0})))).containsExactly(scope + "-first");
    }

    /** A store that has just read the scope afresh into its copy: what every write reaching a copy must rank as. */
    private static Neo4jMemoryStore readAfresh(String scope) {
        Neo4jMemoryStore afresh = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000, SearchTuning.DEFAULT);
        awaitTrue(() -> afresh.servesFromMemory(scope), "another store reads the scope afresh");
        return afresh;
    }

    /** Adds the memories in one batch with random vectors and the given contexts; returns the ids it added. */
    private static List<String> addAll(Neo4jMemoryStore store, List<Memory> memories, Random random,
                                       IntFunction<String> context) {
        List<String> contexts = new ArrayList<>();
        List<float[]> vectors = new ArrayList<>();
        List<float[]> seconds = new ArrayList<>();
        for (int i = 0; i < memories.size(); i++) {
            contexts.add(context.apply(i));
            vectors.add(randomVector(random));
            seconds.add(secondVector(random));
        }
        return store.addAll(memories, contexts, vectors, seconds);
    }

    /** Each hit as id and score, to compare two stores' answers. */
    private static List<String> scored(List<MemoryHit> hits) {
        return hits.stream().map(hit -> hit.id() + "@" + hit.score()).toList();
    }

    private static float[] secondVector(Random random) {
        return new float[] {(float) random.nextGaussian(), (float) random.nextGaussian(), (float) random.nextGaussian()};
    }

    @Test
    void aSearchReadsItsScopeWhileTheQuestionIsEmbeddedAndRanksAsWithTheVectorsGiven() {
        Neo4jMemoryStore store = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000);
        String scope = "later-" + System.nanoTime();
        for (int i = 0; i < 6; i++) {
            store.add(said(scope, "m" + i, "zephyr" + " word".repeat(i), i % 2 == 0 ? "Ada" : "Bo"), new float[] {1, 0.2f * i, 0, 0});
        }
        MemoryQuery asked = new MemoryQuery(scope, "What did Ada say about zephyr?", null, 5, null, 0, false, null, null, null, 2);
        float[] vector = {0.2f, 1, 0, 0};
        CompletableFuture<MemoryEmbeddings.Vectors> embedding = new CompletableFuture<>();

        CompletableFuture<List<MemoryHit>> searching = CompletableFuture.supplyAsync(() -> store.search(asked, embedding));
        awaitTrue(() -> store.copyFindings().get("read_now") == 1, "the scope is read before the question's vectors are there");
        assertThat(searching).as("the search waits for its vectors").isNotDone();
        embedding.complete(new MemoryEmbeddings.Vectors(vector, null));

        assertThat(scored(searching.join())).as("the same ranking as with the vectors given")
                .isEqualTo(scored(store.search(asked.withVectors(vector, null))))
                .hasSize(5);
        assertThatThrownBy(() -> store.search(asked, CompletableFuture.failedFuture(new IllegalStateException("no model"))))
                .as("an embedding that fails fails the search with its own error").isInstanceOf(IllegalStateException.class)
                .hasMessage("no model");
    }

    @Test
    void aQuestionNamingOneSpeakerFavoursWhatThatSpeakerSaid() {
        Neo4jMemoryStore focused = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000,
                new SearchTuning(SearchTuning.DEFAULT.rrfK(), 0, 0, 0.25, false, 0));
        Neo4jMemoryStore unfocused = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000,
                new SearchTuning(SearchTuning.DEFAULT.rrfK(), 0, 0, 1, false, 0));
        String scope = "speakers-" + System.nanoTime();
        // Bo talks about planting in the question's words; Ada's own answer shares none of them
        focused.add(said(scope, "bo-1", "we planted tomatoes in the garden", "Bo"), new float[] {1, 0, 0, 0});
        focused.add(said(scope, "bo-2", "the garden looks planted and tidy", "Bo"), new float[] {0.9f, 0.1f, 0, 0});
        focused.add(said(scope, "ada-1", "I put seeds in the soil this morning", "Ada"), new float[] {0.2f, 1, 0, 0});
        focused.add(said(scope, "note", "the shed needs paint", null), new float[] {0.5f, 0, 1, 0});
        awaitTrue(() -> focused.servesFromMemory(scope) && unfocused.servesFromMemory(scope), "the scope is copied into memory");
        float[] vector = {1, 0, 0, 0};

        List<MemoryHit> plain = unfocused.search(query(scope, "What did Ada plant in the garden?", vector));
        List<MemoryHit> favoured = focused.search(query(scope, "What did Ada plant in the garden?", vector));

        assertThat(ids(plain).get(0)).as("without focus, Bo's words win").isEqualTo(scope + "-bo-1");
        assertThat(ids(favoured).get(0)).as("what the named speaker said comes first").isEqualTo(scope + "-ada-1");
        assertThat(score(favoured, scope + "-bo-1")).as("another speaker's memory keeps a quarter of its score")
                .isCloseTo(score(plain, scope + "-bo-1") * 0.25, within(1e-9));
        assertThat(score(favoured, scope + "-note")).as("a memory without a speaker keeps its score")
                .isCloseTo(score(plain, scope + "-note"), within(1e-9));
        assertThat(hit(favoured, scope + "-bo-1").adjusted()).as("the weighing shows in the hit").containsExactly(entry("otherSpeaker", 0.25));
        assertThat(hit(favoured, scope + "-ada-1").adjusted()).as("the named speaker's memory is not weighed").isNull();
        assertThat(hit(plain, scope + "-bo-1").adjusted()).isNull();
        // without the scope's copy (none may be held), who said what is read from Neo4j for the fused memories
        Neo4jMemoryStore uncopiedFocused = Neo4jMemoryStore.readingEachSearch(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000,
                new SearchTuning(SearchTuning.DEFAULT.rrfK(), 0, 0, 0.25, false, 0));
        Neo4jMemoryStore uncopiedPlain = Neo4jMemoryStore.readingEachSearch(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000,
                new SearchTuning(SearchTuning.DEFAULT.rrfK(), 0, 0, 1, false, 0));
        List<MemoryHit> fromNeo4j = uncopiedFocused.search(query(scope, "What did Ada plant in the garden?", vector));
        assertThat(score(fromNeo4j, scope + "-bo-1")).as("the same weighing without the scope's copy")
                .isCloseTo(score(uncopiedPlain.search(query(scope, "What did Ada plant in the garden?", vector)), scope + "-bo-1") * 0.25,
                        within(1e-9));
        assertThat(hit(fromNeo4j, scope + "-bo-1").adjusted()).containsExactly(entry("otherSpeaker", 0.25));
        assertThat(hit(fromNeo4j, scope + "-note").adjusted()).isNull();
        assertThat(ids(focused.search(query(scope, "What did Ada and Bo plant in the garden?", vector))))
                .as("a question naming both speakers favours neither")
                .isEqualTo(ids(unfocused.search(query(scope, "What did Ada and Bo plant in the garden?", vector))));
        List<MemoryHit> forBo = focused.search(query(scope, "What did Ada plant in the garden for Bo?", vector));
        assertThat(ids(forBo).get(0)).as("a question naming both apart is about the first it names").isEqualTo(scope + "-ada-1");
        assertThat(hit(forBo, scope + "-bo-1").adjusted()).containsExactly(entry("otherSpeaker", 0.25));
        List<MemoryHit> toAda = focused.search(query(scope, "What did Bo tell Ada he planted in the garden?", vector));
        assertThat(hit(toAda, scope + "-ada-1").adjusted()).as("the first named is the other one here").containsExactly(entry("otherSpeaker", 0.25));
        assertThat(hit(toAda, scope + "-bo-1").adjusted()).isNull();
        assertThatThrownBy(() -> new SearchTuning(3, 0, 0, 1.5, false, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 0 and 1");
    }

    @Test
    void aMemoryRisesWithTheStrongHitsOfItsDay() {
        long day = 86_400_000L;
        Neo4jMemoryStore episodes = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000,
                new SearchTuning(SearchTuning.DEFAULT.rrfK(), 0, 0, 1, false, 0.5));
        Neo4jMemoryStore plain = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000,
                new SearchTuning(SearchTuning.DEFAULT.rrfK(), 0, 0, 1, false, 0));
        String scope = "episodes-" + System.nanoTime();
        // the trail is the same day's hike, in other words; the pasta, another day, is nearer the question
        episodes.add(happened(scope, "hike", "we went hiking at the lake", 20 * day + 3_600_000), new float[] {1, 0, 0, 0});
        episodes.add(happened(scope, "trail", "the trail was long and steep", 20 * day + 7_200_000), new float[] {0, 0, 1, 0});
        episodes.add(happened(scope, "pasta", "I cooked pasta", 21 * day), new float[] {0.3f, 0, 0, 1});
        awaitTrue(() -> episodes.servesFromMemory(scope) && plain.servesFromMemory(scope), "the scope is copied into memory");
        MemoryQuery question = query(scope, "Where did we go hiking?", new float[] {1, 0, 0, 0});

        assertThat(ids(plain.search(question))).containsExactly(scope + "-hike", scope + "-pasta", scope + "-trail");
        List<MemoryHit> lifted = episodes.search(question);
        assertThat(ids(lifted)).as("the hike's day lends the trail its weight").containsExactly(scope + "-hike", scope + "-trail",
                scope + "-pasta");
        // 1/(3+1) twice for the hike: the best; its day sums the hike and the trail's 1/(3+3)
        assertThat(lifted.get(0).score()).isCloseTo(1 + 0.5, within(1e-9));
        assertThat(lifted.get(1).score()).isCloseTo((1.0 / 6) / 0.5 + 0.5, within(1e-9));
        assertThat(lifted.get(1).adjusted()).as("the lift shows in the hit").containsOnlyKeys("episode");
        assertThat(lifted.get(1).adjusted().get("episode")).isCloseTo(0.5, within(1e-9));
        assertThat(lifted.get(2).adjusted().get("episode")).as("the pasta's day has only the pasta")
                .isCloseTo(0.5 * (1.0 / 5) / (1.0 / 2 + 1.0 / 6), within(1e-9));
        Neo4jMemoryStore uncopied = Neo4jMemoryStore.readingEachSearch(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000,
                new SearchTuning(SearchTuning.DEFAULT.rrfK(), 0, 0, 1, false, 0.5));
        List<MemoryHit> liftedFromNeo4j = uncopied.search(question);
        assertThat(ids(liftedFromNeo4j)).as("without the scope's copy, when each memory happened is read from Neo4j")
                .isEqualTo(ids(lifted));
        assertThat(liftedFromNeo4j.get(1).score()).isCloseTo(lifted.get(1).score(), within(1e-9));
        assertThatThrownBy(() -> new SearchTuning(3, 0, 0, 1, false, 11)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("episode weight");
    }

    private static Memory happened(String scope, String id, String text, long occurredAt) {
        return new Memory(scope + "-" + id, scope, text, List.of(), false, 1, 1, null, null, null, List.of(), List.of(), occurredAt, null);
    }

    private static Memory expiring(String scope, String id, String text, long expiresAt) {
        return new Memory(scope + "-" + id, scope, text, List.of(), false, 1, 1, expiresAt, null, null, List.of(), List.of(), 1L, "Bo");
    }

    /** Memory {@code m<i>} of a scope of notes about the garden and the boat, said by Ada and Bo. */
    private static Memory note(String scope, int i) {
        return said(scope, "m" + i, "note " + i + (i % 2 == 0 ? " about the garden" : " about the boat"), i % 3 == 0 ? "Ada" : "Bo");
    }

    /** The first {@code count} of those notes. */
    private static List<Memory> notes(String scope, int count) {
        return new ArrayList<>(IntStream.range(0, count).mapToObj(i -> note(scope, i)).toList());
    }

    private static Memory said(String scope, String id, String text, String speaker) {
        return new Memory(scope + "-" + id, scope, text, List.of(), false, 1, 1, null, null, null, List.of(), List.of(), 1L, speaker);
    }

    private static MemoryQuery query(String scope, String text, float[] vector) {
        return new MemoryQuery(scope, text, vector, 10, null, 0, false, null, null, null, NOW);
    }

    private static double score(List<MemoryHit> hits, String id) {
        return hit(hits, id).score();
    }

    private static MemoryHit hit(List<MemoryHit> hits, String id) {
        return hits.stream().filter(hit -> hit.memory() != null && hit.memory().id().equals(id)).findFirst().orElseThrow();
    }

    @Test
    void aWriteThroughAnotherInstanceIsSeenByTheNextSearch() {
        Neo4jMemoryStore searching = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000);
        Neo4jMemoryStore writing = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000);
        String scope = "stale-" + System.nanoTime();
        Random random = new Random(11);
        for (int i = 0; i < 20; i++) {
            writing.add(plain(scope, "old-" + i), randomVector(random));
        }
        float[] query = randomVector(random);
        awaitTrue(() -> searching.servesFromMemory(scope), "the scope is copied into memory");

        writing.add(plain(scope, "exact"), query);
        assertThat(top(searching, scope, query)).as("a memory added elsewhere").isEqualTo(scope + "-exact");

        awaitTrue(() -> searching.servesFromMemory(scope), "the copy catches up");
        writing.setForgotten(scope + "-exact", NOW - 1);
        assertThat(top(searching, scope, query)).as("a memory forgotten elsewhere").isNotEqualTo(scope + "-exact");

        awaitTrue(() -> searching.servesFromMemory(scope), "the copy catches up");
        String next = top(searching, scope, query);
        writing.add(plain(scope, "newer"), randomVector(random));
        writing.link(scope + "-newer", next, Memory.SUPERSEDES);
        assertThat(top(searching, scope, query)).as("a memory superseded elsewhere").isNotEqualTo(next);

        awaitTrue(() -> searching.servesFromMemory(scope), "the copy catches up");
        String third = top(searching, scope, query);
        assertThat(writing.delete(third)).isTrue();
        assertThat(top(searching, scope, query)).as("a memory deleted elsewhere").isNotEqualTo(third);

        awaitTrue(() -> searching.servesFromMemory(scope), "the copy catches up");
        String corrected = top(searching, scope, query);
        writing.correct(new Correction("fix-" + scope, scope, "that was wrong", null, null, corrected, NOW - 1, null),
                new float[] {0, 0, 0, 1});
        assertThat(top(searching, scope, query)).as("a memory corrected elsewhere").isNotEqualTo(corrected);

        awaitTrue(() -> searching.servesFromMemory(scope), "the copy catches up");
        String fourth = top(searching, scope, query);
        writing.update(fourth, "moved away", negated(query), null, NOW);
        assertThat(top(searching, scope, query)).as("a memory whose vector changed elsewhere").isNotEqualTo(fourth);
    }

    @Test
    void aScopeOverTheBudgetIsNeverCopiedAndStillSearched() throws InterruptedException {
        Neo4jMemoryStore store = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10);
        String scope = "too-big-" + System.nanoTime();
        Random random = new Random(13);
        for (int i = 0; i < 11; i++) {
            store.add(plain(scope, "m" + i), randomVector(random));
        }
        store.add(plain(scope, "exact"), new float[] {1, 0, 0, 0});
        assertThat(store.servesFromMemory(scope)).isFalse();
        Thread.sleep(1500); // the background read has found it too big
        assertThat(store.servesFromMemory(scope)).isFalse();
        assertThat(top(store, scope, new float[] {1, 0, 0, 0})).isEqualTo(scope + "-exact");
    }

    private static Memory plain(String scope, String id) {
        return new Memory(scope + "-" + id, scope, "memory " + id, List.of(), false, 1, 1, null, null, null, List.of(), List.of());
    }

    private static String top(Neo4jMemoryStore store, String scope, float[] query) {
        return store.search(new MemoryQuery(scope, null, query, 1, null, 0, false, null, null, null, NOW)).get(0).id();
    }

    private static List<String> ids(List<MemoryHit> hits) {
        return hits.stream().map(MemoryHit::id).toList();
    }

    private static float[] randomVector(Random random) {
        float[] vector = new float[DIMENSIONS];
        for (int d = 0; d < DIMENSIONS; d++) {
            vector[d] = (float) random.nextGaussian();
        }
        return vector;
    }

    private static float[] negated(float[] vector) {
        float[] negated = new float[vector.length];
        for (int d = 0; d < vector.length; d++) {
            negated[d] = -vector[d];
        }
        return negated;
    }

    private static void awaitTrue(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + 15_000_000_000L;
        List<Boolean> tries = new ArrayList<>();
        while (System.nanoTime() < deadline) {
            boolean met = condition.getAsBoolean();
            tries.add(met);
            if (met) {
                return;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        throw new AssertionError("not within 15 s: " + what + " (" + tries.size() + " tries)");
    }
}
