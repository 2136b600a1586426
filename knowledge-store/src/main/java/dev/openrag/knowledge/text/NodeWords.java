package dev.openrag.knowledge.text;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What graph retrieval embeds and BM25-indexes for an entity or an API operation ({@code words} on
 * the node): its name, then the words inside an identifier ({@code StageRunner}, {@code stage_runner}
 * → "stage runner"), so that a question asked in words reaches a node named in code. An operation
 * adds its summary, method and path.
 */
public final class NodeWords {

    private static final Pattern BOUNDARY = Pattern.compile("[^\\p{L}\\p{N}]+|(?<=\\p{Ll})(?=\\p{Lu})|(?<=\\p{Lu})(?=\\p{Lu}\\p{Ll})");
    private static final int MAX_LENGTH = 400;

    private NodeWords() {
    }

    public static String entity(String name) {
        String words = words(name);
        return clip(words.equals(name.strip().toLowerCase(Locale.ROOT)) ? name.strip() : name.strip() + " (" + words + ")");
    }

    /** @param summary the operation's summary, null when the spec has none */
    public static String operation(String name, String method, String path, String summary) {
        StringBuilder text = new StringBuilder();
        if (summary != null && !summary.isBlank()) {
            text.append(summary.strip()).append(". ");
        }
        text.append(entity(name));
        if (method != null && path != null) {
            text.append(": ").append(method).append(' ').append(path);
        }
        return clip(text.toString());
    }

    /** The words of an identifier or phrase, lower case, separated by single spaces. */
    static String words(String name) {
        List<String> words = new ArrayList<>();
        for (String word : BOUNDARY.split(name.strip())) {
            if (!word.isEmpty()) {
                words.add(word.toLowerCase(Locale.ROOT));
            }
        }
        return String.join(" ", words);
    }

    private static String clip(String text) {
        return text.length() <= MAX_LENGTH ? text : text.substring(0, MAX_LENGTH);
    }
}
