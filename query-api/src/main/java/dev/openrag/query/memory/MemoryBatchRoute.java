package dev.openrag.query.memory;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpMethod;

/**
 * {@code POST /api/memories:batch} (the contract, in the style of Google's custom methods) reaches
 * {@link MemoryResource#addBatch} at {@code /api/memories/batch}: Quarkus REST does not match a
 * literal ':' in a {@code @Path} (quarkusio/quarkus#10750), so a filter reroutes the request
 * before any route, authentication included, sees it.
 */
@ApplicationScoped
public class MemoryBatchRoute {

    static final String CONTRACT_PATH = "/api/memories:batch";
    /** The same path with its ':' percent-encoded, as some clients (RestAssured among them) send it. */
    static final String ENCODED_PATH = "/api/memories%3abatch";

    void register(@Observes Filters filters) {
        filters.register(context -> {
            if (context.request().method() == HttpMethod.POST && (CONTRACT_PATH.equals(context.normalizedPath()) || ENCODED_PATH.equalsIgnoreCase(context.normalizedPath()))) {
                context.reroute("/api/memories/batch");
            } else {
                context.next();
            }
        }, 10_000);
    }
}
