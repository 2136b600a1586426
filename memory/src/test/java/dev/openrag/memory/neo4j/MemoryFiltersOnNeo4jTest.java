package dev.openrag.memory.neo4j;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.neo4j.driver.Driver;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.openrag.knowledge.filter.DocumentFilter;
import dev.openrag.memory.Memory;
import dev.openrag.memory.MemoryFilter;
import dev.openrag.memory.MemoryHit;
import dev.openrag.memory.MemoryQuery;
import dev.openrag.memory.MemoryWords;

/**
 * Memory search and listing filtered on tags and caller metadata, on real Neo4j: every operator keeps exactly the
 * memories it should, a scope's in-memory copy keeps the same ones as Neo4j alone, and a selective filter still finds
 * its memory first.
 */
@ExtendWith(MemoryNeo4j.class)
class MemoryFiltersOnNeo4jTest {

    private static final int DIMENSIONS = MemoryNeo4j.DIMENSIONS;
    private static final long NOW = 1_000_000;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] TEAMS = {"payments", "risk", "ops"};

    private static Driver driver;

    @BeforeAll
    static void connect(Driver shared) {
        driver = shared;
    }

    private static List<String> tagsOf(int i) {
        return switch (i % 4) {
            case 0 -> List.of("travel");
            case 1 -> List.of("travel", "work");
            case 2 -> List.of("proj-x");
            default -> List.of();
        };
    }

    private static Map<String, Object> metadataOf(int i) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("team", TEAMS[i % 3]);
        metadata.put("year", 2020 + i % 7);
        metadata.put("due", String.format(java.util.Locale.ROOT, "2026-01-%02d", i % 28 + 1));
        metadata.put("path", (i % 2 == 0 ? "docs/" : "src/") + i + ".md");
        if (i % 5 == 0) {
            metadata.put("owner", "ann");
        }
        if (i % 6 == 0) {
            metadata.put("labels", List.of("l" + i % 3, "common"));
        }
        return metadata;
    }

    private static Memory memory(String scope, int i) {
        return new Memory(scope + "-" + i, scope, "note " + i + (i % 2 == 0 ? " about the garden" : " about the boat"), tagsOf(i),
                false, i, i, null, null, null, List.of(), List.of(), 1000L * i, i % 3 == 0 ? "Ada" : "Bo")
                .withMetadata(MemoryFilter.metadata(metadataOf(i)));
    }

    private static DocumentFilter filter(String json) {
        try {
            return MemoryFilter.parse(JSON.readTree(json));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** Each filter with the rule it stands for, over the memories' numbers, written out apart from the Cypher. */
    private static Map<String, IntPredicate> filters() {
        Map<String, IntPredicate> filters = new LinkedHashMap<>();
        filters.put("{\"team\": \"payments\"}", i -> i % 3 == 0);
        filters.put("{\"tags\": \"travel\"}", i -> i % 4 <= 1);
        filters.put("{\"tags\": {\"in\": [\"work\", \"proj-x\"]}}", i -> i % 4 == 1 || i % 4 == 2);
        filters.put("{\"tags\": {\"not\": \"travel\"}}", i -> i % 4 >= 2);
        filters.put("{\"tags\": {\"exists\": false}}", i -> i % 4 == 3);
        filters.put("{\"tags\": {\"exists\": true}}", i -> i % 4 != 3);
        filters.put("{\"tags\": {\"prefix\": \"proj\"}}", i -> i % 4 == 2);
        filters.put("{\"owner\": {\"exists\": true}}", i -> i % 5 == 0);
        filters.put("{\"year\": {\"gte\": 2022, \"lt\": 2025}}", i -> 2020 + i % 7 >= 2022 && 2020 + i % 7 < 2025);
        filters.put("{\"year\": 2023}", i -> i % 7 == 3);
        filters.put("{\"due\": {\"gte\": \"2026-01-10\"}}", i -> i % 28 + 1 >= 10);
        filters.put("{\"due\": {\"lt\": \"2026-01-05T00:00:00Z\"}}", i -> i % 28 + 1 < 5);
        filters.put("{\"path\": {\"prefix\": \"docs/\"}}", i -> i % 2 == 0);
        filters.put("{\"or\": [{\"team\": \"risk\"}, {\"tags\": \"proj-x\"}]}", i -> i % 3 == 1 || i % 4 == 2);
        filters.put("{\"team\": {\"not\": \"ops\"}, \"labels\": \"common\"}", i -> i % 3 != 2 && i % 6 == 0);
        filters.put("{\"and\": [{\"team\": {\"in\": [\"ops\", \"nobody\"]}}, {\"tags\": \"travel\"}]}", i -> i % 3 == 2 && i % 4 <= 1);
        filters.put("{\"missing\": \"x\"}", i -> false);
        filters.put("{\"team\": 3}", i -> false); // a number never equals a string: kinds are not coerced
        return filters;
    }

    @Test
    void everyOperatorKeepsTheSameMemoriesInListingsAndInSearchesFromACopyOrFromNeo4j() {
        Neo4jMemoryStore copied = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000);
        Neo4jMemoryStore neo4jOnly = Neo4jMemoryStore.readingEachSearch(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000, Neo4jMemoryStore.SearchTuning.DEFAULT);
        String scope = "filters-" + System.nanoTime();
        Random random = new Random(11);
        int n = 40;
        List<Memory> memories = IntStream.range(0, n).mapToObj(i -> memory(scope, i)).toList();
        copied.addAll(memories.subList(0, 20), IntStream.range(0, 20).mapToObj(i -> randomVector(random)).toList());
        for (Memory memory : memories.subList(20, n)) { // single adds too: both ways in keep metadata
            copied.add(memory, randomVector(random));
        }
        assertThat(copied.get(scope + "-0").orElseThrow().metadata()).containsEntry("team", "payments").containsEntry("year", 2020)
                .containsEntry("due", "2026-01-01T00:00:00Z").containsEntry("labels", List.of("l0", "common"));
        awaitCopied(copied, scope);

        for (Map.Entry<String, IntPredicate> entry : filters().entrySet()) {
            DocumentFilter filter = filter(entry.getKey());
            Set<String> expected = new TreeSet<>();
            IntStream.range(0, n).filter(entry.getValue()).forEach(i -> expected.add(scope + "-" + i));
            assertThat(new TreeSet<>(copied.list(scope, null, null, filter, 0, 100, NOW).stream().map(Memory::id).toList()))
                    .as("list %s", entry.getKey()).isEqualTo(expected);

            float[] vector = randomVector(random);
            MemoryQuery everything = new MemoryQuery(scope, null, vector, 100, null, 0, false, null, null, null, NOW).withFilter(filter);
            List<String> fromCopy = ids(copied.search(everything));
            assertThat(fromCopy).as("vector search %s from the copy", entry.getKey()).isEqualTo(ids(neo4jOnly.search(everything)));
            assertThat(new TreeSet<>(fromCopy)).as("vector search %s", entry.getKey()).isEqualTo(expected);

            // a hybrid search ranks by words with the scope's own statistics from a copy (Neo4j's are the whole index's),
            // so the two may order differently; both keep only what passes, in each of their lists
            MemoryQuery hybrid = new MemoryQuery(scope, "garden note", vector, 5, null, 0, false, null, null, null, NOW).withFilter(filter);
            for (Neo4jMemoryStore store : List.of(copied, neo4jOnly)) {
                List<MemoryHit> hits = store.search(hybrid);
                assertThat(ids(hits)).as("hybrid search %s", entry.getKey()).hasSize(Math.min(5, expected.size()));
                assertThat(expected).as("hybrid search %s", entry.getKey()).containsAll(ids(hits));
            }
        }
        assertThat(copied.servesFromMemory(scope)).as("the filtered searches were served from the copy").isTrue();
    }

    @Test
    void newTagsAndMetadataAreFilteredOnAtTheNextSearchOfACopiedScope() {
        Neo4jMemoryStore copied = new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, 10_000);
        String scope = "refiltered-" + System.nanoTime();
        Random random = new Random(5);
        for (int i = 0; i < 12; i++) {
            copied.add(memory(scope, i), randomVector(random));
        }
        awaitCopied(copied, scope);
        DocumentFilter moved = filter("{\"team\": \"moved\", \"tags\": \"flagged\"}");
        MemoryQuery query = new MemoryQuery(scope, null, randomVector(random), 10, null, 0, false, null, null, null, NOW).withFilter(moved);
        assertThat(copied.search(query)).isEmpty();

        copied.update(scope + "-4", null, null, null, List.of("flagged"), MemoryFilter.metadata(Map.of("team", "moved")), NOW);
        assertThat(ids(copied.search(query))).containsExactly(scope + "-4");
        assertThat(copied.get(scope + "-4").orElseThrow().metadata()).as("the metadata is replaced, not merged")
                .isEqualTo(Map.of("team", "moved"));

        copied.update(scope + "-4", null, null, null, null, Map.of(), NOW);
        assertThat(copied.search(query)).as("metadata removed").isEmpty();
        assertThat(copied.get(scope + "-4").orElseThrow().metadata()).isEmpty();
        assertThat(copied.get(scope + "-4").orElseThrow().tags()).as("tags not given: kept").containsExactly("flagged");
    }

    @Test
    void aFilterKeepingOneMemoryInTwoHundredStillFindsItFirst() {
        // a low exact-scan limit: Neo4j alone asks its vector index, whose nearest hold no memory passing the filter
        Neo4jMemoryStore copied = new Neo4jMemoryStore(driver, 50, 10_000, Neo4jMemoryStore.SearchTuning.DEFAULT, null);
        Neo4jMemoryStore neo4jOnly = new Neo4jMemoryStore(driver, 50, 0, Neo4jMemoryStore.SearchTuning.DEFAULT, null);
        String scope = "needle-" + System.nanoTime();
        List<Memory> memories = new ArrayList<>();
        List<float[]> vectors = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            boolean needle = i == 137;
            memories.add(new Memory(scope + "-" + i, scope, (needle ? "the quarterly invoice run " : "the invoice list ") + i, List.of(),
                    false, i, i, null, null, null, List.of(), List.of())
                    .withMetadata(MemoryFilter.metadata(Map.of("team", needle ? "billing" : "other"))));
            vectors.add(needle ? new float[] {0, 0, 0.2f, 1} : new float[] {1, 0.01f * i, 0, 0});
        }
        copied.addAll(memories, vectors);
        copied.indexQueuedVectors();
        awaitCopied(copied, scope);
        float[] question = {1, 0, 0, 0};
        DocumentFilter billing = filter("{\"team\": \"billing\"}");
        MemoryQuery unfiltered = new MemoryQuery(scope, "invoice", question, 10, null, 0, false, null, null, null, NOW);
        assertThat(ids(neo4jOnly.search(unfiltered))).as("control: unfiltered, it is not among the first 10")
                .doesNotContain(scope + "-137");
        for (MemoryQuery query : List.of(unfiltered.withFilter(billing),
                new MemoryQuery(scope, null, question, 3, null, 0, false, null, null, null, NOW).withFilter(billing))) {
            assertThat(ids(copied.search(query))).as("from the copy").containsExactly(scope + "-137");
            assertThat(ids(neo4jOnly.search(query))).as("from Neo4j").containsExactly(scope + "-137");
        }
    }

    private static void awaitCopied(Neo4jMemoryStore store, String scope) {
        long deadline = System.nanoTime() + 15_000_000_000L;
        while (!store.servesFromMemory(scope)) {
            assertThat(System.nanoTime()).as("the scope is copied into memory").isLessThan(deadline);
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private static List<String> ids(List<MemoryHit> hits) {
        return hits.stream().map(hit -> hit.memory().id()).toList();
    }

    private static float[] randomVector(Random random) {
        float[] vector = new float[DIMENSIONS];
        for (int d = 0; d < DIMENSIONS; d++) {
            vector[d] = (float) random.nextGaussian();
        }
        return vector;
    }
}
