package dev.openrag.memory;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import dev.openrag.knowledge.embedding.SecondEmbedder;
import dev.openrag.knowledge.port.Embedder;

/**
 * A memory's vectors and a memory search's: the app's embedder (what corrections and pinned
 * memories are compared with) and the {@link SecondEmbedder}, computed at once on two threads.
 * The second model embeds the memory's own text only: a turn's context (the turn before) helped
 * the first model's list but lowered the second's (docs/benchmarks.md).
 */
public final class MemoryEmbeddings {

    /** Where {@link #queryLater} embeds with the first model: as many threads as cores, as for the second. */
    private static final ExecutorService QUERY_THREADS = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors(),
            task -> {
                Thread thread = new Thread(task, "query-embedder");
                thread.setDaemon(true);
                return thread;
            });

    /** One memory's vectors; {@code second} is null when the second model is off. */
    public record Vectors(float[] first, float[] second) {
    }

    /** A batch's vectors, in the batch's order; {@code second} is null when the second model is off. */
    public record Batch(List<float[]> first, List<float[]> second) {
    }

    private final Embedder first;
    private final SecondEmbedder second;

    public MemoryEmbeddings(Embedder first, SecondEmbedder second) {
        this.first = first;
        this.second = second;
    }

    /** A memory's text. */
    public Vectors memory(String text) {
        CompletableFuture<List<float[]>> other = second.passages(List.of(text));
        float[] own = first.embed(List.of(text)).get(0);
        List<float[]> seconds = other.join();
        return new Vectors(own, seconds == null ? null : seconds.get(0));
    }

    /** A batch: the first model embeds each item with its context, the second its text alone. */
    public Batch batch(List<MemoryBatch.Item> items) {
        CompletableFuture<List<float[]>> other = second.passages(items.stream().map(item -> item.text().strip()).toList());
        List<float[]> own = first.embed(MemoryBatch.embeddingTexts(items));
        return new Batch(own, other.join());
    }

    /** A search's question; the second vector only when the search will fuse its list (hybrid, no conversation). */
    public Vectors query(String question, boolean withSecond) {
        CompletableFuture<float[]> other = withSecond ? second.query(question) : CompletableFuture.completedFuture(null);
        float[] own = first.embedQuery(question);
        return new Vectors(own, other.join());
    }

    /**
     * {@link #query}, computed on other threads: the caller reads from its store meanwhile what needs
     * no vector ({@link dev.openrag.memory.MemoryStore#search(MemoryQuery, CompletableFuture)}).
     */
    public CompletableFuture<Vectors> queryLater(String question, boolean withSecond) {
        CompletableFuture<float[]> other = withSecond ? second.query(question) : CompletableFuture.completedFuture(null);
        return CompletableFuture.supplyAsync(() -> first.embedQuery(question), QUERY_THREADS).thenCombine(other, Vectors::new);
    }
}
