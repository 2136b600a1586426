package dev.openrag.query.browse;

import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

import com.fasterxml.jackson.databind.ObjectMapper;


import dev.openrag.knowledge.access.Role;
import dev.openrag.knowledge.browse.CollectionSummary;
import dev.openrag.knowledge.browse.DocumentDetail;
import dev.openrag.knowledge.browse.DocumentSummary;
import dev.openrag.knowledge.browse.DocumentText;
import dev.openrag.knowledge.browse.Neighbourhood;
import dev.openrag.knowledge.filter.DocumentFilter;
import dev.openrag.knowledge.filter.DocumentFilters;
import dev.openrag.knowledge.neo4j.Neo4jKnowledgeBrowser;
import dev.openrag.knowledge.port.DocumentTexts;
import dev.openrag.knowledge.port.EngineUnavailableException;
import dev.openrag.knowledge.port.KnowledgeBrowser;
import dev.openrag.knowledge.runtime.ApiException;
import dev.openrag.knowledge.runtime.Paging;
import dev.openrag.knowledge.runtime.ReadDeadline;
import dev.openrag.knowledge.runtime.auth.Access;
import dev.openrag.query.search.SearchRequest;
import dev.openrag.schemas.Page;
import io.smallrye.common.annotation.Blocking;

/** Browsing what was ingested: collections, documents with their chunks and contexts, graph neighbourhoods. */
@Path("/api")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
@RolesAllowed(Role.READER)
public class BrowseResource {

    /** {@code GET /api/collections}. */
    public record Collections(List<CollectionSummary> collections) {
    }

    /** {@code GET /api/documents}: one page. */
    public record DocumentPage(String collection, List<DocumentSummary> documents, int page, int size, long total) {
    }

    private static final int MAX_PAGE_SIZE = 200;
    private static final int MAX_GRAPH_EDGES = 1000;
    /** Reads the {@code filter} parameter of {@code GET /api/documents}. */
    /** A key named twice is refused, not read as its last value with the others dropped. */
    private static final ObjectMapper JSON = com.fasterxml.jackson.databind.json.JsonMapper.builder()
            .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    /**
     * {@code GET /api/documents/{id}/text}: the document's extracted text as its current version holds
     * it; citations' spans index into it (UTF-16 code units, as {@code String.slice} counts).
     */
    public record TextView(String documentId, String version, String text, List<Page> pages, List<HeadingAt> headings) {
    }

    /** A heading: its path (outermost first, itself last) and where it starts in the text. */
    public record HeadingAt(List<String> path, int start) {
    }

    private final KnowledgeBrowser browser;
    private final DocumentTexts texts;
    private final ReadDeadline deadline;
    private final Access access;

    public BrowseResource(KnowledgeBrowser browser, DocumentTexts texts, ReadDeadline deadline, Access access) {
        this.browser = browser;
        this.texts = texts;
        this.deadline = deadline;
        this.access = access;
    }

    @GET
    @Path("/collections")
    @Operation(summary = "Collections with their document, chunk and entity counts (those the caller's key is granted)")
    public Collections collections() {
        return new Collections(browser.collections().stream().filter(c -> access.allowsCollection(c.name())).toList());
    }

    @GET
    @Path("/documents")
    @Operation(summary = "Documents of a collection by title, paged; q filters by title or source uri, filter (a JSON "
            + "object, as in search) by metadata")
    public DocumentPage documents(@QueryParam("collection") String collection, @QueryParam("q") String filter,
                                  @QueryParam("filter") @Parameter(description = SearchRequest.FILTER_DOC) String metadataFilter,
                                  @QueryParam("page") @DefaultValue("1") int page, @QueryParam("size") @DefaultValue("20") int size) {
        String name = collection(collection);
        int offset = Paging.offset(page, size, MAX_PAGE_SIZE);
        String q = filter == null || filter.isBlank() ? null : filter.strip();
        DocumentFilter metadata = metadataFilter(metadataFilter);
        long total = browser.countDocuments(name, q, metadata);
        if (total == 0 && q == null && metadata == null) {
            requireKnown(name);
        }
        return new DocumentPage(name, browser.documents(name, q, metadata, offset, size), page, size, total);
    }

    /** The {@code filter} parameter: JSON in the form search takes; a 400 naming the problem otherwise. */
    private DocumentFilter metadataFilter(String json) {
        if (json == null || json.isBlank()) {
            return null;
        }
        try {
            return DocumentFilters.parse(JSON.readTree(json));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw ApiException.badRequest("parameter 'filter' is not JSON: " + e.getOriginalMessage());
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
    }

    @GET
    @Path("/documents/{id}")
    @Operation(summary = "A document with its chunks in order and the context each was indexed with")
    public DocumentDetail document(@PathParam("id") String documentId, @QueryParam("collection") String collection) {
        String name = collection(collection);
        return browser.document(name, documentId)
                .orElseThrow(() -> ApiException.notFound("no document '" + documentId + "' in collection '" + name + "'"));
    }

    @GET
    @Path("/documents/{id}/text")
    @Operation(summary = "The document's extracted text, its version, its pages (PDF) and headings; spans of citations index into"
            + " it. With version, a 409 when that version was replaced (a span of it is stale)")
    public TextView text(@PathParam("id") String documentId, @QueryParam("collection") String collection,
                         @QueryParam("version") String version) {
        String name = collection(collection);
        DocumentText text = deadline.call(EngineUnavailableException.NEO4J, () -> texts.get(name, documentId))
                .orElseThrow(() -> ApiException.notFound("no text of document '" + documentId + "' in collection '" + name
                        + "' (unknown, or ingested before texts were kept: ingest it again)"));
        if (version != null && !version.isBlank() && !version.strip().equals(text.version())) {
            throw new ApiException(409, "stale", "version '" + version.strip() + "' of document '" + documentId
                    + "' was replaced by version '" + text.version() + "': spans of it are stale");
        }
        List<HeadingAt> headings = text.headings().stream()
                .map(heading -> new HeadingAt(text.headingPathAt(heading.offset()), heading.offset())).toList();
        return new TextView(documentId, text.version(), text.text(), text.pages(), headings);
    }

    @GET
    @Path("/graph/neighbourhood")
    @Operation(summary = "The graph around an entity (entity=name, hops 1-3) or a document (document=id)")
    public Neighbourhood neighbourhood(@QueryParam("collection") String collection, @QueryParam("entity") String entity,
                                       @QueryParam("document") String document, @QueryParam("hops") @DefaultValue("1") int hops,
                                       @QueryParam("limit") @DefaultValue("200") int limit) {
        String name = collection(collection);
        boolean byEntity = entity != null && !entity.isBlank();
        boolean byDocument = document != null && !document.isBlank();
        if (byEntity == byDocument) {
            throw ApiException.badRequest("give exactly one of 'entity' or 'document'");
        }
        if (hops < 1 || hops > Neo4jKnowledgeBrowser.MAX_HOPS) {
            throw ApiException.badRequest("'hops' must be between 1 and " + Neo4jKnowledgeBrowser.MAX_HOPS + ", got " + hops);
        }
        if (limit < 1 || limit > MAX_GRAPH_EDGES) {
            throw ApiException.badRequest("'limit' must be between 1 and " + MAX_GRAPH_EDGES + ", got " + limit);
        }
        return byEntity
                ? browser.entityNeighbourhood(name, entity.strip(), hops, limit)
                        .orElseThrow(() -> ApiException.notFound("no entity '" + entity + "' in collection '" + name + "'"))
                : browser.documentNeighbourhood(name, document.strip(), limit)
                        .orElseThrow(() -> ApiException.notFound("no document '" + document + "' in collection '" + name + "'"));
    }

    private void requireKnown(String collection) {
        if (browser.collections().stream().noneMatch(known -> known.name().equals(collection))) {
            throw ApiException.notFound("unknown collection '" + collection + "': nothing has been ingested into it");
        }
    }

    private String collection(String collection) {
        return access.collection(collection);
    }
}
