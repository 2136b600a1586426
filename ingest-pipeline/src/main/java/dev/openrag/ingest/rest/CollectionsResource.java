package dev.openrag.ingest.rest;

import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.openapi.annotations.Operation;

import dev.openrag.ingest.source.Collections;
import dev.openrag.knowledge.access.Role;
import dev.openrag.knowledge.port.GraphStore;
import dev.openrag.knowledge.port.LexicalIndex;
import dev.openrag.knowledge.port.VectorIndex;
import dev.openrag.knowledge.runtime.auth.Access;
import io.smallrye.common.annotation.Blocking;

/** {@code GET /api/collections/{name}/stats}: each store counted by asking it, so anyone can see they agree. */
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

    public CollectionsResource(GraphStore graph, LexicalIndex lexical, VectorIndex vectors,
                               @ConfigProperty(name = "openrag.vectors.backend", defaultValue = "neo4j") String backend,
                               Access access) {
        this.access = access;
        this.graph = graph;
        this.lexical = lexical;
        this.vectors = vectors;
        this.qdrant = "qdrant".equals(backend);
    }

    @GET
    @Path("/{name}/stats")
    @Operation(summary = "Documents and chunks per store; null for a store not in use")
    public Stats stats(@PathParam("name") String name) {
        String collection = access.collection(name);
        Map<String, Long> chunks = new LinkedHashMap<>();
        chunks.put("opensearch", lexical.countChunks(collection));
        chunks.put("neo4j", graph.countChunks(collection));
        chunks.put("qdrant", qdrant ? vectors.countChunks(collection) : null);
        return new Stats(collection, graph.countDocuments(collection), chunks);
    }
}
