package dev.openrag.knowledge.port;

import java.util.List;

/** Text to vectors; the model name and dimension travel with every vector. */
public interface Embedder {

    String modelName();

    int dimension();

    List<float[]> embed(List<String> texts);

    /** LangChain4j's models refuse blank texts; a blank text gets the vector of this stand-in instead. */
    static String nonBlank(String text) {
        return text == null || text.isBlank() ? "(empty)" : text;
    }

    /** A search query's vector; models trained with a query instruction override this and {@link #queryInput}. */
    default float[] embedQuery(String query) {
        return embed(List.of(query)).get(0);
    }

    /**
     * The exact text {@link #embedQuery} gives the model for {@code query} (with any instruction prefix): with
     * {@link #modelName()}, what determines the query's vector, so a cache of query vectors is keyed by both.
     */
    default String queryInput(String query) {
        return query;
    }
}
