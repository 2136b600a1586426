package dev.openrag.knowledge.runtime;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;

/** The apps' {@link ReadDeadline}: {@code openrag.read.timeout} (env OPENRAG_READ_TIMEOUT, default 5 s). */
@ApplicationScoped
public class ReadDeadlineProducer {

    @Produces
    @Singleton
    ReadDeadline readDeadline(@ConfigProperty(name = "openrag.read.timeout", defaultValue = "PT5S") Duration budget) {
        return new ReadDeadline(budget);
    }
}
