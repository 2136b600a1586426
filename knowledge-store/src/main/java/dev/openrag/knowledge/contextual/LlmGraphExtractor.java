package dev.openrag.knowledge.contextual;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.databind.JsonNode;

import dev.openrag.knowledge.llm.JsonAnswers;
import dev.openrag.knowledge.llm.JsonAnswers.InvalidAnswer;
import dev.openrag.knowledge.port.ChatModel;
import dev.openrag.knowledge.port.ChatModel.Prompt;
import dev.openrag.schemas.TokenUsage;

/**
 * LLM graph extraction with structured output: one call per chunk asks for JSON in a fixed shape
 * (the provider's JSON mode where it has one), the answer is validated against that shape, and
 * an invalid answer is asked for once more with the validation error quoted. A chunk whose
 * answer is still invalid, or whose call failed, yields no LLM graph: the caller keeps the
 * rule-based extraction for it and warns the job. Never a failed document over bad JSON.
 */
public final class LlmGraphExtractor {

    private static final Logger LOG = LoggerFactory.getLogger(LlmGraphExtractor.class);

    static final String PROMPT = """
            Extract the named entities of this text and the relations between them.
            Answer with JSON only, in this shape:
            {"entities": [{"name": "...", "type": "person|organization|product|concept|symbol|place|other"}],
             "relations": [{"from": "entity name", "to": "entity name", "type": "short verb phrase"}]}
            <text>
            %s
            </text>""";

    /** What the model found in one chunk: entities as [name, type], relations as [from, to, type]. */
    public record Found(List<String[]> entities, List<String[]> relations) {
    }

    /** {@code found} is null when the chunk keeps its rule-based graph; {@code usage} counts every call, the repair too. */
    public record Result(Found found, TokenUsage usage, String problem) {
    }

    private final ChatModel model;

    public LlmGraphExtractor(ChatModel model) {
        this.model = model;
    }

    public String name() {
        return model.name();
    }

    /** The first prompt for a chunk, as {@link #extract} sends it (estimates count these). */
    public Prompt prompt(String chunkText) {
        return new Prompt(null, PROMPT.formatted(chunkText), true);
    }

    public Result extract(String chunkText) {
        JsonAnswers.Outcome<Found> outcome = JsonAnswers.ask(model, PROMPT.formatted(chunkText), LlmGraphExtractor::read);
        if (outcome.problem() != null) {
            LOG.warn("LLM graph extraction: {}; keeping the rule-based graph", outcome.problem());
        }
        return new Result(outcome.value(), outcome.usage(), outcome.problem());
    }

    /** The answer checked against the shape asked for; the message says what is wrong, to quote in the repair. */
    static Found read(JsonNode root) throws InvalidAnswer {
        JsonNode entities = root.path("entities");
        JsonNode relations = root.path("relations");
        if (!entities.isArray()) {
            throw new InvalidAnswer("\"entities\" must be an array");
        }
        if (!relations.isMissingNode() && !relations.isArray()) {
            throw new InvalidAnswer("\"relations\" must be an array");
        }
        List<String[]> foundEntities = new ArrayList<>();
        for (JsonNode entity : entities) {
            String name = entity.path("name").asText("").strip();
            if (!entity.isObject() || name.isEmpty()) {
                throw new InvalidAnswer("every entity needs a non-empty \"name\", got " + entity);
            }
            foundEntities.add(new String[] {name, entity.path("type").asText("other").strip().toLowerCase(Locale.ROOT)});
        }
        List<String[]> foundRelations = new ArrayList<>();
        for (JsonNode relation : relations) {
            String from = relation.path("from").asText("").strip();
            String to = relation.path("to").asText("").strip();
            if (!relation.isObject() || from.isEmpty() || to.isEmpty()) {
                throw new InvalidAnswer("every relation needs non-empty \"from\" and \"to\", got " + relation);
            }
            foundRelations.add(new String[] {from, to, relation.path("type").asText("related to").strip()});
        }
        return new Found(foundEntities, foundRelations);
    }
}
