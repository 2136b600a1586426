package dev.openrag.ingest.source;

import dev.openrag.knowledge.runtime.ApiException;
import dev.openrag.schemas.CollectionNames;

/** Collection names become index and collection names in the stores: checked at the edge. */
public final class Collections {

    public static final String DEFAULT = CollectionNames.DEFAULT;

    private Collections() {
    }

    public static String require(String collection) {
        try {
            return CollectionNames.orDefault(collection);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
    }
}
