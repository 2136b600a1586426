package dev.openrag.ingest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Calendar;
import java.util.Comparator;
import java.util.GregorianCalendar;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.stream.Stream;

import jakarta.inject.Inject;

import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDDocumentInformation;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.PersonIdent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Value;
import org.opensearch.client.opensearch.OpenSearchClient;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.openrag.ingest.source.sync.JGitDefaults;
import dev.openrag.knowledge.filter.DocumentFilters;
import dev.openrag.knowledge.port.IndexedChunk;
import dev.openrag.knowledge.port.LexicalIndex;
import dev.openrag.knowledge.port.ScoredChunk;
import dev.openrag.localstack.test.LocalStackTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/**
 * Source fields and caller metadata from the ways in that read a source themselves (a PDF's own
 * properties through an upload, folder and git sync, crawls) on real Kafka, Neo4j and OpenSearch,
 * and updates that change only metadata: written into every store in place, never chunked or
 * embedded again (the job shows no chunk or embed stage, the Neo4j document and its vectors are the
 * ones written before), with a changed text and an identical re-upload as the controls.
 */
@QuarkusTest
@WithTestResource(LocalStackTestResource.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SourceMetadataTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    Driver driver;

    @Inject
    OpenSearchClient openSearch;

    @Inject
    LexicalIndex lexical;

    private CrawlTestSite site;
    private Path folder;

    @BeforeAll
    void startSite() throws IOException {
        site = new CrawlTestSite(6000);
    }

    @AfterAll
    void stopSite() {
        site.close();
    }

    @BeforeEach
    void folder() throws IOException {
        JGitDefaults.use(); // the repositories made here, as the app reads them: not through the machine's git settings
        folder = Files.createTempDirectory("openrag-meta-");
    }

    @AfterEach
    void removeFolder() throws IOException {
        try (Stream<Path> walk = Files.walk(folder)) {
            walk.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }

    @Test
    void anUploadedPdfCarriesItsOwnTitleAuthorAndTimesBesideTheFileFields() throws Exception {
        String collection = "meta-pdf";
        byte[] pdf = pdf("Axolotl care", "Ada Lovelace", Instant.parse("2024-05-06T07:08:09Z"), Instant.parse("2025-01-02T03:04:05Z"),
                "Axolotls need cold water and a quiet tank.");
        String jobId = given().multiPart("collection", collection).multiPart("metadata", "{\"team\": \"lab\"}", "application/json")
                .multiPart("files", "Care.PDF", pdf, "application/pdf").post("/api/documents").then().statusCode(202).extract().path("jobId");
        assertThat(IngestTestSupport.awaitJob(jobId, TIMEOUT).getString("state")).isEqualTo("completed");

        Map<String, Value> node = node(collection, "upload://Care.PDF");
        assertThat(strings(node, "title")).containsExactly("Axolotl care");
        assertThat(strings(node, "author")).containsExactly("Ada Lovelace");
        assertThat(date(node, "created")).isEqualTo(Instant.parse("2024-05-06T07:08:09Z"));
        assertThat(date(node, "modified")).isEqualTo(Instant.parse("2025-01-02T03:04:05Z"));
        assertThat(strings(node, "fileName")).containsExactly("Care.PDF");
        assertThat(strings(node, "extension")).as("lower case").containsExactly("pdf");
        assertThat(strings(node, "mediaType")).containsExactly("application/pdf");
        assertThat(strings(node, "team")).containsExactly("lab");
        assertThat(words(collection, "axolotls", "{\"author\": \"Ada Lovelace\", \"created\": {\"lt\": \"2025-01-01\"}}")).hasSize(1);
        assertThat(words(collection, "axolotls", "{\"author\": \"Ada Lovelace\", \"created\": {\"gte\": \"2025-01-01\"}}"))
                .as("control: a range it is outside of").isEmpty();
    }

    @Test
    void aReuploadThatChangesOnlyMetadataUpdatesEveryStoreWithoutEmbeddingAgain() {
        String collection = "meta-only";
        String text = "# Runbook\nRestart the okapi queue consumer, then check the lag.";
        JsonPath first = upload(collection, text, Map.of("team", "payments", "tier", 1));
        assertThat(stageDone(first, "embed")).isEqualTo(1);
        Map<String, Value> before = node(collection, "notes://runbook");
        List<Object> vectorsBefore = vectors(collection, "notes://runbook");

        JsonPath second = upload(collection, text, Map.of("team", "risk", "tier", 2, "tags", List.of("oncall")));
        assertThat(second.getString("state")).isEqualTo("completed");
        assertThat(stageDone(second, "chunk")).as("not chunked again").isZero();
        assertThat(stageDone(second, "embed")).as("not embedded again").isZero();
        assertThat(second.getList("warnings.message", String.class)).anyMatch(m -> m.contains("only its metadata was updated"));
        Map<String, Value> after = node(collection, "notes://runbook");
        assertThat(strings(after, "team")).containsExactly("risk");
        assertThat(after.get("meta_n_tier").asLong()).isEqualTo(2);
        assertThat(strings(after, "tags")).containsExactly("oncall");
        assertThat(strings(after, "title")).as("the source fields parsing found stay").containsExactly("Runbook");
        assertThat(after.get("updatedAt")).as("the document was not written again").isEqualTo(before.get("updatedAt"));
        assertThat(vectors(collection, "notes://runbook")).isEqualTo(vectorsBefore);
        assertThat(words(collection, "okapi", "{\"team\": \"risk\", \"tier\": {\"gte\": 2}}")).as("OpenSearch has the new metadata").hasSize(1);
        assertThat(words(collection, "okapi", "{\"team\": \"payments\"}")).as("and not the old").isEmpty();

        JsonPath same = upload(collection, text, Map.of("team", "risk", "tier", 2, "tags", List.of("oncall")));
        assertThat(stageDone(same, "embed")).as("control: an identical re-upload goes the whole way, as before").isEqualTo(1);
        JsonPath edited = upload(collection, text + " Then page the on-call engineer.", Map.of("team", "risk"));
        assertThat(stageDone(edited, "embed")).as("control: a changed text is embedded again").isEqualTo(1);
        assertThat(words(collection, "engineer", "{\"team\": \"risk\"}")).hasSize(1);
        assertThat(strings(node(collection, "notes://runbook"), "tags")).as("what the new version leaves out is gone").isEmpty();
    }

    /**
     * A version that changes only metadata right behind one still going through the pipeline: in
     * place, it would overtake the older one, whose write would then put back its text and metadata.
     * It goes behind it instead, and every store ends with the newest text and metadata. Both
     * neighbours: a revert of the text with new metadata, and new metadata on the new text.
     */
    @Test
    void aMetadataOnlyVersionBehindAnUnfinishedOneEndsNewestInEveryStore() {
        String collection = "meta-race";
        String original = "# Runbook\nRestart the quokka consumer, then check the lag.";
        // long enough to be still embedding when the version behind it is parsed (one chunk per section)
        StringBuilder sections = new StringBuilder(original + " Then page the wombat on call.");
        for (int i = 0; i < 120; i++) {
            sections.append("\n\n# Step ").append(i).append("\n\nStep ").append(i).append(" of the wombat drill: check consumer ")
                    .append(i).append(", its partitions and its lag before moving on to the next one.");
        }
        String edited = sections.toString();
        upload(collection, original, Map.of("team", "payments"));
        Object originalHash = node(collection, "notes://runbook").get("contentHash").asString();

        // the edit, and right behind it the original text again with new metadata (a revert and a relabel)
        String editJob = post(collection, edited, Map.of("team", "payments"));
        String revertJob = post(collection, original, Map.of("team", "risk", "tier", 3));
        assertThat(IngestTestSupport.awaitJob(editJob, TIMEOUT).getString("state")).isEqualTo("completed");
        JsonPath revert = IngestTestSupport.awaitJob(revertJob, TIMEOUT);
        assertThat(revert.getString("state")).isEqualTo("completed");
        assertThat(stageDone(revert, "embed")).as("it went the whole way, behind the edit").isEqualTo(1);

        Map<String, Value> node = node(collection, "notes://runbook");
        assertThat(node.get("contentHash").asString()).as("Neo4j: the original text again").isEqualTo(originalHash);
        assertThat(strings(node, "team")).containsExactly("risk");
        assertThat(node.get("meta_n_tier").asLong()).isEqualTo(3);
        assertThat(chunkTexts(collection)).as("Neo4j chunks: the newest text").noneMatch(text -> text.contains("wombat"))
                .anyMatch(text -> text.contains("quokka"));
        assertThat(words(collection, "wombat", "{}")).as("OpenSearch: the edit's text is gone").isEmpty();
        assertThat(words(collection, "quokka", "{\"team\": \"risk\", \"tier\": 3}")).as("OpenSearch: newest metadata").hasSize(1);
        assertThat(words(collection, "quokka", "{\"team\": \"payments\"}")).as("and not the edit's").isEmpty();

        // the other neighbour: a new text, then right behind it only its metadata changed
        editJob = post(collection, edited, Map.of("team", "payments"));
        String relabelJob = post(collection, edited, Map.of("team", "ops"));
        assertThat(IngestTestSupport.awaitJob(editJob, TIMEOUT).getString("state")).isEqualTo("completed");
        assertThat(IngestTestSupport.awaitJob(relabelJob, TIMEOUT).getString("state")).isEqualTo("completed");
        assertThat(strings(node(collection, "notes://runbook"), "team")).containsExactly("ops");
        assertThat(words(collection, "wombat", "{\"team\": \"ops\"}")).hasSize(1);
        assertThat(words(collection, "wombat", "{\"team\": \"payments\"}")).isEmpty();

        // control: once nothing is on its way, a metadata-only change is again an update in place
        JsonPath inPlace = upload(collection, edited, Map.of("team", "sre"));
        assertThat(stageDone(inPlace, "embed")).isZero();
        assertThat(inPlace.getList("warnings.message", String.class)).anyMatch(m -> m.contains("only its metadata was updated"));
        assertThat(words(collection, "wombat", "{\"team\": \"sre\"}")).hasSize(1);
    }

    /**
     * A version that fails (a corrupt PDF, dead-lettered by parsing) never entered the pipeline, so it
     * holds back no later update: the next metadata-only version of the stored file is an update in
     * place, as without it.
     */
    @Test
    void aVersionThatFailsToParseDoesNotHoldBackALaterMetadataOnlyUpdate() throws Exception {
        String collection = "meta-race-bad";
        byte[] pdf = pdf("Heron log", "Ada Lovelace", Instant.parse("2024-05-06T07:08:09Z"), Instant.parse("2025-01-02T03:04:05Z"),
                "Herons wade in shallow water.");
        assertThat(stageDone(uploadFile(collection, "heron.pdf", pdf, "{\"team\": \"lab\"}"), "embed")).isEqualTo(1);

        JsonPath corrupt = uploadFile(collection, "heron.pdf", "%PDF-1.7 not really a PDF".getBytes(StandardCharsets.US_ASCII),
                "{\"team\": \"broken\"}");
        assertThat(corrupt.getString("state")).as(corrupt.prettify()).isIn("failed", "completed_with_errors");
        assertThat(strings(node(collection, "upload://heron.pdf"), "team")).as("the stored version stays").containsExactly("lab");

        JsonPath relabel = uploadFile(collection, "heron.pdf", pdf, "{\"team\": \"field\"}");
        assertThat(stageDone(relabel, "embed")).as("updated in place").isZero();
        assertThat(strings(node(collection, "upload://heron.pdf"), "team")).containsExactly("field");
        assertThat(words(collection, "herons", "{\"team\": \"field\"}")).hasSize(1);
        assertThat(words(collection, "herons", "{\"team\": \"broken\"}")).isEmpty();
    }

    /**
     * A collection holds at most Metadata.MAX_COLLECTION_FIELDS metadata fields (a key once per kind of
     * value). Filled to the limit, a document bringing one more (a new key, or a known key with a new
     * kind) is refused at parsing with the reason in its job, and no store has any of it; an update in
     * place that would add one is refused the same way; a document with the collection's own keys
     * still goes in.
     */
    @Test
    void aCollectionFullOfMetadataKeysRefusesAnotherWithItsReasonAndTakesItsOwnKeys() throws Exception {
        String collection = "meta-keys";
        JsonPath first = postDocument(collection, "notes://first", "The first capybara note.", Map.of("k0", "x"));
        assertThat(first.getString("state")).isEqualTo("completed");
        fillTo(collection, dev.openrag.schemas.Metadata.MAX_COLLECTION_FIELDS);

        JsonPath newKey = postDocument(collection, "notes://new-key", "A wombat note with a new key.", Map.of("k1", "x", "brandNew", "y"));
        assertThat(newKey.getString("state")).isEqualTo("failed");
        assertThat(newKey.getString("failures[0].reason")).contains("at most " + dev.openrag.schemas.Metadata.MAX_COLLECTION_FIELDS)
                .contains("brandNew (text)").doesNotContain("k1 (");
        JsonPath newKind = postDocument(collection, "notes://new-kind", "A quoll note with a number.", Map.of("k1", 5));
        assertThat(newKind.getString("failures[0].reason")).as("a known key with another kind is a new field").contains("k1 (number)");
        assertThat(documentNodes(collection, "notes://new-key")).as("no store has any of it").isZero();
        assertThat(words(collection, "wombat", "{}")).isEmpty();
        assertThat(mappedMetadataFields(collection)).isEqualTo(dev.openrag.schemas.Metadata.MAX_COLLECTION_FIELDS);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> lexical.upsert(List.of(new IndexedChunk(collection, "direct", collection + "/direct#0",
                0, "Direct", "notes://direct", List.of(), "direct", "direct", null, Map.of("another", "x")))))
                .as("the index refuses it too").isInstanceOf(IllegalArgumentException.class).hasMessageContaining("another (text)");

        // controls: the collection's own keys, and an update in place within them, still go in
        JsonPath own = postDocument(collection, "notes://own", "A numbat note with known keys.", Map.of("k1", "x", "k2", "y"));
        assertThat(own.getString("state")).as(own.prettify()).isEqualTo("completed");
        assertThat(words(collection, "numbat", "{\"k2\": \"y\"}")).hasSize(1);
        JsonPath relabel = postDocument(collection, "notes://own", "A numbat note with known keys.", Map.of("k1", "z"));
        assertThat(relabel.getList("warnings.message", String.class)).anyMatch(m -> m.contains("only its metadata was updated"));
        assertThat(words(collection, "numbat", "{\"k1\": \"z\"}")).hasSize(1);
        JsonPath grow = postDocument(collection, "notes://own", "A numbat note with known keys.", Map.of("k1", "z", "grown", "x"));
        assertThat(grow.getString("state")).isEqualTo("failed");
        assertThat(grow.getString("failures[0].reason")).contains("grown (text)");
        assertThat(words(collection, "numbat", "{\"k1\": \"z\"}")).as("the stored version stays").hasSize(1);
    }

    /**
     * Documents near the limit sent together are parsed one after another before any is indexed: each
     * reserves its new keys when parsed, so the one past the room left is refused at parsing, with the
     * reason, and no store has any of it, while the one let in is in every store.
     */
    @Test
    void documentsSentTogetherNearTheLimitAreRefusedAtParsingPastTheRoomLeft() throws Exception {
        String collection = "meta-keys-batch";
        JsonPath first = postDocument(collection, "notes://batch-first", "The first bilby note.", Map.of("k0", "x"));
        assertThat(first.getString("state")).isEqualTo("completed");
        fillTo(collection, dev.openrag.schemas.Metadata.MAX_COLLECTION_FIELDS - 1);

        List<String> jobs = new java.util.ArrayList<>();
        for (String animal : List.of("dingo", "galah", "quokka")) {
            jobs.add(given().contentType(ContentType.JSON).body(Map.of("collection", collection, "uri", "notes://batch-" + animal,
                    "title", "Note", "text", "A " + animal + " note with a key of its own.", "metadata", Map.of(animal, "x")))
                    .post("/api/documents").then().statusCode(202).extract().path("jobId"));
        }
        List<JsonPath> done = jobs.stream().map(job -> IngestTestSupport.awaitJob(job, TIMEOUT)).toList();
        List<JsonPath> passed = done.stream().filter(job -> "completed".equals(job.getString("state"))).toList();
        List<JsonPath> refused = done.stream().filter(job -> "failed".equals(job.getString("state"))).toList();
        assertThat(passed).as("one had room").hasSize(1);
        assertThat(refused).hasSize(2);
        for (JsonPath job : refused) {
            assertThat(job.getString("failures[0].stage")).as(job.prettify()).isEqualTo("parse");
            assertThat(job.getString("failures[0].reason")).contains("at most " + dev.openrag.schemas.Metadata.MAX_COLLECTION_FIELDS);
            String uri = job.getString("failures[0].source");
            assertThat(documentNodes(collection, uri)).as("Neo4j has none of " + uri).isZero();
        }
        String passedUri = "notes://batch-" + List.of("dingo", "galah", "quokka").get(done.indexOf(passed.get(0)));
        assertThat(documentNodes(collection, passedUri)).isEqualTo(1);
        String animal = passedUri.substring("notes://batch-".length());
        assertThat(words(collection, animal, "{\"" + animal + "\": \"x\"}")).as("OpenSearch has it, its key filterable").hasSize(1);
        assertThat(mappedMetadataFields(collection)).isEqualTo(dev.openrag.schemas.Metadata.MAX_COLLECTION_FIELDS);
    }

    @Test
    void aSyncedFolderCarriesPathFieldsAndFileTimesAndAChangeOfOnlyMetadataIsAnUpdate() throws Exception {
        String collection = "meta-folder";
        write("docs/guide.md", "# Guide\nThe gnuguide word lives here.");
        write("notes.txt", "The ibisnotes word lives here.");
        Instant modified = Instant.parse("2025-03-04T05:06:07Z");
        Files.setLastModifiedTime(folder.resolve("docs/guide.md"), FileTime.from(modified));
        Map<String, Object> source = new HashMap<>(Map.of("type", "folder", "location", folder.toString(), "collection", collection,
                "metadata", Map.of("team", "docs", "tags", List.of("handbook", "public"))));
        String id = createSource(source);
        JsonPath first = runSource(id);
        assertThat(counts(first)).containsExactly(2, 0, 0, 0);

        String guideUri = folder.toRealPath() + "/docs/guide.md";
        Map<String, Value> guide = node(collection, guideUri);
        assertThat(strings(guide, "path")).containsExactly("docs/guide.md");
        assertThat(strings(guide, "fileName")).containsExactly("guide.md");
        assertThat(strings(guide, "extension")).containsExactly("md");
        assertThat(strings(guide, "sourceId")).containsExactly(id);
        assertThat(strings(guide, "mediaType")).containsExactly("text/markdown");
        assertThat(strings(guide, "title")).containsExactly("Guide");
        assertThat(date(guide, "modified")).isEqualTo(modified);
        assertThat(strings(guide, "team")).containsExactly("docs");
        assertThat(strings(guide, "tags")).containsExactly("handbook", "public");
        assertThat(words(collection, "gnuguide", "{\"path\": {\"prefix\": \"docs/\"}}")).hasSize(1);
        assertThat(words(collection, "ibisnotes", "{\"path\": {\"prefix\": \"docs/\"}}")).as("control: outside docs/").isEmpty();
        assertThat(words(collection, "ibisnotes", "{\"extension\": \"txt\", \"sourceId\": \"" + id + "\"}")).hasSize(1);
        Value guideWritten = guide.get("updatedAt");

        source.put("metadata", Map.of("team", "ops"));
        assertThat(createSource(source)).as("the same source, its metadata changed").isEqualTo(id);
        assertThat(given().get("/api/sources/" + id).then().statusCode(200).extract().jsonPath().getString("metadata.team")).isEqualTo("ops");
        JsonPath second = runSource(id);
        assertThat(counts(second)).as("both files republished for their metadata").containsExactly(0, 2, 0, 0);
        JsonPath job = IngestTestSupport.awaitJob(second.getString("jobId"), TIMEOUT);
        assertThat(stageDone(job, "embed")).as("neither embedded again").isZero();
        guide = node(collection, guideUri);
        assertThat(strings(guide, "team")).containsExactly("ops");
        assertThat(strings(guide, "tags")).as("dropped from the source: gone from its documents").isEmpty();
        assertThat(guide.get("updatedAt")).isEqualTo(guideWritten);
        assertThat(words(collection, "gnuguide", "{\"team\": \"ops\"}")).hasSize(1);

        Instant touched = Instant.parse("2026-02-03T04:05:06Z");
        Files.setLastModifiedTime(folder.resolve("notes.txt"), FileTime.from(touched));
        JsonPath third = runSource(id);
        assertThat(counts(third)).as("a touched file: its times changed, not its text").containsExactly(0, 1, 0, 1);
        assertThat(stageDone(IngestTestSupport.awaitJob(third.getString("jobId"), TIMEOUT), "embed")).isZero();
        assertThat(date(node(collection, folder.toRealPath() + "/notes.txt"), "modified")).isEqualTo(touched);
        assertThat(counts(runSource(id))).as("nothing changed: nothing published").containsExactly(0, 0, 0, 2);
    }

    @Test
    void badSourceAndCrawlMetadataAreA400NamingTheKeyAndAGoodOneBesideItIsTaken() {
        Map<String, Object> folderSource = Map.of("type", "folder", "location", folder.toString(), "collection", "meta-bad");
        List<Object[]> cases = List.of(
                new Object[] {Map.of("path", "docs/"), "'path' is a source field"},
                new Object[] {Map.of("commit", "abc"), "'commit' is a source field"},
                new Object[] {Map.of("host", "example.org"), "'host' is a source field"},
                new Object[] {Map.of("crawlId", "c1"), "'crawlId' is a source field"},
                new Object[] {Map.of("team", Map.of("name", "x")), "nested objects are not allowed"},
                new Object[] {Map.of("team", "x".repeat(1025)), "at most 1024"},
                new Object[] {Map.of("k".repeat(65), "x"), "at most 64"},
                new Object[] {Map.of("flag", false), "a boolean"},
                new Object[] {Map.of("tags", List.of("a", 2)), "lists hold strings only"},
                new Object[] {Map.of("in", "x"), "is a filter operator"});
        for (Object[] bad : cases) {
            Map<String, Object> request = new HashMap<>(folderSource);
            request.put("metadata", bad[0]);
            given().contentType(ContentType.JSON).body(request).post("/api/sources").then().statusCode(400)
                    .body("message", containsString((String) bad[1]));
            Map<String, Object> crawl = Map.of("seedUrls", List.of(site.url("/a")), "collection", "meta-bad", "maxDepth", 0,
                    "metadata", bad[0]);
            given().contentType(ContentType.JSON).body(crawl).post("/api/crawls").then().statusCode(400)
                    .body("message", containsString((String) bad[1]));
        }
        assertThat(given().get("/api/sources").then().statusCode(200).extract().jsonPath().getList("collection"))
                .as("no bad source was kept").doesNotContain("meta-bad");
        Map<String, Object> good = new HashMap<>(folderSource);
        good.put("metadata", Map.of("team", "payments", "year", 2026, "reviewed", "2026-03-01", "tags", List.of("a")));
        given().contentType(ContentType.JSON).body(good).post("/api/sources").then().statusCode(201)
                .body("metadata.reviewed", org.hamcrest.Matchers.equalTo("2026-03-01T00:00:00Z"));
    }

    @Test
    void eachFileOfAGitSourceCarriesItsOwnLastCommitItsAuthorAndItsTime() throws Exception {
        String collection = "meta-git";
        Instant when = Instant.parse("2025-06-07T08:09:10Z");
        Instant later = Instant.parse("2026-03-04T05:06:07Z");
        String commit;
        String second;
        try (Git git = Git.init().setDirectory(folder.toFile()).setInitialBranch("main").call()) {
            write("src/Main.java", "/** The tapirmain word. */\nclass Main {}\n");
            write("docs/notes.md", "The okapinotes word, first version.");
            git.add().addFilepattern(".").call();
            PersonIdent grace = new PersonIdent("Grace Hopper", "grace@example.org", when, ZoneOffset.UTC);
            commit = git.commit().setMessage("first").setAuthor(grace).setCommitter(grace).setSign(false).call().name();
            write("docs/notes.md", "The okapinotes word, second version.");
            git.add().addFilepattern(".").call();
            PersonIdent alan = new PersonIdent("Alan Turing", "alan@example.org", later, ZoneOffset.UTC);
            second = git.commit().setMessage("second").setAuthor(alan).setCommitter(alan).setSign(false).call().name();
        }
        String id = createSource(Map.of("type", "git", "location", folder.toString(), "collection", collection,
                "metadata", Map.of("team", "core")));
        assertThat(counts(runSource(id))).containsExactly(2, 0, 0, 0);
        Map<String, Value> main = node(collection, folder.toRealPath() + "/src/Main.java");
        assertThat(strings(main, "commit")).as("the file's own last commit, not the head").containsExactly(commit);
        assertThat(strings(main, "author")).containsExactly("Grace Hopper");
        assertThat(date(main, "modified")).isEqualTo(when);
        assertThat(strings(main, "path")).containsExactly("src/Main.java");
        assertThat(strings(main, "extension")).containsExactly("java");
        assertThat(strings(main, "sourceId")).containsExactly(id);
        assertThat(strings(main, "team")).containsExactly("core");
        Map<String, Value> notes = node(collection, folder.toRealPath() + "/docs/notes.md");
        assertThat(strings(notes, "commit")).containsExactly(second);
        assertThat(strings(notes, "author")).containsExactly("Alan Turing");
        assertThat(date(notes, "modified")).isEqualTo(later);
        assertThat(words(collection, "tapirmain", "{\"commit\": \"" + commit + "\", \"author\": \"Grace Hopper\"}")).hasSize(1);
        assertThat(words(collection, "tapirmain", "{\"commit\": \"" + "0".repeat(40) + "\"}")).as("control: another commit").isEmpty();
        String changedSince = "{\"modified\": {\"gte\": \"2026-01-01T00:00:00Z\"}}";
        assertThat(words(collection, "tapirmain", changedSince)).as("unchanged since the first commit").isEmpty();
        assertThat(words(collection, "okapinotes", changedSince)).as("control: changed in the later commit").hasSize(1);
    }

    @Test
    void crawledPagesCarryUrlHostAndTitleWithTheCrawlsMetadataAndARecrawlWithNewMetadataIsAnUpdate() {
        String collection = "meta-crawl";
        String url = site.url("/a");
        Map<String, Object> metadata = new HashMap<>(Map.of("team", "web"));
        for (int k = 1; k < dev.openrag.schemas.Metadata.MAX_KEYS; k++) {
            metadata.put("key" + k, "v" + k); // as many keys as a crawl may have: the crawler's crawlId comes on top
        }
        JsonPath first = crawl(collection, url, metadata);
        assertThat(stageDone(first, "embed")).as(first.prettify()).isEqualTo(1);
        Map<String, Value> page = node(collection, url);
        assertThat(strings(page, "crawlId")).hasSize(1);
        assertThat(strings(page, "key31")).containsExactly("v31");
        assertThat(strings(page, "url")).containsExactly(url);
        assertThat(strings(page, "host")).containsExactly("127.0.0.1");
        assertThat(strings(page, "title")).containsExactly("Alpha");
        assertThat(strings(page, "team")).containsExactly("web");
        assertThat(words(collection, "zebras", "{\"host\": \"127.0.0.1\", \"url\": {\"prefix\": \"http://127.0.0.1:\"}}")).hasSize(1);

        JsonPath second = crawl(collection, url, Map.of("team", "wiki"));
        assertThat(stageDone(second, "embed")).as("the page is the same: only its metadata is updated").isZero();
        assertThat(strings(node(collection, url), "team")).containsExactly("wiki");
        assertThat(words(collection, "zebras", "{\"team\": \"wiki\"}")).hasSize(1);
    }

    private JsonPath crawl(String collection, String url, Map<String, Object> metadata) {
        String crawlId = given().contentType(ContentType.JSON).body(Map.of("seedUrls", List.of(url), "collection", collection,
                "maxDepth", 0, "metadata", metadata)).post("/api/crawls").then().statusCode(202).extract().path("crawlId");
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        JsonPath status;
        do {
            IngestTestSupport.sleep(300);
            status = given().get("/api/crawls/" + crawlId).then().statusCode(200).extract().jsonPath();
            assertThat(System.nanoTime()).as("crawl ends: " + status.prettify()).isLessThan(deadline);
        } while ("running".equals(status.getString("state")));
        assertThat(status.getInt("pages.fetched")).as(status.prettify()).isEqualTo(1);
        return IngestTestSupport.awaitJob(status.getString("jobId"), TIMEOUT);
    }

    private JsonPath upload(String collection, String text, Map<String, Object> metadata) {
        String jobId = given().contentType(ContentType.JSON).body(Map.of("collection", collection, "uri", "notes://runbook",
                "title", "Runbook", "text", text, "metadata", metadata)).post("/api/documents").then().statusCode(202).extract().path("jobId");
        JsonPath job = IngestTestSupport.awaitJob(jobId, TIMEOUT);
        assertThat(job.getString("state")).as(job.prettify()).isEqualTo("completed");
        return job;
    }

    /** Sends a version of notes://runbook without waiting for its job. */
    private static String post(String collection, String text, Map<String, Object> metadata) {
        return given().contentType(ContentType.JSON).body(Map.of("collection", collection, "uri", "notes://runbook",
                "title", "Runbook", "text", text, "metadata", metadata)).post("/api/documents").then().statusCode(202).extract().path("jobId");
    }

    private static JsonPath uploadFile(String collection, String name, byte[] bytes, String metadata) {
        String jobId = given().multiPart("collection", collection).multiPart("metadata", metadata, "application/json")
                .multiPart("files", name, bytes, "application/pdf").post("/api/documents").then().statusCode(202).extract().path("jobId");
        return IngestTestSupport.awaitJob(jobId, TIMEOUT);
    }

    private List<String> chunkTexts(String collection) {
        return driver.executableQuery("MATCH (ch:Chunk {collection: $c}) WHERE ch.text IS NOT NULL RETURN ch.text AS t")
                .withParameters(Map.of("c", collection)).execute().records().stream().map(r -> r.get("t").asString()).toList();
    }

    private static JsonPath postDocument(String collection, String uri, String text, Map<String, Object> metadata) {
        String jobId = given().contentType(ContentType.JSON).body(Map.of("collection", collection, "uri", uri,
                "title", "Note", "text", text, "metadata", metadata)).post("/api/documents").then().statusCode(202).extract().path("jobId");
        return IngestTestSupport.awaitJob(jobId, TIMEOUT);
    }

    /** Fills the collection's metadata fields up to {@code fields} with text keys of filler documents written into OpenSearch. */
    private void fillTo(String collection, int fields) throws IOException {
        int room = fields - mappedMetadataFields(collection);
        List<IndexedChunk> filler = new java.util.ArrayList<>();
        for (int start = 1; start <= room; start += dev.openrag.schemas.Metadata.MAX_KEYS) {
            Map<String, Object> keys = new HashMap<>();
            for (int k = start; k < Math.min(start + dev.openrag.schemas.Metadata.MAX_KEYS, room + 1); k++) {
                keys.put("k" + k, "v");
            }
            filler.add(new IndexedChunk(collection, "filler-" + start, collection + "/filler-" + start + "#0", 0, "Filler",
                    "notes://filler", List.of(), "filler", "filler", null, keys));
        }
        lexical.upsert(filler);
        assertThat(mappedMetadataFields(collection)).as("filled").isEqualTo(fields);
    }

    /** The metadata fields the collection's index maps, read from OpenSearch itself. */
    private int mappedMetadataFields(String collection) throws IOException {
        String index = "openrag-chunks-" + collection;
        var properties = openSearch.indices().getMapping(g -> g.index(index)).result().get(index).mappings().properties();
        int fields = 0;
        for (String kind : List.of("meta_s", "meta_n", "meta_d", "meta_dl")) {
            if (properties.get(kind) != null && properties.get(kind).isObject()) {
                fields += properties.get(kind).object().properties().size();
            }
        }
        return fields;
    }

    private long documentNodes(String collection, String sourceUri) {
        return driver.executableQuery("MATCH (d:Document {collection: $c, sourceUri: $uri}) RETURN count(d) AS n")
                .withParameters(Map.of("c", collection, "uri", sourceUri)).execute().records().get(0).get("n").asLong();
    }

    private static int stageDone(JsonPath job, String stage) {
        Integer done = job.get("stages.'" + stage + "'.done");
        return done == null ? 0 : done;
    }

    /** The documents of the collection whose chunks hold {@code word}, within {@code filter} (BM25 in OpenSearch, filtered in the query). */
    private List<String> words(String collection, String word, String filter) {
        try {
            return lexical.search(collection, word, 10, DocumentFilters.parse(JSON.readTree(filter))).stream()
                    .map(ScoredChunk::chunk).filter(chunk -> chunk.text().toLowerCase(java.util.Locale.ROOT).contains(word)).map(chunk -> chunk.documentId()).distinct().toList();
        } catch (IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private Map<String, Value> node(String collection, String sourceUri) {
        List<Map<String, Value>> found = driver.executableQuery("MATCH (d:Document {collection: $c, sourceUri: $uri}) RETURN d")
                .withParameters(Map.of("c", collection, "uri", sourceUri)).execute().records().stream().map(r -> {
                    Map<String, Value> properties = new HashMap<>();
                    r.get("d").asNode().keys().forEach(k -> properties.put(k, r.get("d").asNode().get(k)));
                    return properties;
                }).toList();
        assertThat(found).as("document " + sourceUri + " in " + collection).hasSize(1);
        return found.get(0);
    }

    private List<Object> vectors(String collection, String sourceUri) {
        return driver.executableQuery("""
                        MATCH (d:Document {collection: $c, sourceUri: $uri})
                        MATCH (ch:Chunk {collection: $c, documentId: d.documentId})
                        RETURN ch.embedding AS v ORDER BY ch.chunkIndex""")
                .withParameters(Map.of("c", collection, "uri", sourceUri)).execute().records().stream()
                .map(r -> r.get("v").asObject()).toList();
    }

    private static List<String> strings(Map<String, Value> node, String key) {
        Value value = node.get("meta_s_" + key);
        return value == null || value.isNull() ? List.of() : value.asList(Value::asString);
    }

    private static Instant date(Map<String, Value> node, String key) {
        Value value = node.get("meta_d_" + key);
        assertThat(value).as("date " + key).isNotNull();
        return value.asZonedDateTime().toInstant();
    }

    private static String createSource(Map<String, Object> request) {
        return given().contentType(ContentType.JSON).body(request).post("/api/sources").then().statusCode(201).extract().path("id");
    }

    private static JsonPath runSource(String id) {
        String runId = given().post("/api/sources/" + id + "/run").then().statusCode(202).extract().path("runId");
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        JsonPath run;
        do {
            IngestTestSupport.sleep(200);
            run = given().get("/api/sources/" + id + "/runs/" + runId).then().statusCode(200).extract().jsonPath();
            assertThat(System.nanoTime()).as("run ends: " + run.prettify()).isLessThan(deadline);
        } while (List.of("queued", "running").contains(run.getString("state")));
        assertThat(run.getString("state")).as(run.prettify()).isEqualTo("completed");
        return run;
    }

    private static List<Integer> counts(JsonPath run) {
        return List.of(run.getInt("added"), run.getInt("changed"), run.getInt("deleted"), run.getInt("unchanged"));
    }

    private void write(String path, String text) throws IOException {
        Path file = folder.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    private static byte[] pdf(String title, String author, Instant created, Instant modified, String text) throws IOException {
        try (PDDocument document = new PDDocument(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            PDPage page = new PDPage();
            document.addPage(page);
            try (PDPageContentStream content = new PDPageContentStream(document, page)) {
                content.beginText();
                content.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 12);
                content.newLineAtOffset(72, 700);
                content.showText(text);
                content.endText();
            }
            PDDocumentInformation info = document.getDocumentInformation();
            info.setTitle(title);
            info.setAuthor(author);
            info.setCreationDate(calendar(created));
            info.setModificationDate(calendar(modified));
            document.save(out);
            return out.toByteArray();
        }
    }

    private static Calendar calendar(Instant instant) {
        GregorianCalendar calendar = new GregorianCalendar(TimeZone.getTimeZone("UTC"));
        calendar.setTimeInMillis(instant.toEpochMilli());
        return calendar;
    }
}
