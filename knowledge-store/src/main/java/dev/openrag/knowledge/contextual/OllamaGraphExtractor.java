package dev.openrag.knowledge.contextual;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Semaphore;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.ollama.OllamaChatModel;

/**
 * LLM graph extraction through Ollama with JSON output: one call per chunk returns the entities
 * it names and the relations between them. At most {@code maxInFlight} calls at once; a chunk
 * whose call fails or returns unusable JSON yields nothing, and the caller keeps its rule-based
 * extraction for it.
 */
public final class OllamaGraphExtractor {

    private static final Logger LOG = LoggerFactory.getLogger(OllamaGraphExtractor.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    static final String PROMPT = """
            Extract the named entities of this text and the relations between them.
            Answer with JSON only, in this shape:
            {"entities": [{"name": "...", "type": "person|organization|product|concept|symbol|place|other"}],
             "relations": [{"from": "entity name", "to": "entity name", "type": "short verb phrase"}]}
            <text>
            %s
            </text>""";

    /** One entity or relation as the model named it. */
    public record Found(List<String[]> entities, List<String[]> relations) {
    }

    private final ChatModel model;
    private final Semaphore inFlight;

    public OllamaGraphExtractor(String baseUrl, String modelName, int maxInFlight, Duration timeout) {
        this(OllamaChatModel.builder().baseUrl(baseUrl).modelName(modelName).timeout(timeout).maxRetries(1)
                .temperature(0.0).responseFormat(ResponseFormat.JSON).build(), maxInFlight);
    }

    OllamaGraphExtractor(ChatModel model, int maxInFlight) {
        this.model = model;
        this.inFlight = new Semaphore(maxInFlight, true);
    }

    /** Entities as [name, type] and relations as [from, to, type]; null when the model gave nothing usable. */
    public Found extract(String chunkText) {
        try {
            inFlight.acquire();
            String answer;
            try {
                answer = model.chat(PROMPT.formatted(chunkText));
            } finally {
                inFlight.release();
            }
            JsonNode root = JSON.readTree(answer);
            List<String[]> entities = new ArrayList<>();
            for (JsonNode entity : root.path("entities")) {
                String name = entity.path("name").asText("").strip();
                if (!name.isEmpty()) {
                    entities.add(new String[] {name, entity.path("type").asText("other").strip().toLowerCase(Locale.ROOT)});
                }
            }
            List<String[]> relations = new ArrayList<>();
            for (JsonNode relation : root.path("relations")) {
                String from = relation.path("from").asText("").strip();
                String to = relation.path("to").asText("").strip();
                if (!from.isEmpty() && !to.isEmpty()) {
                    relations.add(new String[] {from, to, relation.path("type").asText("related to").strip()});
                }
            }
            return new Found(entities, relations);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (Exception e) {
            LOG.warn("Ollama graph extraction failed, keeping the rule-based graph: {}", e.getMessage());
            return null;
        }
    }
}
