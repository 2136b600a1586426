package dev.openrag.ingest.source.crawl;

import java.util.List;
import java.util.Map;

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

import dev.openrag.knowledge.runtime.ApiException;
import io.smallrye.common.annotation.Blocking;

/** {@code /api/crawls}: start (202 {crawlId, jobId}), follow, list and stop crawls (ARCHITECTURE §5). */
@Path("/api/crawls")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
public class CrawlsResource {

    private final CrawlService crawls;

    public CrawlsResource(CrawlService crawls) {
        this.crawls = crawls;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Start a crawl {seedUrls, collection, maxDepth, maxPages, include, exclude, sameHostOnly, login, schedule}")
    public Response start(CrawlRequest request) {
        CrawlStatus started = crawls.start(request);
        return Response.accepted(Map.of("crawlId", started.crawlId(), "jobId", started.jobId())).build();
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "A crawl's state, pages {fetched, skipped, failed} and failures with reasons")
    public CrawlStatus status(@PathParam("id") String id) {
        return crawls.status(id).orElseThrow(() -> ApiException.notFound("no crawl '" + id + "'"));
    }

    @GET
    @Operation(summary = "Every crawl of this instance")
    public List<CrawlStatus> all() {
        return crawls.all();
    }

    @DELETE
    @Path("/{id}")
    @Operation(summary = "Stop a crawl and its recrawls")
    public CrawlStatus stop(@PathParam("id") String id) {
        return crawls.stop(id).orElseThrow(() -> ApiException.notFound("no crawl '" + id + "'"));
    }
}
