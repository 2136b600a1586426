package dev.openrag.localstack.test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A STAND-IN for hosted LLM APIs (none is reachable here): one local HTTP server speaking
 * OpenAI's {@code /chat/completions}, Anthropic's {@code /messages} and Gemini's
 * {@code /models/M:generateContent} and {@code :streamGenerateContent?alt=sse} (and the embeddings
 * of OpenAI and Gemini), each blocking and
 * streamed (SSE, one event per word), with the provider's own usage fields. It answers with
 * {@code reply(request)} after a delay; counts calls and the most in flight at once; counts tokens
 * its own way (words and punctuation marks, {@link #tokens}), so callers can be checked against
 * it; reports a system prompt it has seen before as cached (Anthropic only when it was marked
 * {@code cache_control}); and can answer the first N calls with 429 and a {@code Retry-After}. Model {@link #NO_SUCH_MODEL} gets a 404.
 */
public final class LlmApiStandIn implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern TOKEN = Pattern.compile("[\\p{L}\\p{N}]+|[^\\s\\p{L}\\p{N}]");
    private static final Pattern GEMINI = Pattern.compile(".*/models/([^/:]+):(generateContent|streamGenerateContent)");
    private static final Pattern GEMINI_EMBED = Pattern.compile(".*/models/([^/:]+):(batchEmbedContents|embedContent)");

    /** The model every API here answers 404 for. */
    public static final String NO_SUCH_MODEL = "no-such-model";

    /** What a call asked: the provider's API, the model, the system and user text, JSON mode, streaming. */
    public record Request(String api, String model, String system, String user, boolean json, boolean stream, JsonNode body) {
    }

    public final AtomicInteger calls = new AtomicInteger();
    public final AtomicInteger maxInFlight = new AtomicInteger();
    public final AtomicLong inputTokens = new AtomicLong();
    public final AtomicLong outputTokens = new AtomicLong();
    public final List<Request> requests = new CopyOnWriteArrayList<>();
    /** When each call arrived (System.nanoTime), rate-limited ones included. */
    public final List<Long> arrivals = new CopyOnWriteArrayList<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger rateLimited = new AtomicInteger();
    private final Set<String> seenSystems = ConcurrentHashMap.newKeySet();
    private final long delayMillis;
    private final Function<Request, String> reply;
    private final HttpServer server;
    private volatile String retryAfter = "1";

    public LlmApiStandIn(long delayMillis, Function<Request, String> reply) throws IOException {
        this.delayMillis = delayMillis;
        this.reply = reply;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(16));
        server.createContext("/", this::handle);
        server.start();
    }

    /** The next {@code count} calls get 429 with {@code Retry-After: seconds}. */
    public LlmApiStandIn rateLimitNext(int count, String seconds) {
        rateLimited.set(count);
        retryAfter = seconds;
        return this;
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The stand-in's token count: words and punctuation marks. */
    public static int tokens(String text) {
        if (text == null) {
            return 0;
        }
        Matcher m = TOKEN.matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    private void handle(HttpExchange exchange) throws IOException {
        arrivals.add(System.nanoTime());
        JsonNode body = JSON.readTree(exchange.getRequestBody().readAllBytes());
        String path = exchange.getRequestURI().getPath();
        if (rateLimited.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            exchange.getResponseHeaders().add("Retry-After", retryAfter);
            send(exchange, 429, Map.of("error", Map.of("type", "rate_limit_error", "message", "slow down")));
            return;
        }
        if (path.endsWith("/embeddings") || GEMINI_EMBED.matcher(path).matches()) {
            embeddings(exchange, path, body);
            return;
        }
        Request request;
        Matcher gemini = GEMINI.matcher(path);
        if (path.endsWith("/chat/completions")) {
            request = openAiRequest(body);
        } else if (path.endsWith("/messages")) {
            request = anthropicRequest(body);
        } else if (gemini.matches()) {
            request = geminiRequest(body, gemini.group(1), gemini.group(2).startsWith("stream"));
        } else {
            send(exchange, 404, Map.of("error", "no such API here: " + path));
            return;
        }
        requests.add(request);
        if (request.model().equals(NO_SUCH_MODEL)) {
            send(exchange, 404, Map.of("error", Map.of("type", "not_found_error", "message", "model: " + NO_SUCH_MODEL)));
            return;
        }
        calls.incrementAndGet();
        maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        String answer;
        try {
            Thread.sleep(delayMillis);
            answer = reply.apply(request);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } finally {
            inFlight.decrementAndGet();
        }
        boolean cacheable = !request.api().equals("anthropic") || body.path("system").toString().contains("cache_control");
        int systemTokens = tokens(request.system());
        int cached = request.system() != null && cacheable && !seenSystems.add(request.system()) ? systemTokens : 0;
        int in = systemTokens + tokens(request.user());
        int out = tokens(answer);
        inputTokens.addAndGet(in);
        outputTokens.addAndGet(out);
        try {
            switch (request.api()) {
                case "openai" -> openAi(exchange, request, answer, in, out, cached);
                case "anthropic" -> anthropic(exchange, request, answer, in, out, cached, cacheable && request.system() != null);
                default -> gemini(exchange, request, answer, in, out, cached);
            }
        } catch (IOException clientGone) {
            // the client timed out and closed the connection
        }
    }

    /**
     * OpenAI's {@code /embeddings} and Gemini's {@code :batchEmbedContents}: each text's vector is
     * [its length, 1, 0, ...], as long as the dimension asked for (3 when none was).
     */
    private void embeddings(HttpExchange exchange, String path, JsonNode body) throws IOException {
        calls.incrementAndGet();
        if (path.endsWith("/embeddings")) {
            int dimension = body.path("dimensions").asInt(3);
            List<Map<String, Object>> data = new ArrayList<>();
            JsonNode input = body.path("input");
            for (int i = 0; i < input.size(); i++) {
                data.add(Map.of("object", "embedding", "index", i, "embedding", vector(input.get(i).asText(), dimension)));
                inputTokens.addAndGet(tokens(input.get(i).asText()));
            }
            send(exchange, 200, Map.of("object", "list", "data", data, "model", body.path("model").asText(),
                    "usage", Map.of("prompt_tokens", 1, "total_tokens", 1)));
            return;
        }
        List<Map<String, Object>> embeddings = new ArrayList<>();
        JsonNode requests = body.has("requests") ? body.path("requests") : JSON.createArrayNode().add(body);
        for (JsonNode request : requests) {
            String text = text(request.path("content").path("parts"));
            inputTokens.addAndGet(tokens(text));
            embeddings.add(Map.of("values", vector(text, request.path("outputDimensionality").asInt(3))));
        }
        send(exchange, 200, body.has("requests") ? Map.of("embeddings", embeddings) : Map.of("embedding", embeddings.get(0)));
    }

    private static float[] vector(String text, int dimension) {
        float[] vector = new float[dimension];
        vector[0] = text.length();
        if (dimension > 1) {
            vector[1] = 1f;
        }
        return vector;
    }

    private static Request openAiRequest(JsonNode body) {
        StringBuilder system = new StringBuilder();
        String user = "";
        for (JsonNode message : body.path("messages")) {
            if (message.path("role").asText().equals("system")) {
                system.append(text(message.path("content")));
            } else {
                user = text(message.path("content"));
            }
        }
        return new Request("openai", body.path("model").asText(), system.isEmpty() ? null : system.toString(), user,
                body.path("response_format").path("type").asText().startsWith("json"), body.path("stream").asBoolean(), body);
    }

    private static Request anthropicRequest(JsonNode body) {
        JsonNode messages = body.path("messages");
        String system = body.has("system") ? text(body.path("system")) : null;
        return new Request("anthropic", body.path("model").asText(), system, text(messages.path(messages.size() - 1).path("content")),
                false, body.path("stream").asBoolean(), body);
    }

    private static Request geminiRequest(JsonNode body, String model, boolean stream) {
        JsonNode contents = body.path("contents");
        String system = body.has("systemInstruction") ? text(body.path("systemInstruction").path("parts")) : null;
        return new Request("gemini", model, system, text(contents.path(contents.size() - 1).path("parts")),
                body.path("generationConfig").path("responseMimeType").asText().equals("application/json"), stream, body);
    }

    /** A string, or the joined {@code text} of a list of blocks/parts. */
    private static String text(JsonNode content) {
        if (content.isTextual()) {
            return content.asText();
        }
        StringBuilder joined = new StringBuilder();
        content.forEach(block -> joined.append(block.path("text").asText()));
        return joined.toString();
    }

    private static List<String> words(String answer) {
        return List.of(answer.split("(?<= )"));
    }

    private static void openAi(HttpExchange exchange, Request request, String answer, int in, int out, int cached) throws IOException {
        Map<String, Object> usage = Map.of("prompt_tokens", in, "completion_tokens", out, "total_tokens", in + out,
                "prompt_tokens_details", Map.of("cached_tokens", cached));
        if (!request.stream()) {
            send(exchange, 200, Map.of("id", "chatcmpl-1", "object", "chat.completion", "created", 1, "model", request.model(),
                    "choices", List.of(Map.of("index", 0, "message", Map.of("role", "assistant", "content", answer),
                            "finish_reason", "stop")), "usage", usage));
            return;
        }
        List<String> events = new ArrayList<>();
        for (String word : words(answer)) {
            events.add(json(Map.of("id", "chatcmpl-1", "object", "chat.completion.chunk", "created", 1, "model", request.model(),
                    "choices", List.of(Map.of("index", 0, "delta", Map.of("content", word))))));
        }
        events.add(json(Map.of("id", "chatcmpl-1", "object", "chat.completion.chunk", "created", 1, "model", request.model(),
                "choices", List.of(Map.of("index", 0, "delta", Map.of(), "finish_reason", "stop")))));
        events.add(json(Map.of("id", "chatcmpl-1", "object", "chat.completion.chunk", "created", 1, "model", request.model(),
                "choices", List.of(), "usage", usage)));
        events.add("[DONE]");
        sse(exchange, events.stream().map(data -> new String[] {null, data}).toList());
    }

    private static void anthropic(HttpExchange exchange, Request request, String answer, int in, int out, int cached,
                                  boolean cacheWrite) throws IOException {
        Map<String, Object> usage = new LinkedHashMap<>();
        usage.put("input_tokens", in - cached - (cacheWrite && cached == 0 ? tokens(request.system()) : 0));
        usage.put("output_tokens", out);
        usage.put("cache_creation_input_tokens", cacheWrite && cached == 0 ? tokens(request.system()) : 0);
        usage.put("cache_read_input_tokens", cached);
        if (!request.stream()) {
            send(exchange, 200, Map.of("id", "msg_1", "type", "message", "role", "assistant", "model", request.model(),
                    "content", List.of(Map.of("type", "text", "text", answer)), "stop_reason", "end_turn", "usage", usage));
            return;
        }
        List<String[]> events = new ArrayList<>();
        Map<String, Object> startUsage = new LinkedHashMap<>(usage);
        startUsage.put("output_tokens", 1);
        events.add(new String[] {"message_start", json(Map.of("type", "message_start", "message", Map.of("id", "msg_1",
                "type", "message", "role", "assistant", "model", request.model(), "content", List.of(), "usage", startUsage)))});
        events.add(new String[] {"content_block_start", json(Map.of("type", "content_block_start", "index", 0,
                "content_block", Map.of("type", "text", "text", "")))});
        for (String word : words(answer)) {
            events.add(new String[] {"content_block_delta", json(Map.of("type", "content_block_delta", "index", 0,
                    "delta", Map.of("type", "text_delta", "text", word)))});
        }
        events.add(new String[] {"content_block_stop", json(Map.of("type", "content_block_stop", "index", 0))});
        events.add(new String[] {"message_delta", json(Map.of("type", "message_delta", "delta", Map.of("stop_reason", "end_turn"),
                "usage", Map.of("output_tokens", out)))});
        events.add(new String[] {"message_stop", json(Map.of("type", "message_stop"))});
        sse(exchange, events);
    }

    private static void gemini(HttpExchange exchange, Request request, String answer, int in, int out, int cached) throws IOException {
        Map<String, Object> usage = Map.of("promptTokenCount", in, "candidatesTokenCount", out, "totalTokenCount", in + out,
                "cachedContentTokenCount", cached);
        if (!request.stream()) {
            send(exchange, 200, Map.of("candidates", List.of(Map.of("content", Map.of("role", "model",
                    "parts", List.of(Map.of("text", answer))), "finishReason", "STOP", "index", 0)),
                    "usageMetadata", usage, "modelVersion", request.model()));
            return;
        }
        List<String[]> events = new ArrayList<>();
        List<String> words = words(answer);
        for (int i = 0; i < words.size(); i++) {
            Map<String, Object> candidate = new LinkedHashMap<>();
            candidate.put("content", Map.of("role", "model", "parts", List.of(Map.of("text", words.get(i)))));
            candidate.put("index", 0);
            Map<String, Object> event = new LinkedHashMap<>();
            if (i == words.size() - 1) {
                candidate.put("finishReason", "STOP");
                event.put("usageMetadata", usage);
            }
            event.put("candidates", List.of(candidate));
            event.put("modelVersion", request.model());
            events.add(new String[] {null, json(event)});
        }
        sse(exchange, events);
    }

    private static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void send(HttpExchange exchange, int status, Object body) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(body);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** Server-sent events: [event name or null, data]. */
    private static void sse(HttpExchange exchange, List<String[]> events) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
            for (String[] event : events) {
                StringBuilder text = new StringBuilder();
                if (event[0] != null) {
                    text.append("event: ").append(event[0]).append('\n');
                }
                text.append("data: ").append(event[1]).append("\n\n");
                out.write(text.toString().getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
