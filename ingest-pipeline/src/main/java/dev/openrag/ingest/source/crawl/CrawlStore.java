package dev.openrag.ingest.source.crawl;

import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import org.neo4j.driver.Driver;
import org.neo4j.driver.Values;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Crawl records in Neo4j ({@code (:Crawl {id, request, active})}), so that a restart forgets
 * neither a crawl that was running nor a schedule. Literal login values are not stored (only
 * {@code ${ENV_VAR}} references are): a secret never rests in the graph, and a crawl that used
 * literals logs in again only when it is started again.
 */
@ApplicationScoped
public class CrawlStore {

    /** A stored crawl: its id, the request it was started with, and whether it still runs or recrawls. */
    public record Stored(String id, CrawlRequest request) {
    }

    private final Driver driver;
    private final ObjectMapper json = new ObjectMapper();

    public CrawlStore(Driver driver) {
        this.driver = driver;
    }

    public void save(String id, CrawlRequest request) {
        String body;
        try {
            body = json.writeValueAsString(request.redacted());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a crawl request is not serialisable", e);
        }
        driver.executableQuery("MERGE (c:Crawl {id: $id}) SET c.request = $request, c.active = true, c.savedAt = timestamp()")
                .withParameters(Map.of("id", id, "request", body)).execute();
    }

    /** The crawl ended for good (stopped, or a one-off run finished): not to be resumed after a restart. */
    public void finished(String id) {
        driver.executableQuery("MATCH (c:Crawl {id: $id}) SET c.active = false").withParameters(Map.of("id", id)).execute();
    }

    /** Crawls that were running or scheduled: to resume at start-up. */
    public List<Stored> active() {
        return driver.executableQuery("MATCH (c:Crawl {active: true}) RETURN c.id AS id, c.request AS request ORDER BY c.savedAt")
                .execute().records().stream()
                .map(row -> new Stored(row.get("id").asString(), read(row.get("request", Values.value("{}")).asString())))
                .toList();
    }

    private CrawlRequest read(String body) {
        try {
            return json.readValue(body, CrawlRequest.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored crawl request is unreadable: " + e.getOriginalMessage(), e);
        }
    }
}
