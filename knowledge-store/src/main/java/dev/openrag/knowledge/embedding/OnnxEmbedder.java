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
 * In-process ONNX embeddings with BAAI bge-small-en-v1.5 (quantized, 384 dimensions), or another
 * of the {@link Model}s. Each model ships inside a Maven jar (LangChain4j's
 * {@code langchain4j-embeddings-*-q}), so this works offline with no download. Thread-safe.
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

    public static final String MODEL_NAME = Model.BGE_SMALL_EN_V15.id;
    /** BGE's instruction for short queries against passages, off by default; passages are embedded as they are. */
    public static final String QUERY_INSTRUCTION = "Represent this sentence for searching relevant passages: ";

    /** The bundled models: resources in their LangChain4j jar, pooling, and the prefixes each was trained with. */
    public enum Model {
        BGE_SMALL_EN_V15("bge-small-en-v1.5-q", "/bge-small-en-v1.5-q.onnx", "/bge-small-en-v1.5-q-tokenizer.json",
                PoolingMode.CLS, "", ""),
        /** intfloat's e5-small-v2: trained on question/passage pairs, which its prefixes mark (its model card). */
        E5_SMALL_V2("e5-small-v2-q", "/e5-small-v2-q.onnx", "/e5-small-v2-q-tokenizer.json", PoolingMode.MEAN,
                "passage: ", "query: ");

        public final String id;
        private final String modelResource;
        private final String tokenizerResource;
        private final PoolingMode pooling;
        private final String passagePrefix;
        private final String queryPrefix;

        Model(String id, String modelResource, String tokenizerResource, PoolingMode pooling, String passagePrefix, String queryPrefix) {
            this.id = id;
            this.modelResource = modelResource;
            this.tokenizerResource = tokenizerResource;
            this.pooling = pooling;
            this.passagePrefix = passagePrefix;
            this.queryPrefix = queryPrefix;
        }

        /** The model with this id; an unknown id is a configuration error naming the known ones. */
        public static Model of(String id) {
            for (Model model : values()) {
                if (model.id.equals(id)) {
                    return model;
                }
            }
            throw new IllegalArgumentException("unknown embedding model '" + id + "'; bundled: "
                    + java.util.Arrays.stream(values()).map(model -> model.id).toList());
        }
    }

    private final Model spec;
    private final Encoder model;
    private final String queryPrefix;

    /** One embedding thread per available core, queries without the instruction. */
    public OnnxEmbedder() {
        this(Runtime.getRuntime().availableProcessors(), false);
    }

    /** @param queryInstruction whether {@link #embedQuery} prefixes {@link #QUERY_INSTRUCTION} */
    public OnnxEmbedder(int parallelism, boolean queryInstruction) {
        this(Model.BGE_SMALL_EN_V15, parallelism, queryInstruction ? QUERY_INSTRUCTION : "");
    }

    private OnnxEmbedder(Model spec, int parallelism, String queryPrefix) {
        this.spec = spec;
        this.model = new Encoder(spec, Math.max(1, parallelism));
        this.queryPrefix = queryPrefix;
    }

    /** Another bundled model, with the query and passage prefixes it was trained with. */
    public OnnxEmbedder(Model spec, int parallelism) {
        this(spec, parallelism, spec.queryPrefix);
    }

    @Override
    public String modelName() {
        return spec.id;
    }

    @Override
    public int dimension() {
        return 384;
    }

    @Override
    public List<float[]> embed(List<String> texts) {
        return encode(spec.passagePrefix, texts);
    }

    @Override
    public float[] embedQuery(String query) {
        return encode(queryPrefix, List.of(query)).get(0);
    }

    @Override
    public String queryInput(String query) {
        return queryPrefix + Embedder.nonBlank(query);
    }

    private List<float[]> encode(String prefix, List<String> texts) {
        if (texts.isEmpty()) {
            return List.of();
        }
        List<TextSegment> segments = texts.stream().map(text -> TextSegment.from(prefix + Embedder.nonBlank(text))).toList();
        return model.embedAll(segments).content().stream().map(Embedding::vector).toList();
    }

    /** A LangChain4j bundled model, loaded from its jar with session options of our own. */
    private static final class Encoder extends AbstractInProcessEmbeddingModel {

        private final OnnxBertBiEncoder encoder;

        Encoder(Model spec, int parallelism) {
            super(daemonPool(parallelism));
            try (InputStream modelBytes = resource(spec.modelResource); InputStream tokenizer = resource(spec.tokenizerResource)) {
                OrtEnvironment environment = OrtEnvironment.getEnvironment();
                OrtSession.SessionOptions options = new OrtSession.SessionOptions();
                options.setIntraOpNumThreads(1);
                options.addConfigEntry("session.intra_op.allow_spinning", "0");
                encoder = new OnnxBertBiEncoder(environment, environment.createSession(modelBytes.readAllBytes(), options),
                        tokenizer, spec.pooling);
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
