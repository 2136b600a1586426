package dev.openrag.knowledge.runtime;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.jackson.ObjectMapperCustomizer;

/**
 * A request body that names a field twice is refused ({@link ErrorMapper}: a 400 naming the field), in every app: Jackson
 * would keep the last value and silently drop the others, so {@code {"team": "a", "team": "b"}} as a filter or as metadata
 * would become {@code team = b} without a word.
 */
@Singleton
public class StrictJsonCustomizer implements ObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    }
}
