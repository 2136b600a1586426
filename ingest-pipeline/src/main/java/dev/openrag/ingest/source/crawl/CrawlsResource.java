package dev.openrag.ingest.source.crawl;

import java.util.List;
import java.util.Map;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;

import dev.openrag.knowledge.access.Role;
import dev.openrag.knowledge.runtime.ApiException;
import dev.openrag.knowledge.runtime.auth.Access;
import dev.openrag.schemas.CollectionNames;
import io.smallrye.common.annotation.Blocking;

/** {@code /api/crawls}: start (202 {crawlId, jobId}), follow, list and stop crawls (ARCHITECTURE §5). */
@Path("/api/crawls")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
@RolesAllowed(Role.READER)
public class CrawlsResource {

    private final CrawlService crawls;
    private final Access access;

    public CrawlsResource(CrawlService crawls, Access access) {
        this.crawls = crawls;
        this.access = access;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Start a crawl {seedUrls, collection, maxDepth, maxPages, include, exclude, sameHostOnly, login, schedule, "
            + "metadata}; metadata (key → string, number, ISO-8601 date or list of strings; 400 for a source field name, a filter "
            + "word, a nested object or an oversized key or value) goes to every page, beside its url, host, title and crawlId")
    @RolesAllowed(Role.WRITER)
    public Response start(CrawlRequest request) {
        if (request != null) {
            access.collection(request.collection());
        }
        CrawlStatus started = crawls.start(request);
        return Response.accepted(Map.of("crawlId", started.crawlId(), "jobId", started.jobId())).build();
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "A crawl's state, pages {fetched, skipped, failed} and failures with reasons")
    public CrawlStatus status(@PathParam("id") String id) {
        return visible(id);
    }

    @GET
    @Operation(summary = "Every crawl (of the collections the caller's key is granted)")
    public List<CrawlStatus> all() {
        return crawls.all().stream().filter(crawl -> access.allowsCollection(collectionOf(crawl))).toList();
    }

    @DELETE
    @Path("/{id}")
    @Operation(summary = "Stop a crawl and its recrawls")
    @RolesAllowed(Role.WRITER)
    public CrawlStatus stop(@PathParam("id") String id) {
        visible(id);
        return crawls.stop(id).orElseThrow(() -> ApiException.notFound("no crawl '" + id + "'"));
    }

    /** The crawl, when the caller's key is granted its collection (403 otherwise). */
    private CrawlStatus visible(String id) {
        CrawlStatus crawl = crawls.status(id).orElseThrow(() -> ApiException.notFound("no crawl '" + id + "'"));
        access.collection(collectionOf(crawl));
        return crawl;
    }

    private static String collectionOf(CrawlStatus crawl) {
        return CollectionNames.orDefault(crawl.request().collection());
    }
}
