package dev.openrag.knowledge.contextual;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.openrag.knowledge.port.ChatModel;
import dev.openrag.knowledge.port.ChatModel.Prompt;
import dev.openrag.knowledge.port.ChatModel.Reply;
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
    private static final ObjectMapper JSON = new ObjectMapper();

    static final String PROMPT = """
            Extract the named entities of this text and the relations between them.
            Answer with JSON only, in this shape:
            {"entities": [{"name": "...", "type": "person|organization|product|concept|symbol|place|other"}],
             "relations": [{"from": "entity name", "to": "entity name", "type": "short verb phrase"}]}
            <text>
            %s
            </text>""";

    static final String REPAIR = """
            Your answer was not valid: %s
            Answer again with JSON only, exactly in the shape asked for.""";

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
        String ask = PROMPT.formatted(chunkText);
        TokenUsage usage = TokenUsage.NONE;
        try {
            Reply first = model.chat(prompt(chunkText));
            usage = usage.plus(first.usage());
            try {
                return new Result(parse(first.text()), usage, null);
            } catch (InvalidAnswer invalid) {
                Reply second = model.chat(new Prompt(null, ask + "\n\n" + first.text() + "\n\n" + REPAIR.formatted(invalid.getMessage()), true));
                usage = usage.plus(second.usage());
                return new Result(parse(second.text()), usage, null);
            }
        } catch (InvalidAnswer invalid) {
            LOG.warn("LLM graph extraction gave invalid JSON twice, keeping the rule-based graph: {}", invalid.getMessage());
            return new Result(null, usage, "invalid JSON after one repair: " + invalid.getMessage());
        } catch (RuntimeException e) {
            LOG.warn("LLM graph extraction failed, keeping the rule-based graph: {}", e.getMessage());
            return new Result(null, usage, "call failed: " + e.getMessage());
        }
    }

    /** The answer checked against the shape asked for; the message says what is wrong, to quote in the repair. */
    static Found parse(String answer) throws InvalidAnswer {
        JsonNode root;
        try {
            root = JSON.readTree(stripFence(answer));
        } catch (JsonProcessingException e) {
            throw new InvalidAnswer("not JSON (" + e.getOriginalMessage() + ")");
        }
        if (root == null || !root.isObject()) {
            throw new InvalidAnswer("the answer must be a JSON object with \"entities\" and \"relations\"");
        }
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

    /** Models without a JSON mode often wrap JSON in a Markdown fence. */
    private static String stripFence(String answer) {
        String text = answer == null ? "" : answer.strip();
        if (text.startsWith("```")) {
            int firstLine = text.indexOf('\n');
            int end = text.lastIndexOf("```");
            if (firstLine > 0 && end > firstLine) {
                return text.substring(firstLine + 1, end);
            }
        }
        return text;
    }

    static final class InvalidAnswer extends Exception {

        InvalidAnswer(String message) {
            super(message, null, false, false);
        }
    }
}
