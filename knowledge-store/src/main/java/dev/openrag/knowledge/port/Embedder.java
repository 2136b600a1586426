package dev.openrag.knowledge.port;

import java.util.List;

/** Text to vectors; the model name and dimension travel with every vector. */
public interface Embedder {

    String modelName();

    int dimension();

    List<float[]> embed(List<String> texts);

    /** A search query's vector; models trained with a query instruction override this. */
    default float[] embedQuery(String query) {
        return embed(List.of(query)).get(0);
    }
}
