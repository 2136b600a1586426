package dev.openrag.query;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.openrag.knowledge.browse.DocumentText;
import dev.openrag.knowledge.neo4j.Neo4jDocumentTexts;
import dev.openrag.knowledge.neo4j.Neo4jGraphStore;
import dev.openrag.knowledge.opensearch.OpenSearchLexicalIndex;
import dev.openrag.knowledge.port.IndexedChunk;
import dev.openrag.localstack.test.LocalStackTestResource;
import dev.openrag.schemas.Heading;
import dev.openrag.schemas.Page;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/**
 * Issue 61, exact-span citations on the real stores: a Markdown handbook with accents, CJK and an
 * emoji outside the Basic Multilingual Plane (a surrogate pair: offsets count UTF-16 code units), and
 * a two-page document. Every span a search hit or an ask source carries slices
 * {@code GET /api/documents/{id}/text} to exactly its text; a hit from a replaced version is
 * {@code stale}, never a wrong offset.
 */
@QuarkusTest
@WithTestResource(LocalStackTestResource.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CitationSpansTest extends FixtureTest {

    private static final String COLLECTION = "citations";
    private static final String HANDBOOK = """
            # Handbook

            Welcome to the café 😀 team in 東京.

            ## Refunds

            Refunds take fourteen days. Customers in Zürich get them sooner.

            ## Support

            Support answers every ticket within a day.""";
    private static final String REPORT_PAGE_1 = "Quarterly report. Revenue grew in every region.\n\n";
    private static final String REPORT_PAGE_2 = "The invoice backlog was cleared in March.";

    private static final List<Heading> HANDBOOK_HEADINGS = List.of(new Heading(1, "Handbook", 0),
            new Heading(2, "Refunds", HANDBOOK.indexOf("## Refunds")), new Heading(2, "Support", HANDBOOK.indexOf("## Support")));

    /** The same fixtures as they lie in a collection stored before chunks' places were (texts without places). */
    private static final String OLD_COLLECTION = "citations-before-places";

    @BeforeAll
    void seed() {
        seed(COLLECTION);
        seed(OLD_COLLECTION);
        withoutPlaces(OLD_COLLECTION);
    }

    private void seed(String collection) {
        List<String> sections = List.of(
                HANDBOOK.substring(0, HANDBOOK.indexOf("## Refunds")).strip(),
                HANDBOOK.substring(HANDBOOK.indexOf("## Refunds"), HANDBOOK.indexOf("## Support")).strip(),
                HANDBOOK.substring(HANDBOOK.indexOf("## Support")).strip());
        store(collection, "handbook", "Handbook", HANDBOOK, sections, List.of(), HANDBOOK_HEADINGS);
        String report = REPORT_PAGE_1 + REPORT_PAGE_2;
        store(collection, "report", "Quarterly report", report, List.of(REPORT_PAGE_1.strip(), REPORT_PAGE_2),
                List.of(new Page(1, 0, REPORT_PAGE_1.length()), new Page(2, REPORT_PAGE_1.length(), report.length())), List.of());
    }

    /** As the sinks write a document: chunks into OpenSearch and Neo4j (with vectors), the text with its spans. */
    private void store(String collection, String documentId, String title, String text, List<String> chunkTexts, List<Page> pages,
                       List<Heading> headings) {
        List<IndexedChunk> chunks = new ArrayList<>();
        List<DocumentText.ChunkSpan> spans = new ArrayList<>();
        for (int i = 0; i < chunkTexts.size(); i++) {
            String chunk = chunkTexts.get(i);
            int start = text.indexOf(chunk);
            spans.add(new DocumentText.ChunkSpan(i, start, start + chunk.length()));
            chunks.add(new IndexedChunk(collection, documentId, collection + "/" + documentId + "#" + i, i, title, "file:///" + documentId,
                    List.of(), chunk, "Document: " + title, embedder.embed(List.of(chunk)).get(0)));
        }
        new Neo4jGraphStore(driver).upsertDocument(collection, documentId, title, "file:///" + documentId, "v1", chunks, List.of());
        new OpenSearchLexicalIndex(openSearch, true).upsert(chunks);
        new Neo4jDocumentTexts(driver).put(new DocumentText(collection, documentId, "v1", text, pages, headings, spans));
    }

    /** The collection's texts as a version before chunks' places were left them: the texts, no places. */
    private void withoutPlaces(String collection) {
        try (var session = driver.session()) {
            session.run("MATCH (t:DocumentText {collection: $collection})"
                    + " REMOVE t.placesVersion, t.placesComplete, t.elsewhereIndexes, t.elsewhereHashes"
                    + " WITH t MATCH (p:ChunkPlace {uid: t.uid}) DELETE p", Map.of("collection", collection)).consume();
        }
    }

    /**
     * The span a hit on {@code chunkText} of a seeded document has, worked out from the whole text, its
     * pages and headings as they were seeded, apart from the code under test: where the text holds the
     * chunk, the first page holding its start (else the last page), the headings open there.
     */
    private static Map<String, Object> expectedSpan(String documentId, String chunkText) {
        String text = documentId.equals("handbook") ? HANDBOOK : REPORT_PAGE_1 + REPORT_PAGE_2;
        List<Page> pages = documentId.equals("handbook") ? List.of()
                : List.of(new Page(1, 0, REPORT_PAGE_1.length()), new Page(2, REPORT_PAGE_1.length(), text.length()));
        List<Heading> headings = documentId.equals("handbook") ? HANDBOOK_HEADINGS : List.of();
        int start = text.indexOf(chunkText);
        assertThat(start).as("the fixture holds " + chunkText).isNotNegative();
        Map<String, Object> span = new java.util.HashMap<>(Map.of("start", start, "end", start + chunkText.length(),
                "text", text.substring(start, start + chunkText.length()), "version", "v1"));
        pages.stream().filter(page -> start >= page.start() && start < page.end()).findFirst()
                .or(() -> pages.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(pages.get(pages.size() - 1)))
                .ifPresent(page -> span.put("page", page.page()));
        List<Heading> open = new ArrayList<>();
        for (Heading heading : headings) {
            if (heading.offset() <= start) {
                open.removeIf(above -> above.level() >= heading.level());
                open.add(heading);
            }
        }
        if (!open.isEmpty()) {
            span.put("headingPath", open.stream().map(Heading::text).toList());
        }
        return span;
    }

    private static List<List<Map<String, Object>>> expectedSpans(JsonPath found) {
        List<List<Map<String, Object>>> spans = new ArrayList<>();
        for (int i = 0; i < found.getList("results").size(); i++) {
            spans.add(List.of(expectedSpan(found.getString("results[" + i + "].documentId"), found.getString("results[" + i + "].text"))));
        }
        return spans;
    }

    private static JsonPath ask(String question) {
        return given().contentType(ContentType.JSON).body(Map.of("question", question, "collection", COLLECTION, "k", 3))
                .post("/api/ask").then().statusCode(200).extract().jsonPath();
    }

    private static JsonPath search(String query) {
        return search(COLLECTION, query);
    }

    private static JsonPath search(String collection, String query) {
        return given().contentType(ContentType.JSON).body(Map.of("query", query, "collection", collection, "mode", "bm25", "k", 3))
                .post("/api/search").then().statusCode(200).extract().jsonPath();
    }

    private static String documentText(String documentId) {
        return given().queryParam("collection", COLLECTION).get("/api/documents/" + documentId + "/text").then().statusCode(200)
                .extract().path("text");
    }

    @Test
    void searchHitsCarryExactSpansWithHeadingsAndPagesInUtf16CodeUnits() {
        JsonPath refunds = search("refunds Zürich");
        assertThat(refunds.getString("results[0].documentId")).isEqualTo("handbook");
        Map<String, Object> span = refunds.getMap("results[0].spans[0]");
        String text = documentText("handbook");
        assertThat(text.substring((int) span.get("start"), (int) span.get("end"))).isEqualTo(span.get("text"))
                .isEqualTo(refunds.getString("results[0].text"));
        assertThat(span.get("start")).as("after a surrogate pair, CJK and accents: UTF-16 code units")
                .isEqualTo(HANDBOOK.indexOf("## Refunds"));
        assertThat(span).containsEntry("headingPath", List.of("Handbook", "Refunds")).containsEntry("version", "v1");

        JsonPath invoice = search("invoice backlog");
        Map<String, Object> onPage2 = invoice.getMap("results[0].spans[0]");
        assertThat(onPage2).containsEntry("page", 2).containsEntry("text", REPORT_PAGE_2);
        assertThat(documentText("report").substring((int) onPage2.get("start"), (int) onPage2.get("end"))).isEqualTo(REPORT_PAGE_2);

        JsonPath view = given().queryParam("collection", COLLECTION).get("/api/documents/report/text").then().statusCode(200)
                .extract().jsonPath();
        assertThat(view.getString("version")).isEqualTo("v1");
        assertThat(view.getList("pages.page")).containsExactly(1, 2);
        JsonPath handbook = given().queryParam("collection", COLLECTION).get("/api/documents/handbook/text").then().extract().jsonPath();
        assertThat(handbook.getList("headings.path")).containsExactly(List.of("Handbook"), List.of("Handbook", "Refunds"),
                List.of("Handbook", "Support"));
    }

    @Test
    void anExtractiveAnswerCitesTheExactSentenceItQuotes() {
        JsonPath answer = ask("How long do refunds take?");
        // the first ask of a JVM on a loaded machine may miss the search's deadline (degraded, no spans): ask again
        for (int attempt = 0; attempt < 5 && answer.getList("degraded") != null; attempt++) {
            answer = ask("How long do refunds take?");
        }
        assertThat(answer.getList("degraded")).isNull();
        assertThat(answer.getString("mode")).isEqualTo("extractive");
        assertThat(answer.getString("answer")).contains("Refunds take fourteen days. [1]");
        Map<String, Object> cited = answer.getMap("sources[0].spans[0]");
        assertThat(cited).containsEntry("text", "Refunds take fourteen days.").containsEntry("version", "v1");
        assertThat(documentText("handbook").substring((int) cited.get("start"), (int) cited.get("end")))
                .isEqualTo("Refunds take fourteen days.");
    }

    @Test
    void aSpanOfAReplacedVersionIsStaleNeverWrong() {
        String changed = "# Policy\n\nThis text replaced the old one: nothing is where it was.";
        new Neo4jDocumentTexts(driver).put(new DocumentText(COLLECTION, "stale-doc", "v1", "Ferrets sleep eighteen hours a day.",
                List.of(), List.of(), List.of(new DocumentText.ChunkSpan(0, 0, 35))));
        new OpenSearchLexicalIndex(openSearch, true).upsert(List.of(new IndexedChunk(COLLECTION, "stale-doc", COLLECTION + "/stale-doc#0", 0,
                "Ferrets", "file:///stale-doc", List.of(), "Ferrets sleep eighteen hours a day.", null, null)));
        assertThat(search("ferrets sleep").getMap("results[0].spans[0]")).containsEntry("start", 0).doesNotContainKey("stale");

        // the text moved on to v2 while the index still holds v1's chunk (a re-ingest half way)
        new Neo4jDocumentTexts(driver).put(new DocumentText(COLLECTION, "stale-doc", "v2", changed, List.of(), List.of(),
                List.of(new DocumentText.ChunkSpan(0, 0, changed.length()))));
        Map<String, Object> stale = search("ferrets sleep").getMap("results[0].spans[0]");
        assertThat(stale).containsEntry("stale", true).containsEntry("version", "v2").doesNotContainKey("start");
        assertThat((String) stale.get("reason")).contains("another version");

        given().queryParam("collection", COLLECTION).queryParam("version", "v1").get("/api/documents/stale-doc/text").then()
                .statusCode(409).body("error", equalTo("stale")).body("message", containsString("replaced by version 'v2'"));
        given().queryParam("collection", COLLECTION).queryParam("version", "v2").get("/api/documents/stale-doc/text").then()
                .statusCode(200).body("text", equalTo(changed));
    }

    /** Issue 68: a hit whose document has no text kept (stored before texts were) says so in its span; the control has offsets. */
    @Test
    void aHitWhoseDocumentHasNoTextSaysWhyItHasNoSpan() {
        new OpenSearchLexicalIndex(openSearch, true).upsert(List.of(new IndexedChunk(COLLECTION, "textless", COLLECTION + "/textless#0", 0,
                "Okapis", "file:///textless", List.of(), "Okapis are relatives of the giraffe.", null, null)));
        // on a loaded machine the texts may miss the search's deadline (degraded: spans, a reason of its own): ask again
        JsonPath okapis = search("okapis giraffe");
        for (int attempt = 0; attempt < 5 && okapis.getList("degraded") != null; attempt++) {
            assertThat(okapis.getString("results[0].spans[0].reason")).isEqualTo(dev.openrag.query.cite.Spans.TEXTS_UNAVAILABLE);
            okapis = search("okapis giraffe");
        }
        assertThat(okapis.getString("results[0].documentId")).isEqualTo("textless");
        Map<String, Object> why = okapis.getMap("results[0].spans[0]");
        assertThat(why).doesNotContainKey("start").doesNotContainKey("stale");
        assertThat((String) why.get("reason")).contains("no text is kept for this document");
        assertThat(okapis.getList("degraded")).as("nothing degraded: the text is missing, not late").isNull();

        Map<String, Object> control = search("refunds Zürich").getMap("results[0].spans[0]");
        assertThat(control).containsKey("start").doesNotContainKey("reason");
    }

    @Test
    void badTextRequestsAreClearErrors() {
        given().queryParam("collection", COLLECTION).get("/api/documents/no-such-doc/text").then().statusCode(404)
                .body("message", containsString("no text of document 'no-such-doc'"));
        given().get("/api/documents/handbook/text").then().statusCode(404); // the default collection has no such document
        given().queryParam("collection", "Not A Collection!").get("/api/documents/handbook/text").then().statusCode(400);
        given().queryParam("collection", "other-collection").get("/api/documents/handbook/text").then().statusCode(404);
    }

    /**
     * Issue 72: spans cut from the chunks' stored places are those worked out from the whole fixture texts
     * ({@link #expectedSpan}), as are those a collection stored before places were still gets (read
     * whole); once placed (reindex), it reads none.
     */
    @Test
    void spansFromPlacesAreThoseOfTheWholeTextsWhichOldDocumentsStillGet() {
        List<String> queries = List.of("refunds Zürich", "café team", "support ticket", "invoice backlog", "quarterly revenue region");
        for (String query : queries) {
            int readsBefore = CountedDocumentTexts.READS.get();
            JsonPath placed = search(query);
            assertThat(CountedDocumentTexts.READS.get() - readsBefore).as("whole texts read for " + query).isZero();
            JsonPath old = search(OLD_COLLECTION, query);
            assertThat(CountedDocumentTexts.READS.get() - readsBefore).as("the old collection's texts are read whole").isPositive();
            assertThat(placed.getList("results.spans")).as(query).isNotEmpty().isEqualTo(expectedSpans(placed));
            assertThat(old.getList("results.spans")).as(query + ", read whole").isNotEmpty().isEqualTo(expectedSpans(old));
        }
        assertThat(search("invoice backlog").getMap("results[0].spans[0]")).as("the oracle's page on a PDF's second page")
                .containsEntry("page", 2);
        JsonPath before = search(OLD_COLLECTION, "invoice backlog");

        assertThat(new Neo4jDocumentTexts(driver).placeMissing(OLD_COLLECTION)).contains("handbook", "report");
        assertThat(new Neo4jDocumentTexts(driver).placeMissing(OLD_COLLECTION)).as("placed once").isEmpty();
        int readsBefore = CountedDocumentTexts.READS.get();
        assertThat(search(OLD_COLLECTION, "invoice backlog").getList("results.spans")).isEqualTo(before.getList("results.spans"))
                .isEqualTo(expectedSpans(before));
        assertThat(CountedDocumentTexts.READS.get() - readsBefore).as("placed: no whole text read").isZero();
    }

    /** A whole text read past the search's deadline costs the hits their spans, never the metadata read with the places. */
    @Test
    void aLateWholeTextCostsTheSpansNotTheMetadataReadBeforeIt() {
        String collection = "citations-late-texts";
        seed(collection);
        withoutPlaces(collection);
        new dev.openrag.knowledge.neo4j.Neo4jDocumentMetadata(driver).replaceMetadata(collection, "report", Map.of("team", "finance"));
        java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1);
        CountedDocumentTexts.HOLD_WHOLE_TEXTS = held;
        JsonPath late;
        try {
            late = search(collection, "invoice backlog");
        } finally {
            CountedDocumentTexts.HOLD_WHOLE_TEXTS = null;
            held.countDown();
        }
        assertThat(late.getList("degraded", String.class)).contains("spans").doesNotContain("metadata");
        assertThat(late.getString("results[0].documentId")).isEqualTo("report");
        assertThat(late.getString("results[0].metadata.team")).isEqualTo("finance");
        // control: on time, the same search has both (asked again while a loaded JVM's first read may be late)
        JsonPath onTime = search(collection, "invoice backlog");
        for (int attempt = 0; attempt < 5 && onTime.getList("degraded") != null; attempt++) {
            onTime = search(collection, "invoice backlog");
        }
        assertThat(onTime.getList("degraded")).isNull();
        assertThat(onTime.getString("results[0].metadata.team")).isEqualTo("finance");
        assertThat(onTime.getList("results[0].spans")).isNotEmpty();
    }

    /** Issue 72: a hit in a document of several megabytes is cited from its chunk's place; its text is never read. */
    @Test
    void aHitInAHugeDocumentIsCitedWithoutReadingItsText() {
        StringBuilder text = new StringBuilder();
        List<Page> pages = new ArrayList<>();
        List<Heading> headings = new ArrayList<>();
        String chunk = "Narwhals grow a single spiral tusk that can reach three metres.";
        int chunkStart = -1;
        for (int page = 1; page <= 1_500; page++) {
            int start = text.length();
            headings.add(new Heading(2, "Chapter " + page, start));
            text.append("Chapter ").append(page).append("\n\n").append("Filler prose about nothing in particular. ".repeat(80));
            if (page == 900) {
                chunkStart = text.length();
                text.append(chunk).append(' ');
            }
            pages.add(new Page(page, start, text.length()));
        }
        assertThat(text.length()).isGreaterThan(5_000_000);
        new Neo4jDocumentTexts(driver).put(new DocumentText(COLLECTION, "atlas", "v1", text.toString(), pages, headings,
                List.of(new DocumentText.ChunkSpan(7, chunkStart, chunkStart + chunk.length()))));
        new OpenSearchLexicalIndex(openSearch, true).upsert(List.of(new IndexedChunk(COLLECTION, "atlas", COLLECTION + "/atlas#7", 7,
                "Atlas", "file:///atlas", List.of(), chunk, null, null)));

        int readsBefore = CountedDocumentTexts.READS.get();
        long charsBefore = CountedDocumentTexts.CHARS.get();
        JsonPath narwhals = search("narwhals spiral tusk");
        assertThat(narwhals.getString("results[0].documentId")).isEqualTo("atlas");
        assertThat(narwhals.getMap("results[0].spans[0]")).containsEntry("start", chunkStart)
                .containsEntry("end", chunkStart + chunk.length()).containsEntry("text", chunk).containsEntry("page", 900)
                .containsEntry("headingPath", List.of("Chapter 900"));
        assertThat(CountedDocumentTexts.READS.get() - readsBefore).as("whole texts read").isZero();
        assertThat(CountedDocumentTexts.CHARS.get() - charsBefore).as("characters of text read").isZero();
        assertThat(text.substring(chunkStart, chunkStart + chunk.length())).isEqualTo(chunk);
    }

    /** Issue 72: offsets stored outside their text give a span without offsets that says so, placed or read whole; never an error. */
    @Test
    void offsetsOutsideTheTextGiveASpanThatSaysWhy() {
        for (String collection : List.of(COLLECTION, OLD_COLLECTION)) {
            String chunk = "Wombats leave cube shaped droppings.";
            new Neo4jDocumentTexts(driver).put(new DocumentText(collection, "wombats", "v1", chunk, List.of(), List.of(),
                    List.of(new DocumentText.ChunkSpan(0, 10, 10 + chunk.length()))));
            new OpenSearchLexicalIndex(openSearch, true).upsert(List.of(new IndexedChunk(collection, "wombats", collection + "/wombats#0", 0,
                    "Wombats", "file:///wombats", List.of(), chunk, null, null)));
            if (collection.equals(OLD_COLLECTION)) {
                withoutPlaces(collection);
            }
            Map<String, Object> why = search(collection, "wombats cube droppings").getMap("results[0].spans[0]");
            assertThat(why).as(collection).doesNotContainKey("start").containsEntry("reason", dev.openrag.query.cite.Spans.OUT_OF_RANGE)
                    .containsEntry("version", "v1");
        }
    }

    /**
     * Issue 72: a hit on a chunk its document's text does not hold (a pre-made chunk, here an OpenAPI
     * operation rendered from a spec of several megabytes) is cited from its place elsewhere, without the
     * text being read, as the whole text said (the control: the same chunk of a spec stored before places
     * were, read whole). A hit from another version, on that chunk's index or on one the version does not
     * have, is stale, also without a read.
     */
    @Test
    void aHitOnAChunkTheHugeTextDoesNotHoldReadsNoText() {
        String rendered = "GET /capybaras: lists the capybaras of the zoo, the largest rodents alive.";
        String otherVersion = "GET /capybaras: lists the capybaras of the old zoo, the largest rodents alive.";
        DocumentText.Elsewhere capybaras = new DocumentText.Elsewhere(3, dev.openrag.knowledge.browse.ChunkPlace.hash(rendered));
        String huge = spec(6_000_000);
        assertThat(huge.indexOf(rendered)).isNegative();
        new Neo4jDocumentTexts(driver).put(new DocumentText(COLLECTION, "zoo-api", "v1", huge, List.of(), List.of(),
                List.of(new DocumentText.ChunkSpan(0, 0, 14)), List.of(capybaras)));
        new Neo4jDocumentTexts(driver).put(new DocumentText(COLLECTION, "zoo-api-stale", "v2", spec(2_000), List.of(), List.of(),
                List.of(), List.of(capybaras)));
        new Neo4jDocumentTexts(driver).put(new DocumentText(OLD_COLLECTION, "zoo-api", "v1", spec(2_000), List.of(), List.of(),
                List.of(new DocumentText.ChunkSpan(0, 0, 14)), List.of(capybaras)));
        withoutPlaces(OLD_COLLECTION);
        for (String collection : List.of(COLLECTION, OLD_COLLECTION)) {
            new OpenSearchLexicalIndex(openSearch, true).upsert(List.of(
                    new IndexedChunk(collection, "zoo-api", collection + "/zoo-api#3", 3, "Zoo", "file:///zoo-api", List.of(), rendered,
                            null, null),
                    new IndexedChunk(collection, "zoo-api-stale", collection + "/zoo-api-stale#3", 3, "Zoo", "file:///zoo-api", List.of(),
                            otherVersion, null, null)));
        }

        int readsBefore = CountedDocumentTexts.READS.get();
        long charsBefore = CountedDocumentTexts.CHARS.get();
        JsonPath found = searchUndegraded(COLLECTION, "capybaras largest rodents zoo");
        assertThat(CountedDocumentTexts.READS.get() - readsBefore).as("whole texts read").isZero();
        assertThat(CountedDocumentTexts.CHARS.get() - charsBefore).as("characters of text read").isZero();
        Map<String, Object> premade = spanOf(found, COLLECTION + "/zoo-api#3");
        assertThat(premade).doesNotContainKey("start").doesNotContainKey("stale").containsEntry("version", "v1");
        assertThat((String) premade.get("reason")).contains("pre-made chunk");
        Map<String, Object> stale = spanOf(found, COLLECTION + "/zoo-api-stale#3");
        assertThat(stale).doesNotContainKey("start").containsEntry("stale", true).containsEntry("version", "v2");

        // the control: the same chunk of a spec stored before places were gives the same span, read whole
        JsonPath old = searchUndegraded(OLD_COLLECTION, "capybaras largest rodents zoo");
        assertThat(CountedDocumentTexts.READS.get() - readsBefore).as("the old collection's text is read whole").isPositive();
        assertThat(spanOf(old, OLD_COLLECTION + "/zoo-api#3")).isEqualTo(premade);

        // a hit on a chunk index the version does not have: of another version, no text read
        new OpenSearchLexicalIndex(openSearch, true).upsert(List.of(new IndexedChunk(COLLECTION, "zoo-api", COLLECTION + "/zoo-api#9", 9,
                "Zoo", "file:///zoo-api", List.of(), "GET /tapirs: lists the tapirs of the zoo.", null, null)));
        readsBefore = CountedDocumentTexts.READS.get();
        Map<String, Object> gone = spanOf(searchUndegraded(COLLECTION, "tapirs zoo"), COLLECTION + "/zoo-api#9");
        assertThat(gone).doesNotContainKey("start").containsEntry("stale", true).containsEntry("version", "v1");
        assertThat(CountedDocumentTexts.READS.get() - readsBefore).as("whole texts read").isZero();
    }

    /** An OpenAPI spec of about {@code length} characters. */
    private static String spec(int length) {
        StringBuilder spec = new StringBuilder("openapi: 3.0.3\ninfo:\n  title: Zoo\npaths:\n");
        for (int path = 0; spec.length() < length; path++) {
            spec.append("  /animals/").append(path).append(":\n    get:\n      summary: Reads animal ").append(path)
                    .append("\n      responses:\n        '200':\n          description: the animal\n");
        }
        return spec.toString();
    }

    /** A search, asked again while a loaded machine makes its texts miss the deadline ({@code degraded}). */
    private static JsonPath searchUndegraded(String collection, String query) {
        JsonPath found = search(collection, query);
        for (int attempt = 0; attempt < 5 && found.getList("degraded") != null; attempt++) {
            found = search(collection, query);
        }
        assertThat(found.getList("degraded")).isNull();
        return found;
    }

    /** The span of the search's hit on chunk {@code chunkId}. */
    private static Map<String, Object> spanOf(JsonPath found, String chunkId) {
        List<String> chunks = found.getList("results.chunkId");
        assertThat(chunks).contains(chunkId);
        return found.getMap("results[" + chunks.indexOf(chunkId) + "].spans[0]");
    }
}
