package dev.openrag.knowledge.runtime;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import dev.openrag.schemas.Metadata;
import io.quarkus.runtime.StartupEvent;

/**
 * The metadata total cap is read where no Quarkus config reaches (schemas, the CLI): a value that is no positive number
 * stops every app's start with its name, instead of failing each write that carries metadata.
 */
@ApplicationScoped
public class MetadataLimitCheck {

    void onStart(@Observes StartupEvent started) {
        Metadata.maxTotalBytes();
    }
}
