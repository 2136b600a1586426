package dev.openrag.knowledge.port;

import java.util.List;

/** Text to vectors; the model name and dimension travel with every vector. */
public interface Embedder {

    String modelName();

    int dimension();

    List<float[]> embed(List<String> texts);
}
