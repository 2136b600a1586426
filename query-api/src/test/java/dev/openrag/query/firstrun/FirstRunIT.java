package dev.openrag.query.firstrun;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.openrag.localstack.Ports;
import dev.openrag.localstack.ProcessSupervisor;
import dev.openrag.localstack.SampleDocuments;
import dev.openrag.localstack.StackConfig;
import dev.openrag.localstack.test.PackagedApp;
import dev.openrag.localstack.test.PackagedIngestApp;
import dev.openrag.localstack.test.TestStack;
import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;

/**
 * The first run as a newcomer meets it: the sample collection {@code ./openrag up} ingests (the
 * project's own docs, uploaded as {@code up} uploads them) through the packaged apps on real engines,
 * then the questions a newcomer asks of it, each answered by the document that explains it among the
 * top 3 hits, and the search the README suggests answered from the README itself.
 */
class FirstRunIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final String COLLECTION = SampleDocuments.COLLECTION;

    /** A newcomer's question and the documents (paths in the checkout) that answer it. */
    private record Question(String text, List<String> answeredBy) {
        Question(String text, String... answeredBy) {
            this(text, List.of(answeredBy));
        }
    }

    private static final List<Question> QUESTIONS = List.of(
            new Question("what ports does OpenRAG listen on?", "README.md"),
            new Question("how do I stop everything that up started?", "README.md"),
            new Question("how do I ingest a folder of PDFs into a collection?", "README.md"),
            new Question("how do I connect Claude Desktop or another agent over MCP?", "docs/mcp.md"),
            new Question("which LLM providers can write the answers and how do I configure one?", "docs/llm.md"),
            new Question("how much will contextualizing my documents with an LLM cost before I ingest them?", "docs/llm.md"),
            new Question("how do I restrict a search to documents with some metadata, like a team or a language?", "query-api/README.md"),
            new Question("how do I get the exact sentence a citation points to?", "query-api/README.md"),
            new Question("how do I keep a collection in sync with a git repository?", "ingest-pipeline/README.md"),
            new Question("what happens to documents being ingested when OpenSearch goes down?", "ingest-pipeline/README.md"),
            new Question("how do I create an API key that can only read one collection?", "docs/security.md"),
            new Question("how does a memory search rank what an agent stored?", "memory/README.md", "docs/architecture.md"),
            new Question("which Kafka topics do the documents flow through?", "docs/architecture.md"),
            new Question("how fast is a search and how was it measured?", "docs/benchmarks.md"),
            new Question("how does OpenRAG scale beyond one machine?", "docs/scaling.md"));

    private static ProcessSupervisor supervisor;
    private static PackagedIngestApp ingest;
    private static String query;

    @BeforeAll
    static void ingestTheSample() throws Exception {
        assertThat(PackagedIngestApp.SIBLING_JAR).as("build ingest-pipeline first (./mvnw verify builds every module in order)").exists();
        StackConfig stack = TestStack.ensureAll();
        ingest = new PackagedIngestApp("ingest-first-run", PackagedIngestApp.SIBLING_JAR, stack, Map.of());
        supervisor = new ProcessSupervisor(Files.createTempDirectory("first-run"), false);
        int port = Ports.free();
        PackagedApp.startTogether(ingest::start,
                () -> supervisor.start(PackagedApp.spec("query-first-run", Path.of("target/quarkus-app/quarkus-run.jar"), port, stack, Map.of())));
        query = "http://127.0.0.1:" + port;

        List<Path> files = SampleDocuments.files(ROOT);
        assertThat(files).extracting(file -> ROOT.relativize(file).toString().replace('\\', '/'))
                .contains("README.md", "docs/mcp.md", "query-api/README.md").noneMatch(name -> name.contains("target/"));
        RequestSpecification upload = RestAssured.given().multiPart("collection", COLLECTION);
        for (Path file : files) { // named by their path in the checkout, as `up` names them
            upload.multiPart("files", ROOT.relativize(file).toString().replace('\\', '/'), Files.readAllBytes(file), "application/octet-stream");
        }
        String jobId = upload.post(ingest.base + "/api/documents").then().statusCode(202).extract().path("jobId");
        JsonNode job = ingest.awaitFinished(jobId, Duration.ofMinutes(10));
        assertThat(job.path("state").asText()).as(job.toString()).isEqualTo("completed");
    }

    @AfterAll
    static void stop() {
        if (supervisor != null) {
            supervisor.stop("query-first-run", Duration.ofSeconds(20));
        }
        if (ingest != null) {
            ingest.close();
        }
    }

    @Test
    void eachNewcomersQuestionFindsTheDocumentThatAnswersItInTheTopThree() throws Exception {
        List<String> misses = new ArrayList<>();
        for (Question question : QUESTIONS) {
            List<String> top = new ArrayList<>();
            for (JsonNode hit : post("/api/search", Map.of("query", question.text(), "collection", COLLECTION, "k", 3)).path("results")) {
                top.add(hit.path("sourceUri").asText());
            }
            boolean answered = top.stream().anyMatch(uri -> question.answeredBy().stream().anyMatch(path -> names(uri, path)));
            System.out.printf("%s %-100s %s%n", answered ? "ok  " : "MISS", question.text(), top);
            if (!answered) {
                misses.add(question.text() + " -> " + top + " (wanted " + question.answeredBy() + ")");
            }
        }
        assertThat(misses).as("questions whose document is not in the top 3").isEmpty();
    }

    @Test
    void theSearchTheReadmeSuggestsIsAnsweredFromTheReadme() throws Exception {
        Matcher shown = Pattern.compile("\"query\": \"([^\"]+)\", \"collection\": \"" + COLLECTION + "\"")
                .matcher(Files.readString(ROOT.resolve("README.md")));
        assertThat(shown.find()).as("README.md shows a search of " + COLLECTION).isTrue();
        String suggested = shown.group(1);
        assertThat(suggested).as("the search `up` prints").isEqualTo(SampleDocuments.SUGGESTED_QUERY);

        JsonNode found = post("/api/search", Map.of("query", suggested, "collection", COLLECTION, "k", 3));
        assertThat(found.path("results").get(0).path("sourceUri").asText()).as(found.toString()).satisfies(uri -> names(uri, "README.md"));

        JsonNode answer = post("/api/ask", Map.of("question", suggested, "collection", COLLECTION));
        assertThat(answer.path("mode").asText()).isEqualTo("extractive");
        JsonNode first = answer.path("sources").get(0);
        assertThat(names(first.path("sourceUri").asText(), "README.md")).as(answer.toString()).isTrue();
        assertThat(answer.path("answer").asText()).as("the README's own answer, quoted as prose").contains("./mvnw verify")
                .contains("[1]").doesNotContain("|").doesNotContain("```");
    }

    /** Whether a hit's source uri is the checkout's file {@code path}: an upload's is {@code upload://} and the name it was sent with. */
    private static boolean names(String uri, String path) {
        return uri.equals("upload://" + path);
    }

    private static JsonNode post(String path, Map<String, Object> body) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(query + path))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }
}
