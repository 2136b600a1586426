package dev.openrag.query.memory;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;

import dev.openrag.memory.runtime.ContradictionCheck;

import com.fasterxml.jackson.databind.JsonNode;

import dev.openrag.knowledge.access.Role;
import dev.openrag.knowledge.filter.DocumentFilter;
import dev.openrag.knowledge.port.Correction;
import dev.openrag.knowledge.port.CorrectionStore;
import dev.openrag.knowledge.runtime.ApiException;
import dev.openrag.knowledge.runtime.Paging;
import dev.openrag.knowledge.runtime.auth.Access;
import dev.openrag.memory.Memory;
import dev.openrag.memory.MemoryBatch;
import dev.openrag.memory.MemoryEmbeddings;
import dev.openrag.memory.MemoryFilter;
import dev.openrag.memory.MemoryHit;
import dev.openrag.memory.MemoryPeriod;
import dev.openrag.memory.MemoryQuery;
import dev.openrag.memory.MemoryStore;
import dev.openrag.memory.Tags;
import io.smallrye.common.annotation.Blocking;

/**
 * Agents' memories for people (the web UI's Memory area): list, search, add, pin, forget and
 * restore, and the corrections of a scope, over the same {@link MemoryStore} the MCP server
 * uses. Reading needs a {@code read} key, changing a {@code write} key, each granted the scope; a
 * memory in a scope the key is not granted looks like no memory at all (404).
 */
@Path("/api")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Blocking
@RolesAllowed(Role.READER)
public class MemoryResource {

    private static final int MAX_TEXT = 8000;

    /** {@code POST /api/memories} body. */
    public record NewMemory(String scope, String text, Boolean pinned, List<String> tags, Map<String, Object> metadata) {
    }

    /** {@code POST /api/memories:batch} body. */
    public record NewMemories(String scope, List<MemoryBatch.Item> memories) {
    }

    /** {@code POST /api/memories/search} body. */
    public record MemorySearch(String scope, String query, Integer k, Boolean includeForgotten, String asOf, JsonNode filter) {
    }

    private final MemoryStore store;
    private final CorrectionStore correctionStore;
    private final MemoryEmbeddings embeddings;
    private final Access access;
    private final ContradictionCheck contradictions;

    public MemoryResource(MemoryStore store, CorrectionStore correctionStore, MemoryEmbeddings embeddings, Access access,
                          ContradictionCheck contradictions) {
        this.store = store;
        this.correctionStore = correctionStore;
        this.embeddings = embeddings;
        this.access = access;
        this.contradictions = contradictions;
    }

    @GET
    @Path("/memories")
    @Operation(summary = "Memories of a scope, newest first (forgotten and expired ones left out)")
    public Map<String, Object> list(@QueryParam("scope") String scope, @QueryParam("pinned") Boolean pinned,
                                    @QueryParam("page") Integer page, @QueryParam("size") Integer size) {
        String checked = scope(scope);
        int pageNumber = page == null ? 1 : page;
        int pageSize = size == null ? 50 : size;
        int offset = Paging.offset(pageNumber, pageSize, 200);
        List<Memory> memories = store.list(checked, pinned, null, offset, pageSize, System.currentTimeMillis());
        return Map.of("scope", checked, "memories", memories, "page", pageNumber, "size", pageSize);
    }

    @POST
    @Path("/memories")
    @RolesAllowed(Role.WRITER)
    @Operation(summary = "Remember something {scope, text, pinned?, tags?, metadata?} (metadata: key → string, number, ISO-8601 "
            + "date or list of strings, a document's rules; 'tags' is reserved)")
    public Response add(NewMemory request) {
        if (request == null) {
            throw ApiException.badRequest("a JSON body {scope, text, pinned?, tags?} is required");
        }
        String scope = scope(request.scope());
        String text = request.text() == null ? "" : request.text().strip();
        if (text.isEmpty() || text.length() > MAX_TEXT) {
            throw ApiException.badRequest("'text' is required and must have 1 to " + MAX_TEXT + " characters");
        }
        Map<String, Object> metadata;
        try {
            metadata = MemoryFilter.metadata(request.metadata());
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("'metadata': " + e.getMessage());
        }
        long now = System.currentTimeMillis();
        MemoryEmbeddings.Vectors vectors = embeddings.memory(text);
        Memory memory = new Memory(UUID.randomUUID().toString(), scope, text,
                tags(request.tags()), Boolean.TRUE.equals(request.pinned()), now, now,
                null, null, null, List.of(), List.of()).withMetadata(metadata);
        // the same suggestions as MCP add_memory: memory's policy, not the transport's
        memory = store.add(contradictions.withSuggestions(memory, vectors.first(), vectors.second(), now), vectors.first(), vectors.second());
        return Response.status(201).entity(memory).build();
    }

    @POST
    @Path("/memories/batch")
    @RolesAllowed(Role.WRITER)
    @Operation(summary = "Remember up to 500 things in one scope {scope, memories: [{text, id?, tags?, speaker?, occurredAt?, pinned?, context?, supersedes?, metadata?}]};"
            + " an id already in the scope is left as it is")
    public Map<String, Object> addBatch(NewMemories request) {
        if (request == null) {
            throw ApiException.badRequest("a JSON body {scope, memories} is required");
        }
        String scope = scope(request.scope());
        List<Memory> batch;
        List<String> added;
        try {
            batch = MemoryBatch.memories(scope, request.memories(), MAX_TEXT, System.currentTimeMillis());
            MemoryEmbeddings.Batch vectors = embeddings.batch(request.memories());
            added = store.addAll(batch, MemoryBatch.contexts(request.memories()), vectors.first(), vectors.second());
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        return Map.of("scope", scope, "added", added.size(), "existing", batch.size() - added.size(),
                "ids", batch.stream().map(Memory::id).toList());
    }

    @POST
    @Path("/memories/search")
    @Operation(summary = "Memories of a scope nearest to a query {scope, query, k?, includeForgotten?, asOf?, filter?}: what is true now,"
            + " or with asOf (ISO-8601) what was true then; a time the query names ('in May 2023', 'after the wedding') ranks"
            + " what happened then higher, and 'period' says how it was read; filter: on tags and metadata, in search's filter form")
    public Map<String, Object> search(MemorySearch request) {
        if (request == null || request.query() == null || request.query().isBlank()) {
            throw ApiException.badRequest("'query' is required and must not be blank");
        }
        if (request.query().length() > MAX_TEXT) {
            throw ApiException.badRequest("'query' must have at most " + MAX_TEXT + " characters, got " + request.query().length());
        }
        String scope = scope(request.scope());
        int k = request.k() == null ? 10 : request.k();
        if (k < 1 || k > 50) {
            throw ApiException.badRequest("'k' must be between 1 and 50, got " + k);
        }
        String query = request.query().strip();
        Long asOf;
        DocumentFilter filter;
        try {
            asOf = MemoryBatch.time(request.asOf(), "asOf");
            filter = MemoryFilter.parse(request.filter());
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        long now = System.currentTimeMillis();
        // embedded while the period is read (an event it names is dated by a search of its own)
        var vectors = embeddings.queryLater(query, true);
        MemoryPeriod period = MemoryPeriod.read(query, scope, now, asOf, now, store, embeddings);
        List<MemoryHit> hits = store.search(new MemoryQuery(scope, query, null, k, null, 0,
                Boolean.TRUE.equals(request.includeForgotten()), null, null, null, now,
                MemoryQuery.HYBRID, period == null ? null : period.window(), asOf, false, null).withFilter(filter), vectors);
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("scope", scope);
        answer.put("results", hits.stream()
                .filter(hit -> hit.memory() != null)
                .map(hit -> Map.of("score", hit.score(), "memory", hit.memory())).toList());
        if (period != null) {
            answer.put("period", period);
        }
        return answer;
    }

    @POST
    @Path("/memories/{id}/pin")
    @RolesAllowed(Role.WRITER)
    @Operation(summary = "Pin a memory: pinned memories come back with related searches and answers")
    public Memory pin(@PathParam("id") String id) {
        return change(id, () -> store.setPinned(id, true, System.currentTimeMillis()));
    }

    @DELETE
    @Path("/memories/{id}/pin")
    @RolesAllowed(Role.WRITER)
    @Operation(summary = "Unpin a memory")
    public Memory unpin(@PathParam("id") String id) {
        return change(id, () -> store.setPinned(id, false, System.currentTimeMillis()));
    }

    @POST
    @Path("/memories/{id}/forget")
    @RolesAllowed(Role.WRITER)
    @Operation(summary = "Forget a memory (soft: restorable during the retention period)")
    public Memory forget(@PathParam("id") String id) {
        return change(id, () -> store.setForgotten(id, System.currentTimeMillis()));
    }

    @POST
    @Path("/memories/{id}/restore")
    @RolesAllowed(Role.WRITER)
    @Operation(summary = "Restore a forgotten memory")
    public Memory restore(@PathParam("id") String id) {
        return change(id, () -> store.setForgotten(id, null));
    }

    @GET
    @Path("/corrections")
    @Operation(summary = "Corrections of a scope")
    public Map<String, Object> corrections(@QueryParam("scope") String scope) {
        String checked = scope(scope);
        List<Correction> corrections = correctionStore.corrections(checked);
        return Map.of("scope", checked, "corrections", corrections);
    }

    private Memory change(String id, Runnable update) {
        if (store.get(id).filter(memory -> access.allowsScope(memory.scope())).isEmpty()) {
            throw ApiException.notFound("no memory '" + id + "'");
        }
        update.run();
        return store.get(id).orElseThrow();
    }

    private String scope(String scope) {
        return access.scope(scope);
    }

    private static List<String> tags(List<String> tags) {
        try {
            return tags == null ? List.of() : Tags.check(tags);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
    }
}
