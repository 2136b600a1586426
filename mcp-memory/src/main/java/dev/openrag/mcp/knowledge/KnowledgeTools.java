package dev.openrag.mcp.knowledge;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import jakarta.inject.Singleton;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import com.fasterxml.jackson.databind.JsonNode;

import dev.openrag.mcp.EngineOutagesAsToolErrors;
import dev.openrag.mcp.McpSettings;
import dev.openrag.mcp.memory.ToolArguments;
import dev.openrag.mcp.security.ScopeGuard;
import io.quarkiverse.mcp.server.Tool;
import io.quarkiverse.mcp.server.ToolArg;
import io.quarkiverse.mcp.server.ToolCallException;

/**
 * The knowledge tools: search and ask go to query-api over REST (which adds the caller's pinned
 * memories and corrections), ingest_document publishes to Kafka, get_job_status asks the ingest
 * pipeline. Errors of those services come back as {@code isError} results with their message.
 */
@Singleton
@EngineOutagesAsToolErrors
public class KnowledgeTools {

    static final String FILTER = "Only documents whose metadata matches, as a JSON object: {\"team\": \"payments\"}, "
            + "{\"team\": {\"in\": [...]}}, {\"team\": {\"not\": ...}}, {\"owner\": {\"exists\": true}}, "
            + "{\"year\": {\"gte\": 2025, \"lt\": 2027}} (numbers or ISO-8601 dates), {\"path\": {\"prefix\": \"docs/\"}}, "
            + "{\"and\": [...]}, {\"or\": [...]}; top-level keys are and-ed";

    static final String COLLECTIONS = "Several collections searched at once instead of 'collection', fused by rank, each hit "
            + "naming its collection: a list of names, or [\"*\"] for every collection the caller may read";

    private final QueryApi queryApi;
    private final IngestApi ingestApi;
    private final DocumentIngestor ingestor;
    private final ScopeGuard scopes;
    private final McpSettings settings;
    private final String queryApiUrl;
    private final String ingestUrl;

    public KnowledgeTools(@RestClient QueryApi queryApi, @RestClient IngestApi ingestApi, DocumentIngestor ingestor,
                          ScopeGuard scopes, McpSettings settings,
                          @ConfigProperty(name = "quarkus.rest-client.query-api.url") String queryApiUrl,
                          @ConfigProperty(name = "quarkus.rest-client.ingest.url") String ingestUrl) {
        this.queryApi = queryApi;
        this.ingestApi = ingestApi;
        this.ingestor = ingestor;
        this.scopes = scopes;
        this.settings = settings;
        this.queryApiUrl = queryApiUrl;
        this.ingestUrl = ingestUrl;
    }

    @Tool(name = "search_knowledge", description = "Search the knowledge base (hybrid vector + BM25 by default). "
            + "Related corrections and pinned memories come back alongside the results.")
    public JsonNode searchKnowledge(
            @ToolArg(description = "What to look for") String query,
            @ToolArg(description = "Number of results, 1-100 (default 10)", required = false) Integer k,
            @ToolArg(description = "Collection (default 'default')", required = false) String collection,
            @ToolArg(description = "hybrid (default), vector, bm25, graph, summary, hybrid_expanded or automatic", required = false) String mode,
            @ToolArg(description = "Scope whose memories and corrections to include (default: all the caller may use)",
                    required = false) String scope,
            @ToolArg(description = FILTER, required = false) Map<String, Object> filter,
            @ToolArg(description = COLLECTIONS, required = false) List<String> collections) {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("query", ToolArguments.text(query, "query", settings.maxTextChars()));
        request.put("k", ToolArguments.k(k, 10));
        putCollections(request, collection, collections);
        if (mode != null) {
            request.put("mode", mode);
        }
        putScopes(request, scope);
        putFilter(request, filter);
        String authorization = scopes.authorization().orElse(null);
        return call("query-api", queryApiUrl, () -> queryApi.search(authorization, request));
    }

    @Tool(name = "ask", description = "Answer a question from the knowledge base with numbered citations "
            + "(extractive passages when no LLM is configured).")
    public JsonNode ask(
            @ToolArg(description = "The question") String question,
            @ToolArg(description = "Collection (default 'default')", required = false) String collection,
            @ToolArg(description = "Scope whose memories and corrections to use (default: all the caller may use)",
                    required = false) String scope,
            @ToolArg(description = FILTER, required = false) Map<String, Object> filter,
            @ToolArg(description = COLLECTIONS, required = false) List<String> collections) {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("question", ToolArguments.text(question, "question", settings.maxTextChars()));
        putCollections(request, collection, collections);
        putScopes(request, scope);
        putFilter(request, filter);
        String authorization = scopes.authorization().orElse(null);
        return call("query-api", queryApiUrl, () -> queryApi.ask(authorization, request));
    }

    @Tool(name = "ingest_document", description = "Add a document to the knowledge base, given as text or as an "
            + "http(s) URL to fetch; returns the jobId to follow with get_job_status.")
    public DocumentIngestor.Ingesting ingestDocument(
            @ToolArg(description = "Document text (or give url)", required = false) String text,
            @ToolArg(description = "URL to fetch (or give text)", required = false) String url,
            @ToolArg(description = "Title", required = false) String title,
            @ToolArg(description = "Collection (default 'default')", required = false) String collection) {
        boolean hasText = text != null && !text.isBlank();
        boolean hasUrl = url != null && !url.isBlank();
        if (hasText == hasUrl) {
            throw new ToolCallException("give exactly one of 'text' or 'url'");
        }
        scopes.requireWrite();
        String target = scopes.collection(collection);
        return hasText ? ingestor.ingestText(text, title, target) : ingestor.ingestUrl(url, title, target);
    }

    @Tool(name = "get_job_status", description = "Progress of an ingestion job: state, per-stage counts, failures with reasons.")
    public JsonNode getJobStatus(@ToolArg(description = "Job id from ingest_document") String jobId) {
        String id = ToolArguments.id(jobId, "jobId");
        String authorization = scopes.authorization().orElse(null);
        return call("ingest-pipeline", ingestUrl, () -> ingestApi.job(authorization, id));
    }

    /**
     * query-api filters memories and corrections by {@code scopes}; absent means every scope the
     * caller's key reaches (query-api checks the same key, passed on).
     */
    private void putScopes(Map<String, Object> request, String scope) {
        if (scope != null) {
            request.put("scopes", List.of(scopes.require(scope)));
        }
    }

    /**
     * One collection, checked here; or several, passed on as given: query-api checks each against the
     * same key (a 403 naming the one it lacks comes back as the tool's error).
     */
    private void putCollections(Map<String, Object> request, String collection, List<String> collections) {
        if (collections == null || collections.isEmpty()) {
            request.put("collection", scopes.collection(collection));
        } else if (collection != null) {
            throw new ToolCallException("give 'collection' or 'collections', not both");
        } else {
            request.put("collections", collections);
        }
    }

    /** Passed on as given: query-api checks it, and its 400 comes back as the tool's error with the message. */
    private static void putFilter(Map<String, Object> request, Map<String, Object> filter) {
        if (filter != null && !filter.isEmpty()) {
            request.put("filter", filter);
        }
    }

    private static JsonNode call(String service, String url, Supplier<JsonNode> request) {
        try {
            return request.get();
        } catch (WebApplicationException e) {
            String message = e.getMessage();
            try {
                JsonNode body = e.getResponse().readEntity(JsonNode.class);
                if (body != null && body.hasNonNull("message")) {
                    message = body.get("message").asText();
                }
            } catch (RuntimeException unreadable) {
                // keep the HTTP status message
            }
            throw new ToolCallException(service + " answered " + e.getResponse().getStatus() + ": " + message);
        } catch (ProcessingException e) {
            throw new ToolCallException(service + " at " + url + " is unreachable: "
                    + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()));
        }
    }
}
