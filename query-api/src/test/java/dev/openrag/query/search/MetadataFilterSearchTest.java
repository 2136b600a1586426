package dev.openrag.query.search;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.neo4j.driver.Driver;
import org.opensearch.client.opensearch.OpenSearchClient;

import dev.openrag.knowledge.neo4j.Neo4jDocumentMetadata;
import dev.openrag.knowledge.neo4j.Neo4jGraphStore;
import dev.openrag.knowledge.opensearch.OpenSearchLexicalIndex;
import dev.openrag.knowledge.port.Embedder;
import dev.openrag.knowledge.port.IndexedChunk;
import dev.openrag.localstack.test.LocalStackTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/**
 * Metadata written the way the sinks write it (OpenSearch fields, Neo4j document properties) and
 * filtered searches over it, on real Neo4j and OpenSearch: every operator selects exactly its
 * documents in BM25 (translated to OpenSearch) and in vector search (within the documents Neo4j
 * selects); a selective filter finds a document that many others outrank; malformed and hostile
 * filters are 400s that change nothing.
 */
@QuarkusTest
@WithTestResource(LocalStackTestResource.class)
class MetadataFilterSearchTest {

    private static final String OPS = "meta-ops";
    private static final String NEEDLE = "meta-needle";
    private static final String EMPTY = "meta-empty";
    private static final String LISTS = "meta-list-dates";
    private static final int NOISE = 30;
    private static boolean loaded;

    @Inject
    Driver driver;

    @Inject
    OpenSearchClient openSearch;

    @Inject
    Embedder embedder;

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        document(OPS, "a", "Payments handbook for the billing team.", Map.of("team", "payments", "year", 2026,
                "modified", "2026-03-01T00:00:00Z", "path", "docs/pay.md", "tags", List.of("oncall", "billing"), "owner", "alice"));
        document(OPS, "b", "Risk handbook with fraud rules.", Map.of("team", "risk", "year", 2025,
                "modified", "2025-06-01", "path", "docs/risk.md", "tags", List.of("billing")));
        document(OPS, "c", "Operations handbook for deployments.", Map.of("team", "ops", "year", 2024, "path", "src/ops.md"));
        // the same keys with other kinds: a number for team, a string for year
        document(OPS, "d", "Legacy handbook from the old wiki.", Map.of("team", 7, "year", "2026"));
        document(OPS, "e", "Handbook without any metadata.", Map.of());
        for (int i = 0; i < NOISE; i++) {
            document(NEEDLE, "noise-" + i, "Invoice payment retries: the billing service retries a failed invoice payment "
                    + "three times, invoice payment number " + i + ".", Map.of("team", "other"));
        }
        document(NEEDLE, "needle", "Bank transfers are another way to settle an invoice.", Map.of("team", "payments"));
        // a first query of a fresh index can outlast the search's read deadline on a busy machine (a 503
        // naming the retrievers): one unasserted search of each collection warms them
        // an empty list beside a list with an item and no key at all
        document(EMPTY, "g", "Handbook tagged with nothing.", Map.of("tags", List.of()));
        document(EMPTY, "h", "Handbook tagged once.", Map.of("tags", List.of("x")));
        document(EMPTY, "i", "Handbook without tags.", Map.of("team", "ops"));
        // dates inside lists of strings, beside a single date, a list of plain strings and no key at all
        document(LISTS, "p", "Handbook released twice.", Map.of("releases", List.of("2026-01-15", "v2", "2025-12-01T10:00:00+02:00")));
        document(LISTS, "q", "Handbook released long ago.", Map.of("releases", List.of("2024-05-01")));
        document(LISTS, "r", "Handbook with named releases.", Map.of("releases", List.of("v1", "next", "2026-02-30")));
        document(LISTS, "s", "Handbook released once.", Map.of("releases", "2026-01-15"));
        document(LISTS, "t", "Handbook never released.", Map.of("team", "ops"));
        for (String collection : List.of(OPS, NEEDLE, EMPTY, LISTS)) {
            given().contentType(ContentType.JSON).body(Map.of("query", "handbook", "collection", collection, "filter", Map.of("team", "x")))
                    .post("/api/search");
        }
        loaded = true;
    }

    private static io.restassured.path.json.JsonPath searched(Map<String, Object> body) {
        return given().contentType(ContentType.JSON).body(body).post("/api/search").then().statusCode(200).extract().jsonPath();
    }

    /**
     * The lookup that names a filter's unknown keys, late (held back past the search's read timeout) or failing: the
     * answer names no key and says so in {@code degraded}, in search and ask; on time (the control before and after)
     * it names them and nothing is degraded.
     */
    @Test
    void aLateOrFailedKeyLookupIsNamedInDegraded() {
        Map<String, Object> body = Map.of("query", "handbook", "k", 5, "collection", OPS, "mode", "bm25", "rerank", false,
                "filter", Map.of("teem", "payments"));
        Map<String, Object> ask = Map.of("question", "which handbook is for billing?", "collection", OPS, "filter", Map.of("teem", "x"));
        io.restassured.path.json.JsonPath whole = searched(body);
        assertThat(whole.getList("unknownFilterKeys", String.class)).containsExactly("teem");
        assertThat(whole.getList("degraded")).as(whole.prettify()).isNull();

        java.util.concurrent.CountDownLatch stall = new java.util.concurrent.CountDownLatch(1);
        dev.openrag.query.StallableMetadataFacets.STALLED.put(OPS, stall);
        try {
            io.restassured.path.json.JsonPath late = searched(body);
            assertThat(late.getList("degraded", String.class)).as(late.prettify()).contains("unknownFilterKeys");
            assertThat(late.getList("unknownFilterKeys")).isNull();
            assertThat(late.getList("results")).as("the filter still applies").isEmpty();
            given().contentType(ContentType.JSON).body(ask).post("/api/ask").then().statusCode(200)
                    .body("degraded", org.hamcrest.Matchers.hasItem("unknownFilterKeys"))
                    .body("unknownFilterKeys", org.hamcrest.Matchers.nullValue());
        } finally {
            dev.openrag.query.StallableMetadataFacets.STALLED.remove(OPS);
            stall.countDown();
        }
        dev.openrag.query.StallableMetadataFacets.FAILING.add(OPS);
        try {
            io.restassured.path.json.JsonPath failed = searched(body);
            assertThat(failed.getList("degraded", String.class)).as(failed.prettify()).contains("unknownFilterKeys");
            assertThat(failed.getList("unknownFilterKeys")).isNull();
        } finally {
            dev.openrag.query.StallableMetadataFacets.FAILING.remove(OPS);
        }
        io.restassured.path.json.JsonPath again = searched(body);
        assertThat(again.getList("unknownFilterKeys", String.class)).as("the control after").containsExactly("teem");
        assertThat(again.getList("degraded")).isNull();
    }

    /** The key lookup is answered from OpenSearch's request cache on a repeated filter, and a write is seen at once. */
    @Test
    void theKeyLookupIsCachedUntilTheIndexChanges() throws Exception {
        String collection = "meta-keys-cache";
        document(collection, "x", "Handbook for the cache.", Map.of("team", "a"));
        String key = "fresh" + Integer.toHexString(new java.util.Random().nextInt(1 << 20));
        Map<String, Object> body = Map.of("query", "handbook", "k", 5, "collection", collection, "mode", "bm25", "rerank", false,
                "filter", Map.of(key, "x"));
        assertThat(searched(body).getList("unknownFilterKeys", String.class)).containsExactly(key);
        long hits = requestCacheHits(collection);
        assertThat(searched(body).getList("unknownFilterKeys", String.class)).containsExactly(key);
        assertThat(requestCacheHits(collection)).as("the repeated lookup came from the cache").isGreaterThan(hits);
        // the write: the key is held now, and the next search says so (the cache does not outlive the change)
        document(collection, "y", "Handbook with the fresh key.", Map.of(key, "x"));
        io.restassured.path.json.JsonPath after = searched(body);
        assertThat(after.getList("unknownFilterKeys")).isNull();
        assertThat(after.getList("results.documentId", String.class)).containsExactly("y");
    }

    private long requestCacheHits(String collection) throws java.io.IOException {
        String index = dev.openrag.knowledge.opensearch.ChunkIndex.name(collection);
        return openSearch.indices().stats(r -> r.index(index).metric(org.opensearch.client.opensearch.indices.stats.IndicesStatsMetric.RequestCache)).all().total().requestCache().hitCount();
    }

    private void document(String collection, String documentId, String text, Map<String, Object> metadata) {
        String title = "Doc " + documentId;
        IndexedChunk chunk = new IndexedChunk(collection, documentId, collection + "/" + documentId + "#0", 0, title,
                "file:///" + documentId, List.of(), text, "Document: " + title, embedder.embed(List.of(text)).get(0), metadata);
        new Neo4jGraphStore(driver).upsertDocument(collection, documentId, title, "file:///" + documentId, "h", List.of(chunk), List.of());
        new Neo4jDocumentMetadata(driver).replaceMetadata(collection, documentId, metadata);
        new OpenSearchLexicalIndex(openSearch, true).upsert(List.of(chunk));
    }

    private static List<String> found(String collection, String query, String mode, int k, Object filter, Map<String, Object> more) {
        Map<String, Object> body = new HashMap<>(Map.of("query", query, "k", k, "collection", collection, "mode", mode, "rerank", false));
        if (filter != null) {
            body.put("filter", filter);
        }
        body.putAll(more);
        return given().contentType(ContentType.JSON).body(body).post("/api/search")
                .then().statusCode(200).extract().jsonPath().getList("results.documentId", String.class);
    }

    private static void assertSelects(String filterJson, Set<String> expected) {
        assertSelects(OPS, filterJson, expected);
    }

    private static void assertSelects(String collection, String filterJson, Set<String> expected) {
        Object filter = io.restassured.path.json.JsonPath.from(filterJson).get("$");
        for (String mode : List.of("bm25", "vector")) {
            assertThat(Set.copyOf(found(collection, "handbook", mode, 50, filter, Map.of())))
                    .as(mode + " with " + filterJson).isEqualTo(expected);
        }
    }

    @Test
    void withoutAFilterEveryDocumentIsFound() {
        assertThat(Set.copyOf(found(OPS, "handbook", "bm25", 50, null, Map.of()))).isEqualTo(Set.of("a", "b", "c", "d", "e"));
    }

    @Test
    void equalityMatchesAStringAnItemOfAListOrANumberByKind() {
        assertSelects("{\"team\": \"payments\"}", Set.of("a"));
        assertSelects("{\"tags\": \"billing\"}", Set.of("a", "b"));
        assertSelects("{\"team\": 7}", Set.of("d"));
        assertSelects("{\"year\": \"2026\"}", Set.of("d"));
        assertSelects("{\"year\": 2026}", Set.of("a"));
    }

    @Test
    void inNotAndExists() {
        assertSelects("{\"team\": {\"in\": [\"payments\", \"risk\"]}}", Set.of("a", "b"));
        assertSelects("{\"team\": {\"not\": \"payments\"}}", Set.of("b", "c", "d", "e"));
        assertSelects("{\"owner\": {\"exists\": true}}", Set.of("a"));
        assertSelects("{\"owner\": {\"exists\": false}}", Set.of("b", "c", "d", "e"));
    }

    @Test
    void rangesOnNumbersAndDatesLeaveOtherKindsOut() {
        assertSelects("{\"year\": {\"gte\": 2025, \"lt\": 2027}}", Set.of("a", "b"));
        assertSelects("{\"year\": {\"gt\": 2025}}", Set.of("a"));
        assertSelects("{\"year\": {\"lte\": 2024}}", Set.of("c"));
        assertSelects("{\"modified\": {\"gte\": \"2026-01-01T00:00:00Z\"}}", Set.of("a"));
        assertSelects("{\"modified\": {\"lt\": \"2026-01-01\"}}", Set.of("b"));
    }

    @Test
    void prefixAndCombinations() {
        assertSelects("{\"path\": {\"prefix\": \"docs/\"}}", Set.of("a", "b"));
        assertSelects("{\"or\": [{\"team\": \"ops\"}, {\"tags\": \"oncall\"}]}", Set.of("a", "c"));
        assertSelects("{\"and\": [{\"tags\": \"billing\"}, {\"year\": {\"lt\": 2026}}]}", Set.of("b"));
        assertSelects("{\"tags\": \"billing\", \"team\": {\"not\": \"risk\"}}", Set.of("a"));
    }

    /** An empty list is no value in every store alike (OpenSearch says such a key is absent, Neo4j kept an empty list). */
    @Test
    void anEmptyListIsAbsentInEveryStore() {
        assertSelects(EMPTY, "{\"tags\": {\"exists\": true}}", Set.of("h"));
        assertSelects(EMPTY, "{\"tags\": {\"exists\": false}}", Set.of("g", "i"));
        // the control: without a filter every document is found
        assertSelects(EMPTY, "{}", Set.of("g", "h", "i"));
    }

    /**
     * A list's items that read as dates are dates too: equality, in, not and ranges on a date match
     * a list by any of its items, as they match a single date, the same in BM25 (OpenSearch) and in
     * vector search (the documents Neo4j selects, as graph retrieval's seeds do); its items stay
     * strings for string conditions. "2026-02-30" is no date, and stays text.
     */
    @Test
    void datesInsideListsMatchLikeSingleDatesInEveryStore() {
        assertSelects(LISTS, "{\"releases\": \"2026-01-15\"}", Set.of("p", "s"));
        assertSelects(LISTS, "{\"releases\": \"2026-01-15T01:00:00+01:00\"}", Set.of("p", "s"));
        assertSelects(LISTS, "{\"releases\": {\"gte\": \"2026-01-01\"}}", Set.of("p", "s"));
        assertSelects(LISTS, "{\"releases\": {\"lt\": \"2025-01-01\"}}", Set.of("q"));
        assertSelects(LISTS, "{\"releases\": {\"gte\": \"2025-12-01T08:00:00Z\", \"lte\": \"2025-12-01T08:00:00Z\"}}", Set.of("p"));
        assertSelects(LISTS, "{\"releases\": {\"gt\": \"2026-01-15\"}}", Set.of());
        assertSelects(LISTS, "{\"releases\": {\"in\": [\"2024-05-01\", \"v1\"]}}", Set.of("q", "r"));
        assertSelects(LISTS, "{\"releases\": {\"not\": \"2026-01-15\"}}", Set.of("q", "r", "t"));
        assertSelects(LISTS, "{\"or\": [{\"releases\": {\"lt\": \"2025-01-01\"}}, {\"releases\": \"next\"}]}", Set.of("q", "r"));
        // controls: the items are still strings, and a key's presence is unchanged
        assertSelects(LISTS, "{\"releases\": \"v2\"}", Set.of("p"));
        assertSelects(LISTS, "{\"releases\": \"2026-02-30\"}", Set.of("r"));
        assertSelects(LISTS, "{\"releases\": {\"prefix\": \"2026-01\"}}", Set.of("p")); // a prefix is on text: a single date is none
        assertSelects(LISTS, "{\"releases\": {\"exists\": true}}", Set.of("p", "q", "r", "s"));
    }

    /** A range bound that is not a number or a date (a release name, an impossible day) is a 400, beside a working control. */
    @ParameterizedTest
    @ValueSource(strings = {"{\"releases\": {\"gte\": \"v2\"}}", "{\"releases\": {\"lt\": \"2026-02-30\"}}"})
    void aRangeOnAListWithABoundThatIsNoDateIsRefused(String filterJson) {
        Object filter = io.restassured.path.json.JsonPath.from("{\"f\": " + filterJson + "}").get("f");
        Map<String, Object> body = new HashMap<>(Map.of("query", "handbook", "k", 5, "collection", LISTS, "mode", "hybrid"));
        body.put("filter", filter);
        given().contentType(ContentType.JSON).body(body).post("/api/search")
                .then().statusCode(400).contentType(ContentType.JSON).body("message", containsString("releases"));
        assertSelects(LISTS, "{\"releases\": {\"gte\": \"2026-01-01\"}}", Set.of("p", "s"));
    }

    /** A prefix is text, never a pattern: regex, wildcard and escape characters match only themselves, in each store. */
    @Test
    void aPrefixWithPatternCharactersMatchesLiterally() {
        for (String prefix : List.of("docs/.*", "docs/*", "d?cs/", "docs\\\\", "DOCS/", "(?i)docs/", "' OR 1=1 //")) {
            assertSelects(toJson(Map.of("path", Map.of("prefix", prefix))), Set.of());
        }
        // controls
        assertSelects("{\"path\": {\"prefix\": \"d\"}}", Set.of("a", "b"));
        assertSelects("{\"path\": {\"prefix\": \"docs/pay.md\"}}", Set.of("a"));
    }

    /** Dates written with an offset are the same instant in each store; or inside and, with not beside it. */
    @Test
    void offsetsAndNestedCombinationsSelectTheSameInEachStore() {
        assertSelects("{\"modified\": {\"gte\": \"2026-03-01T02:00:00+02:00\"}}", Set.of("a"));
        assertSelects("{\"modified\": {\"gt\": \"2026-03-01T02:00:00+02:00\"}}", Set.of());
        assertSelects("{\"modified\": {\"lt\": \"2025-06-01T00:00:01+00:00\"}}", Set.of("b"));
        assertSelects("{\"and\": [{\"or\": [{\"team\": \"payments\"}, {\"team\": \"ops\"}]}, {\"path\": {\"not\": \"src/ops.md\"}}]}",
                Set.of("a"));
        assertSelects("{\"or\": [{\"and\": [{\"team\": \"risk\"}, {\"year\": 2025}]}, {\"year\": {\"in\": [2024, \"2026\"]}}]}",
                Set.of("b", "c", "d"));
    }

    /**
     * The largest filter the rules allow (64 conditions, each a list of 256 values: 16384 values) answers
     * in every retriever, none of them degraded, and one condition more is a 400.
     */
    @Test
    void theLargestLegalFilterAnswersInEveryRetriever() {
        List<Object> any = new java.util.ArrayList<>();
        for (int key = 1; key < DocumentFilterLimits.CONDITIONS; key++) {
            List<String> values = new java.util.ArrayList<>();
            for (int v = 0; v < DocumentFilterLimits.IN_VALUES; v++) {
                values.add("v" + v);
            }
            any.add(Map.of("k" + key, Map.of("in", values)));
        }
        List<String> teams = new java.util.ArrayList<>(List.of("payments", "risk"));
        while (teams.size() < DocumentFilterLimits.IN_VALUES) {
            teams.add("team" + teams.size());
        }
        any.add(Map.of("team", Map.of("in", teams)));
        Map<String, Object> filter = Map.of("or", any);
        assertSelects(toJson(filter), Set.of("a", "b"));
        Map<String, Object> body = new HashMap<>(Map.of("query", "handbook", "k", 50, "collection", OPS, "mode", "hybrid", "filter", filter));
        given().contentType(ContentType.JSON).body(body).post("/api/search").then().statusCode(200)
                .body("degraded", org.hamcrest.Matchers.nullValue());
        // the control: one condition more is refused, with the rule
        List<Object> tooMany = new java.util.ArrayList<>(any);
        tooMany.add(Map.of("owner", "alice"));
        body.put("filter", Map.of("or", tooMany));
        given().contentType(ContentType.JSON).body(body).post("/api/search").then().statusCode(400)
                .body("message", containsString("more than " + DocumentFilterLimits.CONDITIONS + " conditions"));
    }

    private static String toJson(Object value) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(value);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The rules' limits, read from where they are defined. */
    private static final class DocumentFilterLimits {
        static final int CONDITIONS = dev.openrag.knowledge.filter.DocumentFilters.MAX_CONDITIONS;
        static final int IN_VALUES = dev.openrag.knowledge.filter.DocumentFilters.MAX_IN_VALUES;
    }

    @Test
    void aKeyNoDocumentHasMatchesNothing() {
        assertSelects("{\"nosuchkey\": \"x\"}", Set.of());
    }

    @Test
    void hitsCarryTheirCollectionAndTheirDocumentsMetadata() {
        given().contentType(ContentType.JSON)
                .body(Map.of("query", "handbook", "k", 5, "collection", OPS, "mode", "bm25", "filter", Map.of("team", "payments")))
                .post("/api/search").then().statusCode(200)
                .body("results[0].documentId", equalTo("a"))
                .body("results[0].collection", equalTo(OPS))
                .body("results[0].metadata.team", equalTo("payments"))
                .body("results[0].metadata.year", equalTo(2026))
                .body("results[0].metadata.tags", equalTo(List.of("oncall", "billing")))
                .body("results[0].metadata.modified", equalTo("2026-03-01T00:00:00Z"));
        // read with the hits' places, in the spans step (issue 72): no step of its own, and a document without any has {}
        given().contentType(ContentType.JSON)
                .body(Map.of("query", "handbook", "k", 50, "collection", OPS, "explain", true))
                .post("/api/search").then().statusCode(200)
                .body("results.find { it.documentId == 'a' }.metadata.team", equalTo("payments"))
                .body("results.find { it.documentId == 'e' }.metadata", equalTo(Map.of()))
                .body("timings", org.hamcrest.Matchers.hasKey("spans"))
                .body("timings", org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasKey("metadata")));
    }

    @Test
    void documentBrowsingShowsTheMetadata() {
        given().get("/api/documents?collection=" + OPS + "&size=50").then().statusCode(200)
                .body("documents.find { it.documentId == 'a' }.metadata.team", equalTo("payments"))
                .body("documents.find { it.documentId == 'b' }.metadata.modified", equalTo("2025-06-01T00:00:00Z"))
                .body("documents.find { it.documentId == 'e' }.metadata", equalTo(Map.of()));
    }

    /** 30 documents outrank the one the filter keeps, in each retriever and fused: it is still found, first. */
    @ParameterizedTest
    @ValueSource(strings = {"bm25", "vector", "hybrid"})
    void aSelectiveFilterFindsTheDocumentThatOthersOutrank(String mode) {
        Map<String, Object> shallow = Map.of("candidates", 3, "expand", 0);
        String query = "invoice payment retries";
        assertThat(found(NEEDLE, query, mode, 3, null, shallow)).doesNotContain("needle");

        assertThat(found(NEEDLE, query, mode, 3, Map.of("team", "payments"), shallow)).containsExactly("needle");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"team\": {\"regex\": \".*\"}}",
            "{\"year\": {\"gte\": \"last year\"}}",
            "{\"year\": {\"gte\": 2025, \"lt\": \"2027-01-01\"}}",
            "{\"team\": {\"in\": \"payments\"}}",
            "{\"team\": [\"payments\", \"risk\"]}",
            "{\"team\": {\"exists\": \"yes\"}}",
            "{\"team\": {}}",
            "{\"team\": null}",
            "{\"team\": {\"nested\": {\"x\": 1}}}",
            "{\"and\": {}}",
            "{\"or\": []}",
            "\"team = payments\"",
            "[{\"team\": \"payments\"}]",
            "{\"a.b\": \"x\"}",
            "{\"$where\": \"1\"}",
            "{\"'] or 1=1\": \"x\"}",
            "{\"x` OR true //\": \"x\"}",
            "{\"n}) DETACH DELETE n //\": \"x\"}",
            "{\"$.path\": \"x\"}",
            "{\"meta_s.team\": \"x\"}",
            "{\"in\": \"x\"}"})
    void malformedAndHostileFiltersAreRefusedAndChangeNothing(String filterJson) {
        Object filter = io.restassured.path.json.JsonPath.from("{\"f\": " + filterJson + "}").get("f");
        Map<String, Object> body = new HashMap<>(Map.of("query", "handbook", "k", 5, "collection", OPS, "mode", "hybrid"));
        body.put("filter", filter);
        given().contentType(ContentType.JSON).body(body).post("/api/search")
                .then().statusCode(400)
                .contentType(ContentType.JSON)
                .body("error", equalTo("bad_request"))
                .body("message", containsString("filter"));

        // the control beside it: a legitimate filter still answers, and nothing was lost
        assertThat(found(OPS, "handbook", "hybrid", 5, Map.of("team", "payments"), Map.of())).containsExactly("a");
        assertThat(Set.copyOf(found(OPS, "handbook", "bm25", 50, null, Map.of()))).hasSize(5);
    }

    @Test
    void askTakesTheFilterToo() {
        given().contentType(ContentType.JSON)
                .body(Map.of("question", "what does the handbook say?", "k", 3, "collection", OPS, "filter", Map.of("team", "risk")))
                .post("/api/ask").then().statusCode(200)
                .body("sources.documentId", equalTo(List.of("b")));
        given().contentType(ContentType.JSON)
                .body(Map.of("question", "handbook?", "collection", OPS, "filter", Map.of("team", Map.of("regex", "x"))))
                .post("/api/ask").then().statusCode(400).body("message", containsString("unknown operator 'regex'"));
    }
}
