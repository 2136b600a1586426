package dev.openrag.query.ask;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.stream.IntStream;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;

import dev.openrag.knowledge.access.Scopes;
import dev.openrag.knowledge.filter.DocumentFilters;
import dev.openrag.knowledge.port.ChatModel;
import dev.openrag.knowledge.runtime.ApiException;
import dev.openrag.knowledge.runtime.auth.Access;
import dev.openrag.knowledge.tracing.Tracing;
import dev.openrag.query.cite.Citation;
import dev.openrag.query.cite.Span;
import dev.openrag.query.search.CollectionSelection;
import dev.openrag.query.search.SearchRequest;
import dev.openrag.query.search.SearchResponse;
import dev.openrag.query.search.SearchService;
import dev.openrag.schemas.TokenUsage;
import io.opentelemetry.api.trace.Tracer;

/**
 * Ask: hybrid retrieval, then an answer written by the configured chat model from numbered
 * sources (corrections and pinned memories first), or, with no LLM configured or reachable, an
 * extractive answer from the best passages. Never a 500 because of the LLM.
 */
@ApplicationScoped
public class AskService {

    static final String GENERATIVE = "generative";
    static final String EXTRACTIVE = "extractive";
    /** How many more hits than k the search is asked for, to choose k sources across documents; at most the search's 100. */
    static final int SOURCE_POOL_FACTOR = 4;
    static final int SOURCE_POOL_MAX = 100;
    private static final Logger LOG = Logger.getLogger(AskService.class);

    private final SearchService search;
    private final Instance<ChatModel> chat;
    private final Access access;

    private final Tracer tracer;
    private final CollectionSelection collections;

    public AskService(SearchService search, Instance<ChatModel> chat, Access access, Tracer tracer, CollectionSelection collections) {
        this.collections = collections;
        this.tracer = tracer;
        this.search = search;
        this.chat = chat;
        this.access = access;
    }

    /** A checked question: what {@link #answer} works on ({@code collections}: the checked ones, one or several). */
    public record Question(String text, int k, List<String> collections, List<String> scopes, JsonNode filter) {

        public Question(String text, int k, String collection, List<String> scopes) {
            this(text, k, List.of(collection), scopes, null);
        }
    }

    /** Checks a request (400 naming the problem) before any answering or streaming starts. */
    public Question validate(AskRequest request) {
        if (request == null) {
            throw ApiException.badRequest("missing JSON body {question, k, collection}");
        }
        String question = request.question() == null ? "" : request.question().strip();
        if (question.isEmpty()) {
            throw ApiException.badRequest("field 'question' is required and must not be blank");
        }
        int k = request.k() == null ? 5 : request.k();
        if (k < 1 || k > 20) {
            throw ApiException.badRequest("field 'k' must be between 1 and 20, got " + k);
        }
        // checked here, on the request's thread, before a stream opens: a clean 400 or 403, not an error event
        List<String> checked = collections.resolve(request.collection(), request.collections());
        if (request.scopes() != null) {
            request.scopes().forEach(scope -> {
                try {
                    Scopes.check(scope);
                } catch (IllegalArgumentException e) {
                    throw ApiException.badRequest("field 'scopes': " + e.getMessage());
                }
            });
        }
        try {
            DocumentFilters.parse(request.filter()); // checked before a stream opens, like the rest
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        return new Question(question, k, checked, access.scopes(request.scopes()), request.filter());
    }

    /**
     * @param onToken receives the answer as it is written (null: not streamed)
     */
    public AskResponse answer(Question q, Consumer<String> onToken) {
        // a span with the search's steps, then the writing (ask.generate) or the extractive answer (ask.extractive)
        return Tracing.inSpan(tracer, "ask", () -> answerTraced(q, onToken));
    }

    private AskResponse answerTraced(Question q, Consumer<String> onToken) {
        long started = System.nanoTime();
        String question = q.text();
        // a deeper list than k, so that the k sources can come from several documents rather than one long one
        SearchService.Searched searched = search.searchWithCitations(new SearchRequest(question, Math.min(SOURCE_POOL_MAX,
                q.k() * SOURCE_POOL_FACTOR), null, "hybrid", null, null, null, q.scopes(), null, null, null, null, null,
                null, null, q.filter(), null).restrictedTo(q.collections(), q.scopes()));
        SearchResponse found = searched.response();
        List<SearchResponse.Result> results = ExtractiveAnswer.diverse(found.results(), q.k());
        Consumer<String> tokens = onToken == null ? token -> { } : onToken;
        String answer = null;
        String model = null;
        String fallbackReason = null;
        TokenUsage usage = null;
        if (chat.isResolvable()) {
            ChatModel llm = chat.get();
            String prompt = AnswerPrompt.build(question, results, found.memories(), found.corrections());
            AtomicBoolean streamed = new AtomicBoolean();
            try {
                ChatModel.Reply reply = Tracing.inSpan(tracer, "ask.generate", () -> onToken == null ? llm.chat(ChatModel.Prompt.of(prompt))
                        : llm.stream(ChatModel.Prompt.of(prompt), token -> {
                            streamed.set(true);
                            tokens.accept(token);
                        }));
                answer = reply.text();
                usage = reply.usage();
                model = llm.name();
            } catch (RuntimeException e) {
                LOG.warnf("%s failed, answering extractively: %s", llm.name(), e.getMessage());
                fallbackReason = llm.name() + " failed: " + e.getMessage();
                if (streamed.get()) {
                    tokens.accept("\n\n[" + fallbackReason + "; the passages follow]\n\n");
                }
            }
        } else {
            fallbackReason = "no chat model configured (openrag.chat.provider=none)";
        }
        String mode = answer != null ? GENERATIVE : EXTRACTIVE;
        // the citations the search made: the sources are among its hits, so no document's text is read again
        Map<String, Citation> citations = searched.citations();
        List<List<Span>> cited;
        if (answer == null) {
            // the quotes are chosen once: the answer's sentences and their spans are both cut from them
            List<ExtractiveAnswer.Quote> quotes = Tracing.inSpan(tracer, "ask.extractive", () -> ExtractiveAnswer.quotes(question, results));
            List<String> sentences = ExtractiveAnswer.sentences(quotes, found.corrections());
            sentences.forEach(sentence -> tokens.accept(sentence + "\n"));
            answer = String.join("\n", sentences);
            cited = SourceSpans.extractive(quotes, results, citations);
        } else {
            cited = SourceSpans.generative(answer, results, citations);
        }
        List<AskResponse.Source> sources = IntStream.range(0, results.size()).mapToObj(i -> {
            SearchResponse.Result result = results.get(i);
            return new AskResponse.Source(i + 1, result.chunkId(), result.documentId(), result.chunkIndex(), result.title(),
                    result.sourceUri(), result.text(), cited.get(i), result.collection());
        }).toList();
        return new AskResponse(answer, mode, model, sources, found.memories(), found.corrections(), fallbackReason,
                found.degraded(), usage, (System.nanoTime() - started) / 1_000_000, found.unknownFilterKeys());
    }
}
