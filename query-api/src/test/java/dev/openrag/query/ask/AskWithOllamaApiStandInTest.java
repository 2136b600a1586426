package dev.openrag.query.ask;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.openrag.localstack.test.LocalStackTestResource;
import dev.openrag.localstack.test.OllamaApiStandIn;
import dev.openrag.knowledge.port.Correction;
import dev.openrag.memory.neo4j.Neo4jMemoryStore;
import dev.openrag.query.FixtureTest;
import dev.openrag.query.SearchFixture;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/**
 * Ask with {@code openrag.chat.provider=ollama} against an Ollama API STAND-IN (no LLM runs here):
 * the real LangChain4j Ollama client, blocking and streamed; the prompt carries corrections
 * ahead of numbered sources; a failing model falls back to the extractive answer.
 */
@QuarkusTest
@QuarkusTestResource(value = LocalStackTestResource.class, restrictToAnnotatedClass = true)
@QuarkusTestResource(value = AskWithOllamaApiStandInTest.StandIn.class, restrictToAnnotatedClass = true)
class AskWithOllamaApiStandInTest extends FixtureTest {

    /** Starts the stand-in: it answers "Tomatoes need full sun [1]." and fails on prompts asking about failures. */
    public static class StandIn implements QuarkusTestResourceLifecycleManager {

        static OllamaApiStandIn ollama;

        @Override
        public Map<String, String> start() {
            try {
                ollama = new OllamaApiStandIn(0, prompt -> {
                    if (prompt.contains("Question: please fail")) {
                        throw new IllegalStateException("model crashed");
                    }
                    return "Tomatoes need full sun [1].";
                });
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return Map.of("openrag.chat.provider", "ollama", "openrag.ollama.url", ollama.url(), "openrag.ollama.model", "stand-in");
        }

        @Override
        public void stop() {
            ollama.close();
        }
    }

    @Test
    void theModelWritesTheAnswerFromCorrectionsThenNumberedSources() {
        long now = System.currentTimeMillis();
        new dev.openrag.knowledge.neo4j.Neo4jCorrectionStore(driver).add(new Correction("llm-corr-" + now, "llm-test", "Tomatoes need eight hours of sun.",
                null, SearchFixture.COLLECTION + "/doc-2#0", null, now, null), embedder.embedQuery("Tomatoes need eight hours"));

        given().contentType(ContentType.JSON)
                .body(Map.of("question", "How much sun do tomatoes need?", "collection", SearchFixture.COLLECTION, "k", 2,
                        "scopes", List.of("llm-test")))
                .post("/api/ask").then().statusCode(200)
                .body("mode", equalTo("generative"))
                .body("model", equalTo("ollama:stand-in"))
                .body("answer", equalTo("Tomatoes need full sun [1]."))
                .body("sources[0].documentId", equalTo("doc-2"))
                // issue 61: the [1] is mapped by token alignment to the sentence of source 1 that supports the claim
                .body("sources[0].spans[0].text", equalTo("Tomatoes need six hours of sun and regular watering."))
                .body("sources[0].spans[0].start", equalTo(0))
                .body("sources[0].spans[0].version", equalTo("h"))
                .body("sources[0].spans[0].support", org.hamcrest.Matchers.greaterThan(0.5f))
                .body("sources[1].spans", org.hamcrest.Matchers.nullValue()) // not cited
                .body("usage.calls", equalTo(1))
                .body("usage.inputTokens", equalTo(10)) // the stand-in's prompt_eval_count
                .body("usage.outputTokens", equalTo(5)); // and eval_count

        String prompt = StandIn.ollama.lastPrompt;
        assertThat(prompt).contains("Corrections:\n- Tomatoes need eight hours of sun.")
                .contains("[1] Title 2 (file:///doc-2)")
                .contains("Question: How much sun do tomatoes need?");
        assertThat(prompt.indexOf("Corrections:")).isLessThan(prompt.indexOf("Sources:"));
    }

    @Test
    void streamsTheModelsTokens() {
        String stream = given().contentType(ContentType.JSON).accept("text/event-stream")
                .body(Map.of("question", "How much sun do tomatoes need?", "collection", SearchFixture.COLLECTION, "k", 2))
                .post("/api/ask").then().statusCode(200).extract().asString();
        assertThat(stream.split("event:token", -1)).as("one event per streamed word").hasSizeGreaterThan(4);
        assertThat(stream).contains("{\"text\":\"Tomatoes \"}").contains("event:sources")
                .contains("\"mode\":\"generative\"").contains("\"model\":\"ollama:stand-in\"");
    }

    @Test
    void aFailingModelFallsBackToTheExtractiveAnswer() {
        given().contentType(ContentType.JSON)
                .body(Map.of("question", "please fail", "collection", SearchFixture.COLLECTION, "k", 2))
                .post("/api/ask").then().statusCode(200)
                .body("mode", equalTo("extractive"))
                .body("fallbackReason", containsString("ollama:stand-in failed"))
                .body("sources.size()", equalTo(2));
    }
}
