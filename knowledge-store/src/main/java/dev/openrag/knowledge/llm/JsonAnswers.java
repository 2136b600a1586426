package dev.openrag.knowledge.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.openrag.knowledge.port.ChatModel;
import dev.openrag.knowledge.port.ChatModel.Prompt;
import dev.openrag.knowledge.port.ChatModel.Reply;
import dev.openrag.schemas.TokenUsage;

/**
 * Structured output from a chat model: ask for JSON in a fixed shape (the provider's JSON mode
 * where it has one), check the answer against that shape, and ask once more with the validation
 * error quoted when it does not fit. An answer still invalid, or a failed call, is an outcome with
 * its reason, never an exception: every caller has something to fall back on.
 */
public final class JsonAnswers {

    private static final ObjectMapper JSON = new ObjectMapper();

    static final String REPAIR = """
            Your answer was not valid: %s
            Answer again with JSON only, exactly in the shape asked for.""";

    /** Reads a JSON answer into what the caller wants; {@link InvalidAnswer} says what does not fit the shape asked for. */
    @FunctionalInterface
    public interface Shape<T> {
        T read(JsonNode answer) throws InvalidAnswer;
    }

    /** {@code value} is null when there is none, and {@code problem} says why; {@code usage} counts every call, the repair too. */
    public record Outcome<T>(T value, TokenUsage usage, String problem) {
    }

    private JsonAnswers() {
    }

    /** Asks {@code ask} (a user prompt asking for JSON), repairs once. */
    public static <T> Outcome<T> ask(ChatModel model, String ask, Shape<T> shape) {
        TokenUsage usage = TokenUsage.NONE;
        try {
            Reply first = model.chat(new Prompt(null, ask, true));
            usage = usage.plus(first.usage());
            try {
                return new Outcome<>(parse(first.text(), shape), usage, null);
            } catch (InvalidAnswer invalid) {
                Reply second = model.chat(new Prompt(null, ask + "\n\n" + first.text() + "\n\n" + REPAIR.formatted(invalid.getMessage()), true));
                usage = usage.plus(second.usage());
                return new Outcome<>(parse(second.text(), shape), usage, null);
            }
        } catch (InvalidAnswer invalid) {
            return new Outcome<>(null, usage, "invalid JSON after one repair: " + invalid.getMessage());
        } catch (RuntimeException e) {
            return new Outcome<>(null, usage, "call failed: " + e.getMessage());
        }
    }

    /** The answer read as JSON (a Markdown fence around it is accepted) and checked by {@code shape}. */
    public static <T> T parse(String answer, Shape<T> shape) throws InvalidAnswer {
        JsonNode root;
        try {
            root = JSON.readTree(stripFence(answer));
        } catch (JsonProcessingException e) {
            throw new InvalidAnswer("not JSON (" + e.getOriginalMessage() + ")");
        }
        if (root == null || !root.isObject()) {
            throw new InvalidAnswer("the answer must be a JSON object");
        }
        return shape.read(root);
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

    /** An answer that does not fit the shape asked for; its message is quoted in the repair. */
    public static final class InvalidAnswer extends Exception {

        public InvalidAnswer(String message) {
            super(message, null, false, false);
        }
    }
}
