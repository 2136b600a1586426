package dev.openrag.schemas;

import java.util.regex.Pattern;

/**
 * Collection names become index and collection names in every store, so one rule (the same as
 * the {@code collection} pattern of the event schemas) is checked at every edge.
 */
public final class CollectionNames {

    public static final String DEFAULT = "default";
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9_-]{0,63}");

    private CollectionNames() {
    }

    public static boolean isValid(String name) {
        return name != null && NAME.matcher(name).matches();
    }

    /** The name, {@link #DEFAULT} when blank, or an {@link IllegalArgumentException} saying what is wrong. */
    public static String orDefault(String name) {
        if (name == null || name.isBlank()) {
            return DEFAULT;
        }
        if (!isValid(name)) {
            throw new IllegalArgumentException("invalid collection name '" + name
                    + "': use 1-64 characters a-z, 0-9, '_' or '-', starting with a letter or digit");
        }
        return name;
    }
}
