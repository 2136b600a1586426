package dev.openrag.memory;

import java.util.List;

/** The one rule for memory tags, shared by the MCP tools and query-api's memory endpoints. */
public final class Tags {

    public static final int MAX_LENGTH = 64;

    private Tags() {
    }

    /**
     * The tags stripped and without repeats ({@code null} stays {@code null}: "not given"), or
     * {@link IllegalArgumentException} when one is null, blank or too long.
     */
    public static List<String> check(List<String> tags) {
        if (tags == null) {
            return null;
        }
        for (int i = 0; i < tags.size(); i++) {
            String tag = tags.get(i);
            if (tag == null || tag.isBlank() || tag.length() > MAX_LENGTH) {
                throw new IllegalArgumentException("'tags' must hold non-blank tags of at most " + MAX_LENGTH
                        + " characters; tags[" + i + "] is " + (tag == null ? "null" : tag.isBlank() ? "blank" : tag.length() + " characters long"));
            }
        }
        return tags.stream().map(String::strip).distinct().toList();
    }
}
