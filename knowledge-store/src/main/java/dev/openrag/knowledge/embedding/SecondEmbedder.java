package dev.openrag.knowledge.embedding;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Memory search's second opinion on meaning: memories and questions embedded by a second bundled
 * model (e5-small-v2 by default, {@code openrag.memory.second-model}; {@code none}: off), whose
 * nearest memories a hybrid memory search fuses as a list of its own ({@code vector2}).
 *
 * <p>Why a second model rather than another: the first (bge-small) also embeds chunks, corrections
 * and the queries compared with them, against similarity thresholds set for it, so it stays; on
 * LoCoMo's dialogue turns e5-small-v2 alone finds more evidence than bge-small alone (recall@10
 * 0.7152 against 0.6419 on the tune conversations), and the two disagree usefully: fused, they
 * lift the tune conversations and the check ones (docs/benchmarks.md, Memory).
 * On the code corpus e5 alone is weaker than bge, so chunks keep one model.
 *
 * <p>The model loads at first use (an app that never touches memory does not pay its ~35 MB), and
 * embeds on its own threads, so a caller can embed with both models at once.
 */
public final class SecondEmbedder {

    public static final String NONE = "none";

    /** As many threads as cores: the model's work is CPU, and more threads would only queue in the cores. */
    private static final ExecutorService THREADS = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors(), task -> {
        Thread thread = new Thread(task, "second-embedder");
        thread.setDaemon(true);
        return thread;
    });

    private final OnnxEmbedder.Model model;
    private final int parallelism;
    private volatile OnnxEmbedder embedder;

    /** @param modelId a bundled model's id ({@link OnnxEmbedder.Model}) or {@value #NONE} */
    public static SecondEmbedder of(String modelId) {
        return new SecondEmbedder(NONE.equals(modelId) ? null : OnnxEmbedder.Model.of(modelId));
    }

    private SecondEmbedder(OnnxEmbedder.Model model) {
        this.model = model;
        this.parallelism = Runtime.getRuntime().availableProcessors();
    }

    public boolean enabled() {
        return model != null;
    }

    /** The model's id, or {@value #NONE}. */
    public String modelName() {
        return model == null ? NONE : model.id;
    }

    /** The texts' vectors, in order, computed on this embedder's threads; null when off. */
    public CompletableFuture<List<float[]>> passages(List<String> texts) {
        if (model == null || texts.isEmpty()) {
            return CompletableFuture.completedFuture(model == null ? null : List.of());
        }
        return CompletableFuture.supplyAsync(() -> embedder().embed(texts), THREADS);
    }

    /** A question's vector, computed on this embedder's threads; null when off. */
    public CompletableFuture<float[]> query(String question) {
        if (model == null || question == null) {
            return CompletableFuture.completedFuture(null);
        }
        return CompletableFuture.supplyAsync(() -> embedder().embedQuery(question), THREADS);
    }

    private OnnxEmbedder embedder() {
        OnnxEmbedder loaded = embedder;
        if (loaded == null) {
            synchronized (this) {
                if (embedder == null) {
                    embedder = new OnnxEmbedder(model, parallelism);
                }
                loaded = embedder;
            }
        }
        return loaded;
    }
}
