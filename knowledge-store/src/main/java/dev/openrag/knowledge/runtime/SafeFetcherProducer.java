package dev.openrag.knowledge.runtime;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.openrag.knowledge.fetch.AddressPolicy;
import dev.openrag.knowledge.fetch.SafeFetcher;

/** The one {@link SafeFetcher} of an app: {@code openrag.fetch.allow-private} (CIDRs, default none) opens ranges. */
@ApplicationScoped
public class SafeFetcherProducer {

    @Produces
    @Singleton
    SafeFetcher safeFetcher(@ConfigProperty(name = "openrag.fetch.allow-private") Optional<List<String>> allowPrivate) {
        return new SafeFetcher(AddressPolicy.of(allowPrivate.orElse(List.of())), Duration.ofSeconds(10));
    }
}
