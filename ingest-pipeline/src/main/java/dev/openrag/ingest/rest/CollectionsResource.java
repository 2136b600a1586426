package dev.openrag.ingest.rest;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.openapi.annotations.Operation;

import dev.openrag.ingest.enrich.Enrichments;
import dev.openrag.ingest.source.Collections;
import dev.openrag.knowledge.access.Role;
import dev.openrag.knowledge.port.DocumentTexts;
import dev.openrag.knowledge.port.EngineUnavailableException;
import dev.openrag.knowledge.port.GraphStore;
import dev.openrag.knowledge.port.LexicalIndex;
import dev.openrag.knowledge.port.VectorIndex;
import dev.openrag.knowledge.runtime.ApiException;
import dev.openrag.knowledge.runtime.ReadDeadline;
import dev.openrag.knowledge.runtime.auth.Access;
import dev.openrag.knowledge.settings.CollectionSettings;
import io.smallrye.common.annotation.Blocking;

/**
 * {@code GET /api/collections/{name}/stats}: each store counted by asking it, so anyone can see
 * they agree; {@code GET|PUT /api/collections/{name}/settings}: the collection's enrichments and models;
 * {@code POST /api/collections/{name}/reindex}: texts and spans for documents stored without them, and
 * chunks' places for texts stored without them.
 */
@Path("/api/collections")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
@RolesAllowed(Role.READER)
public class CollectionsResource {

    public record Stats(String collection, long documents, Map<String, Long> chunks) {
    }

    private final GraphStore graph;
    private final LexicalIndex lexical;
    private final VectorIndex vectors;
    private final boolean qdrant;
    private final Access access;
    private final Enrichments enrichments;
    private final ReadDeadline deadline;
    private final DocumentTexts texts;

    public CollectionsResource(GraphStore graph, LexicalIndex lexical, VectorIndex vectors,
                               @ConfigProperty(name = "openrag.vectors.backend", defaultValue = "neo4j") String backend,
                               Access access, Enrichments enrichments, ReadDeadline deadline, DocumentTexts texts) {
        this.access = access;
        this.texts = texts;
        this.deadline = deadline;
        this.enrichments = enrichments;
        this.graph = graph;
        this.lexical = lexical;
        this.vectors = vectors;
        this.qdrant = "qdrant".equals(backend);
    }

    @GET
    @Path("/{name}/stats")
    @Operation(summary = "Documents and chunks per store; null for a store not in use. A store that does not answer within"
            + " openrag.read.timeout is a 503 naming it")
    public Stats stats(@PathParam("name") String name) {
        String collection = access.collection(name);
        Map<String, Long> chunks = new LinkedHashMap<>();
        chunks.put("opensearch", deadline.call(EngineUnavailableException.OPENSEARCH, () -> lexical.countChunks(collection)));
        chunks.put("neo4j", deadline.call(EngineUnavailableException.NEO4J, () -> graph.countChunks(collection)));
        chunks.put("qdrant", qdrant ? deadline.call(EngineUnavailableException.QDRANT, () -> vectors.countChunks(collection)) : null);
        return new Stats(collection, deadline.call(EngineUnavailableException.NEO4J, () -> graph.countDocuments(collection)), chunks);
    }

    /** The documents {@link #reindex} gave a text and spans, and how many texts it gave their chunks' places. */
    public record Reindexed(String collection, int rebuilt, List<String> documentIds, int placed) {
    }

    @POST
    @Path("/{name}/reindex")
    @RolesAllowed(Role.WRITER)
    @Operation(summary = "Rebuilds the text and chunk spans of every document of the collection stored without them (ingested"
            + " before texts were kept), from its stored chunks: {collection, rebuilt, documentIds}. Documents with a text are"
            + " left as they are; a version the pipeline writes later replaces a rebuilt text. Texts stored before chunks' places"
            + " were get them ({placed}: how many), so that their citations no longer read the whole text")
    public Reindexed reindex(@PathParam("name") String name) {
        String collection = access.collection(name);
        List<String> rebuilt = texts.rebuildMissing(collection); // writes, not bounded by the read deadline
        return new Reindexed(collection, rebuilt.size(), rebuilt, texts.placeMissing(collection).size());
    }

    @GET
    @Path("/{name}/settings")
    @Operation(summary = "The enrichments and models in force for the collection (its own settings over the app's defaults)")
    public CollectionSettings settings(@PathParam("name") String name) {
        return enrichments.effective(access.collection(name));
    }

    @PUT
    @Path("/{name}/settings")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Role.WRITER)
    @Operation(summary = "Sets which enrichments run and which provider/model each LLM role uses, for documents ingested from now on")
    public CollectionSettings saveSettings(@PathParam("name") String name, CollectionSettings settings) {
        String collection = access.collection(name);
        if (settings == null) {
            throw ApiException.badRequest("missing JSON body {contextualizer, graphExtractor, summaries, models}");
        }
        try {
            return enrichments.save(collection, settings);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw ApiException.badRequest(e.getMessage());
        }
    }
}
