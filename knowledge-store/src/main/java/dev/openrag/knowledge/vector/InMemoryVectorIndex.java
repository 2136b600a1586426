package dev.openrag.knowledge.vector;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

import org.jboss.logging.Logger;

import dev.openrag.knowledge.port.ChunkLookup;
import dev.openrag.knowledge.port.CollectionVectors;
import dev.openrag.knowledge.port.CollectionVectors.Version;
import dev.openrag.knowledge.port.IndexedChunk;
import dev.openrag.knowledge.port.ScoredChunk;
import dev.openrag.knowledge.port.VectorIndex;

/**
 * Searches small collections in an exact in-memory copy of their vectors, and everything else in
 * the index it wraps. On one machine the query is embedded on one core while BM25 runs on the
 * other, and Neo4j's vector index then needs several milliseconds of CPU for a 737-chunk
 * collection (it is asked for 1000 neighbours, see {@code Neo4jVectorIndex#SEARCH_BREADTH}); an
 * exact scan of the same vectors in memory takes about 0.1 ms and is never less accurate.
 *
 * <p>A copy is only used at the collection's current version: every search reads the
 * collection's version as soon as it starts, beside the query's embedding
 * ({@link dev.openrag.knowledge.port.SearchState}, or {@link CollectionVectors#version} for a plain
 * {@link #search}). When the copy is older, the search first brings it up to date by reading only
 * the documents written or deleted since ({@link CollectionVectors#changesSince}: one query for
 * every document's stamp, one for the changed documents' chunks), so searches see every write
 * that their store shows, as before. This matters while a collection is being ingested: it
 * changes with every document, and the wrapped index (Neo4j's HNSW, asked for 1000 neighbours
 * over segments that the writes keep refreshing and merging) took 50–300 ms a search under a
 * stream of writes where the catch-up takes a few milliseconds. A collection without a copy is
 * searched in the wrapped index while a copy is read in the background (one read per collection
 * at a time, at most one a second). Copies hold at most {@code maxChunks} chunks in all: larger
 * collections are never copied, and the least recently searched copies make room for new ones.
 * Scores are the wrapped index's (cosine mapped to [0, 1], as Neo4j's {@code (1 + cos) / 2}).
 */
public final class InMemoryVectorIndex implements VectorIndex, ChunkLookup {

    private static final Logger LOG = Logger.getLogger(InMemoryVectorIndex.class);
    private static final long MIN_RELOAD_INTERVAL_NANOS = 1_000_000_000L;
    private static final Comparator<IndexedChunk> IN_DOCUMENT_ORDER =
            Comparator.comparing(IndexedChunk::documentId).thenComparingInt(IndexedChunk::chunkIndex);

    private final VectorIndex backend;
    private final CollectionVectors source;
    private final ChunkLookup lookup;
    private final long maxChunks;
    private final ExecutorService background = Executors.newVirtualThreadPerTaskExecutor();
    private final Map<String, Copy> copies = new ConcurrentHashMap<>();
    private final Map<String, Long> lastLoadStarted = new ConcurrentHashMap<>();
    private final Set<String> loading = ConcurrentHashMap.newKeySet();
    private final Map<String, Object> catchUpLocks = new ConcurrentHashMap<>();

    /**
     * @param backend   the index that stores the vectors and answers whatever is not copied
     * @param source    the same store, read whole and versioned
     * @param lookup    the same store, for chunks by place in collections without a copy
     * @param maxChunks how many chunks the copies may hold in all
     */
    public InMemoryVectorIndex(VectorIndex backend, CollectionVectors source, ChunkLookup lookup, long maxChunks) {
        this.backend = backend;
        this.source = source;
        this.lookup = lookup;
        this.maxChunks = maxChunks;
    }

    @Override
    public PreparedSearch prepareSearch(String collection, Supplier<Version> version) {
        return prepareSearch(collection, version, null);
    }

    /** From the copy too when it is current: a scan of only the selected documents' chunks, exact like the whole one. */
    @Override
    public PreparedSearch prepareSearch(String collection, Supplier<Version> version, Set<String> documentIds) {
        return (queryVector, k) -> {
            Version current = version.get();
            Copy copy = copies.get(collection);
            if (copy != null && copy.version().equals(current)) {
                return copy.nearest(queryVector, k, documentIds);
            }
            if (current.chunks() > 0 && current.chunks() <= maxChunks) {
                Copy caughtUp = copy == null ? null : caughtUp(collection, current);
                if (caughtUp != null) {
                    return caughtUp.nearest(queryVector, k, documentIds);
                }
                loadInBackground(collection);
            } else if (copy != null) {
                copies.remove(collection); // emptied, or grown past the budget
            }
            return documentIds == null ? backend.search(collection, queryVector, k)
                    : backend.searchWithin(collection, queryVector, k, documentIds);
        };
    }

    /**
     * The copy brought up to the store's version by reading only what changed since it was read;
     * null (the wrapped index answers) when the collection outgrew the budget or the read failed.
     */
    private Copy caughtUp(String collection, Version current) {
        // one catch-up per collection at a time: searches that arrive meanwhile take its result when it
        // reached their version, instead of each reading the changes and rebuilding the copy again
        synchronized (catchUpLocks.computeIfAbsent(collection, name -> new Object())) {
            Copy latest = copies.get(collection);
            if (latest == null) {
                return null; // dropped meanwhile (budget, emptied)
            }
            return latest.version().equals(current) ? latest : catchUp(collection, latest);
        }
    }

    private Copy catchUp(String collection, Copy copy) {
        try {
            CollectionVectors.Changes changes = source.changesSince(collection, copy.stamps());
            if (changes.version().chunks() == 0 || changes.version().chunks() > maxChunks) {
                copies.remove(collection);
                return null;
            }
            Copy next = copy.with(changes);
            copies.put(collection, next);
            evictBeyondBudget(collection);
            return next;
        } catch (RuntimeException e) {
            LOG.debugf("could not bring the copy of collection %s up to date, searching it in the index: %s", collection, e.getMessage());
            return null;
        }
    }

    @Override
    public List<ScoredChunk> searchWithin(String collection, float[] queryVector, int k, Set<String> documentIds) {
        return prepareSearch(collection, () -> source.version(collection), documentIds).nearest(queryVector, k);
    }

    /** Asks the store for the collection's version first (a search asks it beside the embedding, see {@link #prepareSearch}). */
    @Override
    public List<ScoredChunk> search(String collection, float[] queryVector, int k) {
        return prepareSearch(collection, () -> source.version(collection)).nearest(queryVector, k);
    }

    /**
     * From the collection's copy when there is one: the copy answers for the whole collection, so
     * a key it lacks (the neighbour past a document's last chunk) is not there, without a store
     * round trip. A copy is at most as old as the last search's reload (a changed collection is
     * re-read within a second), the same data the vector search answered from. Without a copy,
     * from {@code lookup}.
     */
    @Override
    public List<IndexedChunk> chunks(String collection, Collection<ChunkKey> keys) {
        Copy copy = copies.get(collection);
        return copy == null ? lookup.chunks(collection, keys) : copy.at(keys);
    }

    @Override
    public boolean holdsCopy(String collection) {
        return copies.containsKey(collection);
    }

    @Override
    public List<IndexedChunk> heldChunks(String collection, Version version, Collection<ChunkKey> keys) {
        Copy copy = copies.get(collection);
        return copy == null || !copy.version().equals(version) ? null : copy.at(keys);
    }

    /** Whether a search of the collection now would be answered from memory (asks the store for its version). */
    public boolean servesFromMemory(String collection) {
        Copy copy = copies.get(collection);
        return copy != null && copy.version().equals(source.version(collection));
    }

    /** How many chunks the copies hold in all. */
    public long chunksInMemory() {
        return copies.values().stream().mapToLong(copy -> copy.chunks().length).sum();
    }

    @Override
    public void upsert(List<IndexedChunk> chunks) {
        backend.upsert(chunks);
    }

    @Override
    public void replaceDocument(String collection, String documentId, List<IndexedChunk> chunks) {
        backend.replaceDocument(collection, documentId, chunks);
    }

    @Override
    public void deleteDocument(String collection, String documentId) {
        backend.deleteDocument(collection, documentId);
    }

    @Override
    public long countChunks(String collection) {
        return backend.countChunks(collection);
    }

    private void loadInBackground(String collection) {
        long now = System.nanoTime();
        Long last = lastLoadStarted.get(collection);
        // a collection being ingested changes with every document: re-read it at most once a second
        if (last != null && now - last < MIN_RELOAD_INTERVAL_NANOS || !loading.add(collection)) {
            return;
        }
        lastLoadStarted.put(collection, now);
        background.execute(() -> {
            try {
                load(collection);
            } catch (RuntimeException e) {
                LOG.warnf("could not copy the vectors of collection %s into memory, searching it in the index: %s",
                        collection, e.getMessage());
            } finally {
                loading.remove(collection);
            }
        });
    }

    private void load(String collection) {
        CollectionVectors.Changes everything = source.changesSince(collection, Map.of());
        if (everything.version().chunks() == 0 || everything.version().chunks() > maxChunks) {
            copies.remove(collection);
            return;
        }
        Copy copy = Copy.of(everything.version(), everything.documents(), everything.chunks());
        copies.put(collection, copy);
        LOG.debugf("collection %s: %d chunks copied into memory at version %s", collection, copy.chunks().length,
                everything.version().stamp());
        evictBeyondBudget(collection);
    }

    /** Drops the least recently searched copies, other than {@code keep}, until all fit in the budget. */
    private synchronized void evictBeyondBudget(String keep) {
        while (chunksInMemory() > maxChunks) {
            String oldest = copies.entrySet().stream().filter(entry -> !entry.getKey().equals(keep))
                    .min(Comparator.comparingLong(entry -> entry.getValue().lastUsed()))
                    .map(Map.Entry::getKey).orElse(keep);
            copies.remove(oldest);
        }
    }

    /** One collection's chunks and their unit vectors, laid end to end for a scan. */
    private static final class Copy {

        private final Version version;
        private final Map<String, String> stamps;
        private final IndexedChunk[] chunks;
        private final Map<ChunkKey, IndexedChunk> byKey;
        private final UnitVectors unitVectors;
        private volatile long lastUsed = System.nanoTime();

        /** {@code same}'s chunks and vectors at another version. */
        private Copy(Version version, Copy same) {
            this.version = version;
            this.stamps = same.stamps;
            this.chunks = same.chunks;
            this.byKey = same.byKey;
            this.unitVectors = same.unitVectors;
        }

        private Copy(Version version, Map<String, String> stamps, IndexedChunk[] chunks, UnitVectors unitVectors) {
            this.version = version;
            this.stamps = Map.copyOf(stamps);
            this.byKey = new HashMap<>();
            this.chunks = chunks;
            for (IndexedChunk chunk : chunks) {
                byKey.put(new ChunkKey(chunk.documentId(), chunk.chunkIndex()), chunk);
            }
            this.unitVectors = unitVectors;
        }

        /**
         * The chunks without their vectors (kept once, normalised, in {@link UnitVectors}), in (document,
         * chunk index) order so that a copy caught up and one read whole are the same; vectors of
         * another size are left out.
         */
        static Copy of(Version version, Map<String, String> stamps, List<IndexedChunk> read) {
            int dimension = read.isEmpty() ? 0 : read.get(0).vector().length;
            List<IndexedChunk> usable = read.stream().filter(chunk -> chunk.vector().length == dimension).sorted(IN_DOCUMENT_ORDER).toList();
            IndexedChunk[] chunks = usable.stream().map(chunk -> chunk.withVector(null)).toArray(IndexedChunk[]::new);
            return new Copy(version, stamps, chunks, UnitVectors.of(usable.stream().map(IndexedChunk::vector).toArray(float[][]::new), dimension));
        }

        /** This copy with the {@code changes} applied: the chunks of unchanged documents kept, the changed ones' replaced, the deleted ones' dropped. */
        Copy with(CollectionVectors.Changes changes) {
            if (changes.chunks().isEmpty() && changes.documents().equals(stamps)) {
                return new Copy(changes.version(), this); // only the version moved (a write that changed no chunk)
            }
            List<IndexedChunk> chunksNow = new ArrayList<>(changes.chunks());
            for (int i = 0; i < chunks.length; i++) {
                String documentId = chunks[i].documentId();
                String stamp = stamps.get(documentId);
                if (stamp != null && stamp.equals(changes.documents().get(documentId))) {
                    chunksNow.add(chunks[i].withVector(unitVectors.vector(i)));
                }
            }
            return of(changes.version(), changes.documents(), chunksNow);
        }

        /** Document id → the stamp it had when this copy read it. */
        Map<String, String> stamps() {
            return stamps;
        }

        Version version() {
            return version;
        }

        /** The chunks at {@code keys} that the copy holds. */
        List<IndexedChunk> at(Collection<ChunkKey> keys) {
            List<IndexedChunk> found = new ArrayList<>();
            for (ChunkKey key : keys) {
                IndexedChunk chunk = byKey.get(key);
                if (chunk != null) {
                    found.add(chunk);
                }
            }
            return found;
        }

        IndexedChunk[] chunks() {
            return chunks;
        }

        long lastUsed() {
            return lastUsed;
        }

        /**
         * The k chunks of highest cosine to the query among those of {@code documentIds} (null: all),
         * best first (ties: the earlier chunk first).
         */
        List<ScoredChunk> nearest(float[] query, int k, Set<String> documentIds) {
            lastUsed = System.nanoTime();
            unitVectors.checkDimension(query, "the collection's vectors");
            double queryNorm = UnitVectors.norm(query);
            int size = Math.min(k, chunks.length);
            if (size <= 0) {
                return List.of();
            }
            double[] bestScores = new double[size];
            int[] best = new int[size];
            int found = 0;
            for (int i = 0; i < chunks.length; i++) {
                if (documentIds != null && !documentIds.contains(chunks[i].documentId())) {
                    continue;
                }
                double cosine = unitVectors.cosine(i, query, queryNorm);
                if (found == size && cosine <= bestScores[size - 1]) {
                    continue;
                }
                // insertion into the sorted top list: k is small and most chunks never get this far
                int at = found < size ? found++ : size - 1;
                while (at > 0 && bestScores[at - 1] < cosine) {
                    bestScores[at] = bestScores[at - 1];
                    best[at] = best[at - 1];
                    at--;
                }
                bestScores[at] = cosine;
                best[at] = i;
            }
            ScoredChunk[] hits = new ScoredChunk[found];
            for (int rank = 0; rank < found; rank++) {
                hits[rank] = new ScoredChunk(chunks[best[rank]], rank + 1, (1 + bestScores[rank]) / 2);
            }
            return List.of(hits);
        }
    }
}
