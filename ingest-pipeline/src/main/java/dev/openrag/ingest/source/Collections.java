package dev.openrag.ingest.source;

import java.util.regex.Pattern;

import dev.openrag.knowledge.runtime.ApiException;

/** Collection names become index and collection names in the stores: checked at the edge. */
public final class Collections {

    public static final String DEFAULT = "default";
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9_-]{0,63}");

    private Collections() {
    }

    public static String require(String collection) {
        if (collection == null || collection.isBlank()) {
            return DEFAULT;
        }
        if (!NAME.matcher(collection).matches()) {
            throw ApiException.badRequest("invalid collection name '" + collection
                    + "': use 1-64 characters a-z, 0-9, '_' or '-', starting with a letter or digit");
        }
        return collection;
    }
}
