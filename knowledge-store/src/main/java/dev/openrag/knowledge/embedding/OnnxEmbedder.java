package dev.openrag.knowledge.embedding;

import java.util.List;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import dev.openrag.knowledge.port.Embedder;

/**
 * In-process ONNX embeddings with BAAI bge-small-en-v1.5 (quantized, 384 dimensions). The model
 * ships inside a Maven jar, so this works offline with no download. Thread-safe.
 */
public final class OnnxEmbedder implements Embedder {

    public static final String MODEL_NAME = "bge-small-en-v1.5-q";
    /** BGE's instruction for short queries against passages; passages are embedded as they are. */
    public static final String QUERY_INSTRUCTION = "Represent this sentence for searching relevant passages: ";

    private final EmbeddingModel model = new BgeSmallEnV15QuantizedEmbeddingModel();

    @Override
    public String modelName() {
        return MODEL_NAME;
    }

    @Override
    public int dimension() {
        return 384;
    }

    @Override
    public List<float[]> embed(List<String> texts) {
        if (texts.isEmpty()) {
            return List.of();
        }
        List<TextSegment> segments = texts.stream().map(text -> TextSegment.from(text.isBlank() ? " " : text)).toList();
        return model.embedAll(segments).content().stream().map(Embedding::vector).toList();
    }

    @Override
    public float[] embedQuery(String query) {
        return embed(List.of(QUERY_INSTRUCTION + query)).get(0);
    }
}
