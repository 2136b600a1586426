package dev.openrag.knowledge.neo4j;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

import org.jboss.logging.Logger;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Session;
import org.neo4j.driver.TransactionContext;
import org.neo4j.driver.Value;
import org.neo4j.driver.exceptions.Neo4jException;
import org.neo4j.driver.exceptions.RetryableException;
import org.neo4j.driver.types.Node;

import dev.openrag.knowledge.memory.Conversation;
import dev.openrag.knowledge.memory.Correction;
import dev.openrag.knowledge.memory.Memory;
import dev.openrag.knowledge.memory.MemoryEntities;
import dev.openrag.knowledge.memory.MemoryEmbeddings;
import dev.openrag.knowledge.memory.MemoryHit;
import dev.openrag.knowledge.memory.MemoryQuery;
import dev.openrag.knowledge.memory.MemoryText;
import dev.openrag.knowledge.memory.Message;
import dev.openrag.knowledge.memory.NewerWins;
import dev.openrag.knowledge.memory.RelatedKnowledge;
import dev.openrag.knowledge.port.MemoryStore;

/**
 * {@link MemoryStore} on Neo4j: {@code (:Memory {scope, text, embedding, pinned, expiresAt})},
 * {@code (:Memory)-[:LINKED {type}]->(:Memory)}, {@code (:Memory)-[:ABOUT]->(:Entity|:Document)},
 * {@code (:Correction)-[:CORRECTS]->(:Chunk|:Memory)},
 * {@code (:Conversation)-[:HAS_MESSAGE]->(:Message)} and {@code (:Conversation)-[:HAS_MEMORY]->(:Memory)}.
 * <p>
 * Memory search scans a small scope exactly (indexed by {@code Memory.scope}) and asks the shared
 * {@code memory_embedding} vector index for a big one (see {@link #nearest}); the index ranks
 * all scopes together, so a small scope next to a big one could get no hits from it alone, and it
 * takes new memories in batches after their write ({@link MemoryVectorQueue}). Once a
 * scope has an in-memory copy that is current ({@link MemoryScopeCopies}), its lists come from the
 * copy instead: exact vector scans, and BM25 with the scope's own word statistics; the copy also
 * gives a hybrid search its feedback list ({@link #expandedByFeedback}) and the second embedding
 * model's list ({@link #SECOND_VECTOR_LIST}, over {@code Memory.secondEmbedding}, which no index holds).
 */
public final class Neo4jMemoryStore implements MemoryStore {

    private static final Logger LOG = Logger.getLogger(Neo4jMemoryStore.class);

    private static final String MEMORY_FIELDS = """
            m {.*, embedding: null, secondEmbedding: null, vectors: null, vectorsOf: null, context: null,
               about: [(m)-[:ABOUT]->(a) | coalesce(a.name, a.documentId)],
               links: [(m)-[l:LINKED]->(o:Memory) | {type: l.type, toId: o.id, fact: l.fact, reason: l.reason}],
               entities: [(m)-[:MENTIONS]->(e:MemoryEntity) | e.name],
               conversationId: head([(c:Conversation)-[:HAS_MEMORY]->(m) | c.id])} AS memory""";

    private static final String MEMORY_BY_ID = "MATCH (m:Memory {id: $id}) RETURN " + MEMORY_FIELDS;

    /** After {@code UNWIND ... AS entity} with {@code m} bound: links m to each entity of its scope (never its own speaker). */
    private static final String MENTION = """
                  WITH m, entity WHERE entity.key <> coalesce(m.speakerKey, '')
                  MERGE (e:MemoryEntity {scope: m.scope, key: entity.key}) ON CREATE SET e.name = entity.name
                  SET e.certain = coalesce(e.certain, false) OR entity.certain
                  MERGE (m)-[:MENTIONS]->(e)
            """;

    /** With {@code before} bound to entities a memory mentioned: deletes those no memory mentions any more. */
    private static final String DELETE_UNMENTIONED = """
            CALL (before) {
              UNWIND before AS e
              WITH e WHERE NOT EXISTS { (e)<-[:MENTIONS]-(:Memory) }
              DELETE e
            }
            """;

    /** How many of the first fused hits lend their entities to the entity list. */
    static final int ENTITY_SEEDS = 3;
    /** An entity more memories than this mention (a hub: the other speaker's name) says little about any of them. */
    static final int MAX_ENTITY_MENTIONS = 20;

    /** The name {@link NewerWins} goes by in a hit's {@code adjusted}. */
    static final String NEWER_WINS = "newerWins";

    /** Scopes up to this many memories are searched by an exact scan (about 20 ms on 2 cores). */
    public static final int EXACT_SCAN_LIMIT = 1000;
    /** How long new memories wait to enter the vector index together: a few hundred at a time under a steady stream. */
    public static final Duration VECTOR_INDEX_DELAY = Duration.ofMillis(500);
    /** The vectors of 50,000 memories of 384 dimensions take about 80 MB of heap, 160 with the second model's (texts and word index come on top). */
    public static final long DEFAULT_MAX_COPIED = 50_000;
    /** How deep each list of a hybrid search is before fusion. */
    static final int FUSION_DEPTH = 50;
    /**
     * How a hybrid search fuses its lists.
     *
     * @param rrfK          RRF's constant. Small, unlike chunk search's 60: a memory search's lists
     *                      (vectors, BM25, a named speaker's, a named period's) are complementary, and a
     *                      small constant lets each list's first hits into the top ten instead of memories
     *                      every list ranks middling. 3 was chosen among 1, 3, 5, 10, 20 and 60 on LoCoMo's
     *                      tune conversations (recall@10 0.6930 at 60, 0.7563 at 3) and checked on the
     *                      others (0.6676 to 0.7124; docs/benchmarks.md).
     * @param feedbackHits  how many of the first fused hits lend their words to the feedback list (0: no
     *                      feedback list)
     * @param feedbackTerms how many of their words join the query's in the feedback list. 10 and 10 were
     *                      chosen among 3, 5, 10 hits by 5, 10, 20 words on the tune conversations (recall@10
     *                      0.7731 without, 0.7796-0.7939 with) and checked on the others (0.7202 to 0.7319);
     *                      with stems, 5 words among 5, 10, 20 (tune 0.8383 at 10, 0.8409 at 5; check
     *                      0.7905 to 0.7951)
     * @param otherSpeakerWeight what a memory spoken by someone else keeps of its fused score when the
     *                      question is about one of the scope's speakers (it names only them, or names them
     *                      first and not together with another; 1: no focus). In LoCoMo's
     *                      dev conversations 97% of such questions' evidence is the named person's own
     *                      turns, while a quarter of the top ten were the other person's. 0.5 was chosen
     *                      among 0.25, 0.5 and 0.75 on the tune conversations (recall@10 0.7913 without,
     *                      0.7959 with) and checked on the others (0.7323 to 0.7465; docs/benchmarks.md)
     * @param stemming      whether BM25 over a scope's copy matches words by their English stems
     *                      ({@link dev.openrag.knowledge.memory.ScopeWords}). Off when first measured
     *                      (it cost the tune conversations two questions at recall@10); on since the
     *                      context, feedback and time lists joined: recall@10 0.8291 to 0.8383 on
     *                      the tune conversations, 0.7870 to 0.7887-0.7905 on the others
     * @param episodeWeight how much a memory's episode (the memories that happened on the same UTC day)
     *                      lends it: its fused candidates' summed score over the best episode's, times
     *                      this, added to the memory's own over the best (0: off). 0.2 was chosen
     *                      among 0.1, 0.2 and 0.5 on the tune conversations (recall@10 0.7959 without,
     *                      0.8088 with) and checked on the others (0.7465 to 0.7555; docs/benchmarks.md)
     */
    public record SearchTuning(int rrfK, int feedbackHits, int feedbackTerms, double otherSpeakerWeight, boolean stemming,
                               double episodeWeight) {

        public static final int DEFAULT_RRF_K = 3;
        public static final int DEFAULT_FEEDBACK_HITS = 10;
        public static final int DEFAULT_FEEDBACK_TERMS = 5;
        public static final double DEFAULT_OTHER_SPEAKER_WEIGHT = 0.5;
        public static final boolean DEFAULT_STEMMING = true;
        public static final double DEFAULT_EPISODE_WEIGHT = 0.2;
        public static final SearchTuning DEFAULT = new SearchTuning(DEFAULT_RRF_K, DEFAULT_FEEDBACK_HITS, DEFAULT_FEEDBACK_TERMS,
                DEFAULT_OTHER_SPEAKER_WEIGHT, DEFAULT_STEMMING, DEFAULT_EPISODE_WEIGHT);

        public SearchTuning(int rrfK, int feedbackHits, int feedbackTerms) {
            this(rrfK, feedbackHits, feedbackTerms, DEFAULT_OTHER_SPEAKER_WEIGHT, DEFAULT_STEMMING, DEFAULT_EPISODE_WEIGHT);
        }

        public SearchTuning {
            if (!(episodeWeight >= 0 && episodeWeight <= 10)) {
                throw new IllegalArgumentException("the memory search's episode weight must be between 0 and 10, not " + episodeWeight);
            }
            if (!(otherSpeakerWeight >= 0 && otherSpeakerWeight <= 1)) {
                throw new IllegalArgumentException("the memory search's other-speaker weight must be between 0 and 1, not "
                        + otherSpeakerWeight);
            }
            if (rrfK < 1) {
                throw new IllegalArgumentException("the memory search's RRF constant must be at least 1, not " + rrfK);
            }
            if (feedbackHits < 0 || feedbackTerms < 0) {
                throw new IllegalArgumentException("the memory search's feedback hits and terms must not be negative, not "
                        + feedbackHits + " and " + feedbackTerms);
            }
        }
    }
    /** The fused list of the second embedding model's nearest memories (its name in a hit's ranks). */
    public static final String SECOND_VECTOR_LIST = "vector2";
    /** The list of BM25 over each memory's context and text together (memories added with a context). */
    public static final String CONTEXT_WORDS_LIST = "context";

    /** Where a search's independent queries run, each waiting on Neo4j (virtual threads: waiting is cheap). */
    private static final ExecutorService QUERIES = Executors.newVirtualThreadPerTaskExecutor();

    /** How long a scope's size and speakers are reused before they are read again. */
    static final long SCOPE_FACTS_TTL_MS = 5000;
    /** Past this many scopes in the cache, the stale entries are dropped (a server may see many short-lived scopes). */
    static final int MAX_CACHED_SCOPES = 10_000;

    private final Driver driver;
    private final int exactScanLimit;
    private final MemoryScopeCopies copies;
    private final MemoryVectorQueue vectorQueue;
    private final SearchTuning tuning;
    /**
     * Per scope: its size (up to the exact-scan limit) and who speaks in it, read once every
     * {@value #SCOPE_FACTS_TTL_MS} ms instead of in every search (two round trips, 10 ms at 10,000
     * memories). A stale size only picks the exact scan or the index, both correct; a speaker added
     * through this store drops the scope's entry at once, one added through another instance is
     * recognised in questions within the TTL.
     */
    private final Map<String, ScopeFacts> scopeFacts = new java.util.concurrent.ConcurrentHashMap<>();

    private record ScopeFacts(long size, Map<String, String> speakersByKey, long readAt) {
    }

    public Neo4jMemoryStore(Driver driver) {
        this(driver, EXACT_SCAN_LIMIT, DEFAULT_MAX_COPIED);
    }

    /**
     * @param exactScanLimit the largest scope Neo4j scans exactly; bigger ones ask its vector index
     * @param maxCopied      how many memories the in-memory copies of scopes may hold in all (0: none,
     *                       every search asks Neo4j; see {@link MemoryScopeCopies})
     */
    public Neo4jMemoryStore(Driver driver, int exactScanLimit, long maxCopied) {
        this(driver, exactScanLimit, maxCopied, SearchTuning.DEFAULT);
    }

    /** @param tuning how a hybrid search's lists are fused ({@link SearchTuning}) */
    public Neo4jMemoryStore(Driver driver, int exactScanLimit, long maxCopied, SearchTuning tuning) {
        this(driver, exactScanLimit, maxCopied, tuning, VECTOR_INDEX_DELAY);
    }

    /**
     * @param vectorIndexDelay how long new memories wait to enter the vector index together
     *                         ({@link MemoryVectorQueue}); null: only when {@link #indexQueuedVectors} is called
     */
    public Neo4jMemoryStore(Driver driver, int exactScanLimit, long maxCopied, SearchTuning tuning, Duration vectorIndexDelay) {
        this.driver = driver;
        this.exactScanLimit = exactScanLimit;
        this.tuning = Objects.requireNonNull(tuning);
        this.copies = new MemoryScopeCopies(driver, maxCopied, tuning.stemming());
        this.vectorQueue = new MemoryVectorQueue(driver, vectorIndexDelay);
        vectorQueue.queued(); // what an earlier run left queued
    }

    /** Moves the memories waiting for the vector index into it now (they are searchable before too); returns how many. */
    public int indexQueuedVectors() {
        return vectorQueue.indexAll();
    }

    @Override
    public Memory add(Memory memory, float[] embedding, float[] secondEmbedding) {
        Map<String, Object> params = new HashMap<>();
        params.put("id", memory.id());
        params.put("scope", memory.scope());
        params.put("text", memory.text());
        params.put("tags", memory.tags());
        params.put("pinned", memory.pinned());
        params.put("createdAt", memory.createdAt());
        params.put("expiresAt", memory.expiresAt());
        params.put("embedding", Neo4jGraphStore.toList(embedding));
        params.put("vectors", new MemoryVectors(embedding, secondEmbedding).packed());
        params.put("about", memory.about());
        params.put("conversationId", memory.conversationId());
        params.put("occurredAt", memory.occurredAt());
        params.put("speaker", memory.speaker());
        params.put("speakerKey", MemoryText.key(memory.speaker()));
        params.put("entities", entities(memory));
        params.putAll(MemoryScopeCopies.bumpParameters(List.of(memory.id()), List.of()));
        noteSpeaker(memory.scope(), memory.speaker());
        String create = ("""
                CREATE (m:Memory:%s {id: $id, scope: $scope, text: $text, tags: $tags, pinned: $pinned,
                                  createdAt: $createdAt, updatedAt: $createdAt, expiresAt: $expiresAt, embedding: $embedding,
                                  vectors: $vectors, vectorsOf: $createdAt, occurredAt: $occurredAt, speaker: $speaker,
                                  speakerKey: $speakerKey})
                WITH m
                CALL (m) {
                  UNWIND $entities AS entity
                """ + MENTION + """
                }
                WITH m
                CALL (m) {
                  UNWIND $about AS name
                  MATCH (target) WHERE (target:Entity AND (toLower(target.name) = toLower(name) OR target.uid = name))
                                    OR (target:Document AND (target.documentId = name OR target.uid = name))
                  MERGE (m)-[:ABOUT]->(target)
                }
                WITH m
                OPTIONAL MATCH (c:Conversation {id: $conversationId, scope: $scope})
                FOREACH (_ IN CASE WHEN c IS NULL THEN [] ELSE [1] END | MERGE (c)-[:HAS_MEMORY]->(m))
                """).formatted(Neo4jSchema.MEMORY_TO_INDEX);
        // one transaction: without links, one statement that also gives the scope its new version and returns the memory
        // as stored (three round trips and a second session fewer: 11.6 to 8.3-9.1 ms at p50 for the store's part of an
        // add, docs/benchmarks.md); with links, the version comes after them, so the scope locks last
        String plain = create + "WITH m\n" + MemoryScopeCopies.BUMP_SCOPE_OF_M_FROM_TO + "\nRETURN " + MEMORY_FIELDS + ", before, after";
        Function<Record, Written> asWritten = row -> new Written(memory(row.get("memory")), new MemoryScopeCopies.Versions(
                memory.scope(), row.get("before").asString(null), row.get("after").asString()), List.of());
        Written written = null;
        try (Session session = driver.session()) {
            if (memory.links().isEmpty()) {
                // that statement as an auto-commit transaction: one round trip where a transaction function takes three
                // (begin, run, commit), 1-1.5 ms less at p50 (docs/benchmarks.md). The driver retries transaction
                // functions only, so a retryable failure (a deadlock, a lost connection) goes to one, as any other write.
                try {
                    written = asWritten.apply(session.run(plain, params).single());
                } catch (Neo4jException e) {
                    if (!(e instanceof RetryableException)) {
                        throw e;
                    }
                    LOG.debugf("memory %s: its add is tried again in a transaction function: %s", memory.id(), e.getMessage());
                }
            }
            if (written == null) {
                written = session.executeWrite(tx -> {
                    if (memory.links().isEmpty()) {
                        return asWritten.apply(tx.run(plain, params).single());
                    }
                    tx.run(create, params).consume();
                    List<MemoryScopeCopies.Mark> ends = linkAll(tx, List.of(memory));
                    MemoryScopeCopies.Versions versions = MemoryScopeCopies.bumpFromTo(tx, memory.scope(), changed(List.of(memory.id()), ends), List.of());
                    return new Written(memory(tx.run(MEMORY_BY_ID, Map.of("id", memory.id())).single().get("memory")),
                            versions, ends);
                });
            }
        }
        // the scope's copy takes the memory, and the ends of validity of those it supersedes, at its next search
        Memory stored = written.memory();
        copies.changed(written.versions(), List.of(new MemoryScopeCopies.Row(stored.id(), stored.text(), null, embedding,
                secondEmbedding, stored.speaker(), happened(stored), stored.expiresAt(),
                stored.conversationId() == null ? List.of() : List.of(stored.conversationId()))), written.ends(), List.of());
        vectorQueue.queued();
        return written.memory();
    }

    /** The ids of the memories a write changed: those it wrote, and those it set a time on. */
    private static List<String> changed(List<String> written, List<MemoryScopeCopies.Mark> marks) {
        return Stream.concat(written.stream(), marks.stream().map(MemoryScopeCopies.Mark::id)).distinct().toList();
    }

    private static long happened(Memory memory) {
        return memory.occurredAt() != null ? memory.occurredAt() : memory.createdAt();
    }

    /** A memory as written, the versions its write took the scope from and to, and the ends of validity it set. */
    private record Written(Memory memory, MemoryScopeCopies.Versions versions, List<MemoryScopeCopies.Mark> ends) {
    }

    /**
     * Marks each {@code old} memory superseded by its {@code id} one (same scope): a
     * {@value Memory#SUPERSEDES} link, and {@code validTo} = when the newer one happened (kept if it
     * was superseded before). Fails, rolling the transaction back, when an old id is not in the scope.
     * Returns the ends of validity as stored, in the order of the pairs (for the scope's copy).
     */
    private static List<MemoryScopeCopies.Mark> supersede(TransactionContext tx, List<Map<String, Object>> pairs) {
        if (pairs.isEmpty()) {
            return List.of();
        }
        List<Record> rows = tx.run("""
                UNWIND $pairs AS pair
                MATCH (m:Memory {id: pair.id})
                OPTIONAL MATCH (old:Memory {id: pair.old}) WHERE old.scope = m.scope AND old <> m
                CALL (m, old) {
                  WITH * WHERE old IS NOT NULL
                  MERGE (m)-[:LINKED {type: $type}]->(old)
                  SET old.validTo = coalesce(old.validTo, m.occurredAt, m.createdAt)
                }
                RETURN pair.old AS old, old IS NULL AS missing, old.validTo AS validTo""",
                Map.of("pairs", pairs, "type", Memory.SUPERSEDES)).list();
        List<MemoryScopeCopies.Mark> ends = new ArrayList<>();
        for (Record row : rows) {
            if (row.get("missing").asBoolean()) {
                throw new IllegalArgumentException("'supersedes' names no memory of this scope: '" + row.get("old").asString() + "'");
            }
            ends.add(new MemoryScopeCopies.Mark(row.get("old").asString(), MemoryScopeCopies.Mark.Time.VALID_TO, row.get("validTo").asLong()));
        }
        return ends;
    }

    /**
     * The links of new memories: supersessions (which end validity), then every other typed link to a memory of the
     * same scope. Returns the ends of validity the supersessions set.
     */
    private static List<MemoryScopeCopies.Mark> linkAll(TransactionContext tx, List<Memory> memories) {
        List<MemoryScopeCopies.Mark> ends = supersede(tx, supersessions(memories));
        List<Map<String, Object>> links = memories.stream().flatMap(memory -> memory.links().stream()
                .filter(link -> !Memory.SUPERSEDES.equals(link.type()))
                .map(link -> {
                    Map<String, Object> row = new HashMap<>();
                    row.put("id", memory.id());
                    row.put("to", link.toId());
                    row.put("type", link.type());
                    row.put("fact", link.fact());
                    row.put("reason", link.reason());
                    row.put("words", link.words());
                    return row;
                })).toList();
        if (!links.isEmpty()) {
            // a suggested supersession keeps which fact, why, and the fact's word stems (NewerWins reads them)
            tx.run("""
                    UNWIND $links AS link
                    MATCH (a:Memory {id: link.id}), (b:Memory {id: link.to}) WHERE b.scope = a.scope
                    MERGE (a)-[l:LINKED {type: link.type}]->(b)
                    SET l.fact = link.fact, l.reason = link.reason, l.words = CASE WHEN size(link.words) = 0 THEN null ELSE link.words END""",
                    Map.of("links", links)).consume();
        }
        return ends;
    }

    private static List<Map<String, Object>> supersessions(List<Memory> memories) {
        return memories.stream().flatMap(memory -> memory.links().stream().filter(link -> Memory.SUPERSEDES.equals(link.type()))
                .map(link -> Map.<String, Object>of("id", memory.id(), "old", link.toId()))).toList();
    }

    @Override
    public List<String> addAll(List<Memory> memories, List<String> contexts, List<float[]> embeddings, List<float[]> secondEmbeddings) {
        if (memories.isEmpty()) {
            return List.of();
        }
        String scope = memories.get(0).scope();
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int i = 0; i < memories.size(); i++) {
            Memory memory = memories.get(i);
            Map<String, Object> row = new HashMap<>();
            row.put("id", memory.id());
            row.put("text", memory.text());
            String context = contexts == null ? null : contexts.get(i);
            row.put("context", context == null || context.isBlank() ? null : context.strip());
            row.put("tags", memory.tags());
            row.put("pinned", memory.pinned());
            row.put("createdAt", memory.createdAt());
            row.put("expiresAt", memory.expiresAt());
            row.put("occurredAt", memory.occurredAt());
            row.put("speaker", memory.speaker());
            row.put("speakerKey", MemoryText.key(memory.speaker()));
            row.put("entities", entities(memory));
            noteSpeaker(scope, memory.speaker());
            row.put("embedding", Neo4jGraphStore.toList(embeddings.get(i)));
            row.put("vectors", new MemoryVectors(embeddings.get(i), secondEmbeddings == null ? null : secondEmbeddings.get(i)).packed());
            rows.add(row);
        }
        Batch batch;
        try (Session session = driver.session()) {
            batch = session.executeWrite(tx -> {
                List<String> taken = tx.run("MATCH (m:Memory) WHERE m.id IN [row IN $rows | row.id] AND m.scope <> $scope RETURN m.id AS id",
                        Map.of("rows", rows, "scope", scope)).list(r -> r.get("id").asString());
                if (!taken.isEmpty()) {
                    throw new IllegalArgumentException("ids already used outside scope '" + scope + "': " + taken);
                }
                List<String> added = tx.run(("""
                        UNWIND $rows AS row
                        OPTIONAL MATCH (existing:Memory {id: row.id})
                        WITH row WHERE existing IS NULL
                        CREATE (m:Memory:%s {id: row.id, scope: $scope, text: row.text, context: row.context, tags: row.tags, pinned: row.pinned,
                                          createdAt: row.createdAt, updatedAt: row.createdAt, expiresAt: row.expiresAt, embedding: row.embedding,
                                          vectors: row.vectors, vectorsOf: row.createdAt, occurredAt: row.occurredAt, speaker: row.speaker, speakerKey: row.speakerKey})
                        WITH m, row
                        CALL (m, row) {
                          UNWIND row.entities AS entity
                        """ + MENTION + """
                        }
                        RETURN m.id AS id""").formatted(Neo4jSchema.MEMORY_TO_INDEX), Map.of("rows", rows, "scope", scope))
                        .list(r -> r.get("id").asString());
                // only the memories this call added: a batch sent again changes nothing
                List<MemoryScopeCopies.Mark> ends = linkAll(tx, memories.stream().filter(memory -> added.contains(memory.id())).toList());
                return new Batch(added, added.isEmpty() ? null : MemoryScopeCopies.bumpFromTo(tx, scope, changed(added, ends), List.of()), ends);
            });
        }
        // the batch reaches the scope's copy as a single add does
        if (batch.versions() != null) {
            Set<String> added = Set.copyOf(batch.added());
            List<MemoryScopeCopies.Row> copied = new ArrayList<>();
            for (int i = 0; i < memories.size(); i++) {
                Memory memory = memories.get(i);
                if (added.contains(memory.id())) {
                    copied.add(new MemoryScopeCopies.Row(memory.id(), memory.text(), (String) rows.get(i).get("context"),
                            embeddings.get(i), secondEmbeddings == null ? null : secondEmbeddings.get(i), memory.speaker(),
                            happened(memory), memory.expiresAt(), List.of()));
                }
            }
            copies.changed(batch.versions(), copied, batch.ends(), List.of());
        }
        vectorQueue.queued();
        return batch.added();
    }

    /** The ids a batch added, the versions its write took the scope from and to (null: it added none), and the ends of validity it set. */
    private record Batch(List<String> added, MemoryScopeCopies.Versions versions, List<MemoryScopeCopies.Mark> ends) {
    }

    @Override
    public Optional<Memory> get(String id) {
        try (Session session = driver.session()) {
            return session.executeRead(tx -> tx.run(MEMORY_BY_ID, Map.of("id", id))
                    .list().stream().findFirst().map(row -> memory(row.get("memory"))));
        }
    }

    @Override
    public List<Memory> list(String scope, Boolean pinned, String tag, int offset, int limit, long now) {
        Map<String, Object> params = new HashMap<>();
        params.put("scope", scope);
        params.put("pinned", pinned);
        params.put("tag", tag);
        params.put("offset", offset);
        params.put("limit", limit);
        params.put("now", now);
        return read("""
                MATCH (m:Memory {scope: $scope})
                WHERE m.forgottenAt IS NULL AND (m.expiresAt IS NULL OR m.expiresAt > $now)
                  AND ($pinned IS NULL OR m.pinned = $pinned) AND ($tag IS NULL OR $tag IN m.tags)
                RETURN %s ORDER BY m.createdAt DESC, m.id SKIP $offset LIMIT $limit""".formatted(MEMORY_FIELDS), params)
                .stream().map(row -> memory(row.get("memory"))).toList();
    }

    @Override
    public Memory update(String id, String text, float[] embedding, float[] secondEmbedding, List<String> tags, long now) {
        Map<String, Object> params = new HashMap<>();
        params.put("id", id);
        params.put("text", text);
        params.put("embedding", embedding == null ? null : Neo4jGraphStore.toList(embedding));
        params.put("tags", tags);
        params.put("now", now);
        params.put("entities", text == null ? null : entities(text));
        String cypher = """
                MATCH (m:Memory {id: $id})
                WITH m, [(m)-[:MENTIONS]->(e:MemoryEntity) | e] AS before
                SET m.text = coalesce($text, m.text), m.embedding = coalesce($embedding, m.embedding), m.tags = coalesce($tags, m.tags)
                """ + VECTORS_FOLLOW + """
                SET m.updatedAt = $now
                FOREACH (_ IN CASE WHEN $vectors IS NULL THEN [] ELSE [1] END |
                  SET m.vectors = $vectors, m.vectorsOf = $now, m.secondEmbedding = null)
                WITH m, before
                CALL (m) {
                  WITH m WHERE $entities IS NOT NULL
                  OPTIONAL MATCH (m)-[old:MENTIONS]->(:MemoryEntity)
                  DELETE old
                }
                CALL (m) {
                  UNWIND coalesce($entities, []) AS entity
                """ + MENTION + """
                }
                """ + DELETE_UNMENTIONED;
        boolean newWords = text != null || embedding != null;
        record Updated(MemoryScopeCopies.Versions versions, List<MemoryScopeCopies.Edit> edits) {
        }
        Updated updated;
        try (Session session = driver.session()) {
            updated = session.executeWrite(tx -> {
                // a new text or vector rewrites both vectors' bytes: a new text with its vector gives both (a new text without a
                // second vector drops the old one, which described the old text); otherwise the one not given stays as it
                // was, read under the memory's lock so that a concurrent update cannot come between this read and the write
                MemoryVectors vectors = !newWords ? null : text != null && embedding != null ? new MemoryVectors(embedding, secondEmbedding)
                        : tx.run("MATCH (m:Memory {id: $id}) SET m.lock = true REMOVE m.lock RETURN " + MemoryVectors.READ, Map.of("id", id))
                        .list(MemoryVectors::of).stream().findFirst()
                        .map(old -> new MemoryVectors(embedding != null ? embedding : old.embedding(), text != null ? secondEmbedding : old.second()))
                        .orElse(null);
                Map<String, Object> withVectors = new HashMap<>(params);
                withVectors.put("vectors", vectors == null ? null : vectors.packed());
                tx.run(cypher, withVectors).consume();
                List<MemoryScopeCopies.Edit> edits = vectors == null ? List.of() : tx.run(
                        "MATCH (m:Memory {id: $id}) RETURN m.text AS text, m.context AS context", Map.of("id", id))
                        .list(row -> new MemoryScopeCopies.Edit(id, row.get("text").asString(""), row.get("context").asString(null),
                                vectors.embedding(), vectors.second()));
                return new Updated(MemoryScopeCopies.bumpScopeOfFromTo(tx, id, List.of(id), false), edits);
            });
        }
        // the scope's copy takes the new text and vectors (new tags alone change nothing it holds)
        copies.changed(updated.versions(), List.of(), List.of(), updated.edits());
        return get(id).orElseThrow();
    }

    /**
     * Keeps a memory's vectors' bytes current ({@link MemoryVectors}) through a write that sets its {@code updatedAt}
     * to {@code $now} without new vectors; as a clause before that {@code SET}.
     */
    private static final String VECTORS_FOLLOW = "SET m.vectorsOf = CASE WHEN m.vectorsOf = m.updatedAt THEN $now END\n";

    @Override
    public void link(String fromId, String toId, String type) {
        if (Memory.SUPERSEDES.equals(type)) {
            // confirming a suggested supersession: the suggestion becomes the caller's supersedes
            marked(tx -> {
                tx.run("MATCH (:Memory {id: $from})-[l:LINKED {type: $suggested}]->(:Memory {id: $to}) DELETE l",
                        Map.of("from", fromId, "to", toId, "suggested", Memory.SUGGESTED_SUPERSEDES)).consume();
                return supersede(tx, List.of(Map.of("id", fromId, "old", toId)));
            }, fromId);
            return;
        }
        write("""
                MATCH (a:Memory {id: $from}), (b:Memory {id: $to})
                MERGE (a)-[l:LINKED {type: $type}]->(b)""", Map.of("from", fromId, "to", toId, "type", type));
    }

    @Override
    public boolean unlink(String fromId, String toId, String type) {
        try (Session session = driver.session()) {
            return session.executeWrite(tx -> tx.run("""
                    MATCH (:Memory {id: $from})-[l:LINKED {type: $type}]->(:Memory {id: $to})
                    DELETE l
                    RETURN count(*) AS removed""", Map.of("from", fromId, "to", toId, "type", type)).single().get("removed").asLong() > 0);
        }
    }

    @Override
    public Set<String> speakers(String scope) {
        return Set.copyOf(scopeFacts(scope).speakersByKey().values());
    }

    @Override
    public void setPinned(String id, boolean pinned, long now) {
        write("MATCH (m:Memory {id: $id}) SET m.pinned = $pinned\n" + VECTORS_FOLLOW + "SET m.updatedAt = $now",
                Map.of("id", id, "pinned", pinned, "now", now));
    }

    @Override
    public void setForgotten(String id, Long forgottenAt) {
        Map<String, Object> params = new HashMap<>();
        params.put("id", id);
        params.put("at", forgottenAt);
        marked(tx -> {
            tx.run("MATCH (m:Memory {id: $id}) SET m.forgottenAt = $at", params).consume();
            return List.of(new MemoryScopeCopies.Mark(id, MemoryScopeCopies.Mark.Time.FORGOTTEN, forgottenAt));
        }, id);
    }

    /**
     * A write that sets times on memories of the scope of memory {@code id} ({@code marking} returns them), with a new
     * version for that scope in the same transaction; the scope's copy takes the times at its next search.
     */
    private void marked(Function<TransactionContext, List<MemoryScopeCopies.Mark>> marking, String id) {
        record Marked(List<MemoryScopeCopies.Mark> marks, MemoryScopeCopies.Versions versions) {
        }
        Marked marked;
        try (Session session = driver.session()) {
            marked = session.executeWrite(tx -> {
                List<MemoryScopeCopies.Mark> marks = marking.apply(tx);
                return new Marked(marks, MemoryScopeCopies.bumpScopeOfFromTo(tx, id, changed(List.of(), marks), false));
            });
        }
        copies.changed(marked.versions(), List.of(), marked.marks(), List.of());
    }

    @Override
    public boolean delete(String id) {
        MemoryScopeCopies.Versions versions;
        try (Session session = driver.session()) {
            versions = session.executeWrite(tx -> {
                MemoryScopeCopies.Versions bumped = MemoryScopeCopies.bumpScopeOfFromTo(tx, id, List.of(), true); // null: no such memory
                tx.run("""
                    MATCH (m:Memory {id: $id})
                    WITH m, [(m)-[:MENTIONS]->(e:MemoryEntity) | e] AS before
                    DETACH DELETE m
                    WITH before
                    """ + DELETE_UNMENTIONED, Map.of("id", id)).consume();
                return bumped;
            });
        }
        copies.changed(versions, List.of(), List.of(), List.of(MemoryScopeCopies.Edit.deleted(id)));
        return versions != null;
    }

    /** The entities of a memory's text as Cypher rows; the speaker's own name is left out in {@link #MENTION}. */
    private static List<Map<String, Object>> entities(String text) {
        return MemoryEntities.of(text, null).stream()
                .map(e -> Map.<String, Object>of("key", e.key(), "name", e.name(), "certain", e.certain())).toList();
    }

    /** A new memory's entities: the rules' over its text, and any it names itself (a model's, certain), each key once. */
    private static List<Map<String, Object>> entities(Memory memory) {
        Map<String, Map<String, Object>> byKey = new LinkedHashMap<>();
        entities(memory.text()).forEach(entity -> byKey.put((String) entity.get("key"), entity));
        for (String name : memory.entities() == null ? List.<String>of() : memory.entities()) {
            String key = MemoryText.key(name);
            if (key != null && !key.isEmpty()) {
                byKey.put(key, Map.of("key", key, "name", name.strip(), "certain", true));
            }
        }
        return List.copyOf(byKey.values());
    }

    /**
     * An entry of one ranked list before the memories are read: what it is, its id, its score in
     * that list; a message comes whole (a conversation has few). Only the final k are read whole.
     */
    private record Candidate(String kind, String id, double score, Message message) {

        String key() {
            return kind + ":" + id;
        }
    }

    /**
     * A candidate after fusion: its fused score, its 1-based rank in each list that held it, and what
     * the steps after fusion did to its score ({@link MemoryHit#adjusted()}; null when none ran).
     */
    record Fused(Candidate candidate, double score, Map<String, Integer> ranks, Map<String, Double> adjusted) {

        Fused(Candidate candidate, double score, Map<String, Integer> ranks) {
            this(candidate, score, ranks, null);
        }

        /** This hit with a new score and one more entry in {@code adjusted}. */
        Fused adjusted(double newScore, String step, double value) {
            Map<String, Double> steps = new LinkedHashMap<>(adjusted == null ? Map.of() : adjusted);
            steps.put(step, value);
            return new Fused(candidate, newScore, ranks, steps);
        }
    }

    /** Best first, ties by key, as fusion orders them. */
    private static final Comparator<Fused> BEST_FIRST = Comparator.comparingDouble(Fused::score).reversed()
            .thenComparing(hit -> hit.candidate().key());

    @Override
    public List<MemoryHit> search(MemoryQuery query) {
        return search(query, CompletableFuture.completedFuture(new MemoryEmbeddings.Vectors(query.vector(), query.secondVector())));
    }

    /**
     * The search, reading where the scope stands (one round trip to Neo4j, about 4 ms), its copy and its best memories by
     * words while the question is embedded (about 5 ms). On 2 cores, where embedding with two models fills both, that
     * saved 0.4 ms of a 13-18 ms search (docs/benchmarks.md); with cores to spare, up to the round trip.
     */
    @Override
    public List<MemoryHit> search(MemoryQuery question, CompletableFuture<MemoryEmbeddings.Vectors> vectors) {
        Map<String, Object> params = new HashMap<>();
        params.put("scope", question.scope());
        params.put("conversationId", question.conversationId());
        params.put("boost", question.conversationBoost());
        params.put("includeForgotten", question.includeForgotten());
        params.put("now", question.now());
        params.put("speaker", question.speaker());
        params.put("after", question.after());
        params.put("before", question.before());
        params.put("asOf", question.asOf());
        String lucene = question.text() == null || MemoryQuery.VECTOR.equals(question.mode()) ? ""
                : MemoryText.luceneQuery(question.text());
        boolean wordsOnly = MemoryQuery.BM25.equals(question.mode());
        int k = question.k();
        // recency reorders what the lists found, so they look deeper than k when it is on
        int depth = lucene.isEmpty() && question.recency() == null ? k : Math.max(k, FUSION_DEPTH);
        params.put("k", depth);
        // whether the scope is small enough to scan: counting past the limit would read the whole scope's index
        // entries (9 ms at 10,000 memories, before anything else could start)
        ScopeFacts facts = scopeFacts(question.scope());
        long scopeSize = facts.size();
        // a scope without a current copy is read into memory now: its first search then ranks with the copy's lists too, as
        // the next one will (LoCoMo's scopes of 369-680 memories took 60-380 ms to read, one of 10,000 370-630 ms)
        MemoryScopeCopies.Copy copy = copies.current(question.scope(), true);
        // the lists are independent queries: they run at once, each on its own session; BM25 starts first, as it
        // needs neither the vector nor the scope's copy
        CompletableFuture<List<Candidate>> byText = null;
        if (!lucene.isEmpty()) {
            if (copy != null) { // BM25 with the scope's own statistics
                byText = CompletableFuture.completedFuture(fromCopy(copy.bestByWords(MemoryText.queryTerms(question.text()),
                        MemoryScopeCopies.Filter.of(params), depth)));
            } else {
                Map<String, Object> words = new HashMap<>(params);
                words.put("lucene", MemoryText.inScope(question.scope(), lucene));
                vectorQueue.indexAll(); // the index holds the memories moved out of the queue only (MemoryVectorQueue)
                byText = async(() -> candidates(read(Neo4jSchema.AWAIT_MEMORY_WORDS
                        + "CALL db.index.fulltext.queryNodes('" + Neo4jSchema.MEMORY_TEXT_INDEX
                        + "', $lucene) YIELD node AS m, score AS similarity\n" + FILTER, words)));
            }
        }
        MemoryEmbeddings.Vectors embedded = join(vectors);
        MemoryQuery query = question.withVectors(embedded.first(), embedded.second());
        params.put("vector", Neo4jGraphStore.toList(query.vector()));
        double[] similarities = copy == null ? null : copy.similarities(query.vector());
        CompletableFuture<List<Candidate>> byVector = nearest(params, depth, scopeSize, copy, similarities);
        CompletableFuture<List<Candidate>> messages = query.conversationId() == null
                ? CompletableFuture.completedFuture(List.of()) : async(() -> conversationMessages(params));
        CompletableFuture<List<Candidate>> inPeriod = null;
        CompletableFuture<List<Candidate>> bySpeaker = null;
        if (!lucene.isEmpty()) {
            if (!wordsOnly && query.period() != null) {
                // what happened in the period the question names, nearest first
                Map<String, Object> period = new HashMap<>(params);
                period.put("after", query.after() == null ? query.period().from() : Math.max(query.after(), query.period().from()));
                period.put("before", query.before() == null ? query.period().to() : Math.min(query.before(), query.period().to()));
                inPeriod = nearest(period, depth, scopeSize, copy, similarities);
            }
            if (!wordsOnly && query.speaker() == null) {
                // a question that names someone who speaks in the scope: their own memories, nearest first
                List<String> named = namedSpeakers(facts, query.text());
                if (!named.isEmpty()) {
                    Map<String, Object> speaker = new HashMap<>(params);
                    speaker.put("speaker", named.get(0));
                    bySpeaker = nearest(speaker, depth, scopeSize, copy, similarities);
                }
            }
        }
        // the conversation's messages compete with memories by similarity (plus the boost), as they always did
        List<Candidate> bySimilarity = new ArrayList<>(join(byVector));
        bySimilarity.addAll(join(messages));
        bySimilarity.sort(Comparator.comparingDouble(Candidate::score).reversed());
        if (byText == null) {
            List<Fused> similar = bySimilarity.stream().map(candidate -> new Fused(candidate, candidate.score(), null)).toList();
            if (query.recency() != null) {
                similar = liftedByRecency(query.recency(), copy != null ? new Said(copy::speakerOf, copy::happenedAt) : said(similar), similar);
            }
            return results(similar.stream().limit(k).toList(), query, params);
        }
        Map<String, List<Candidate>> lists = new LinkedHashMap<>();
        if (!wordsOnly) {
            lists.put("vector", bySimilarity);
            // the second model's nearest: another opinion on meaning, from the scope's copy when all its memories have one;
            // not beside a conversation's messages, which it does not embed: its vote would put every memory above them
            List<MemoryScopeCopies.Scored> second = copy == null || query.secondVector() == null || query.conversationId() != null ? null
                    : copy.nearestBySecond(query.secondVector(), MemoryScopeCopies.Filter.of(params), depth);
            if (second != null) {
                lists.put(SECOND_VECTOR_LIST, fromCopy(second));
            }
        }
        // BM25 votes only where the query's words tell memories apart: a word all of them hold ranks them by length alone
        boolean wordsVote = wordsOnly || copy == null || copy.wordsTellApart(MemoryText.queryTerms(query.text()));
        lists.put("bm25", wordsVote ? join(byText) : List.of());
        if (copy != null && !wordsOnly && wordsVote) {
            // a reply's words with the turn it answers: "I've had them for 3 years" holds no "turtles", the question before it does
            List<MemoryScopeCopies.Scored> inContext = copy.bestByWordsInContext(MemoryText.queryTerms(query.text()),
                    MemoryScopeCopies.Filter.of(params), depth);
            if (inContext != null) {
                lists.put(CONTEXT_WORDS_LIST, fromCopy(inContext));
            }
        }
        if (inPeriod != null) {
            lists.put("time", join(inPeriod));
        }
        if (bySpeaker != null && join(bySpeaker) != null) {
            lists.put("speaker", join(bySpeaker));
        }
        // feedback expands what the query's words found: none found, nothing to expand (the first hits are then
        // only near in meaning, and their words would lend the memories a vote over the conversation's messages)
        if (copy != null && !wordsOnly && tuning.feedbackHits() > 0 && tuning.feedbackTerms() > 0 && !lists.get("bm25").isEmpty()) {
            List<Candidate> expanded = expandedByFeedback(copy, lists, query.text(), MemoryScopeCopies.Filter.of(params), depth);
            if (!expanded.isEmpty()) {
                lists.put("feedback", expanded);
            }
        }
        if (!wordsOnly && query.entityLinks()) {
            List<Candidate> linked = linkedByEntities(params, query.text(), fuse(lists, ENTITY_SEEDS));
            if (!linked.isEmpty()) {
                lists.put("entity", linked);
            }
        }
        // a question about one of the scope's speakers is mostly answered by what that person said
        String focus = tuning.otherSpeakerWeight() >= 1 ? null : focusedSpeaker(facts, query.text());
        boolean episodes = tuning.episodeWeight() > 0;
        if (focus == null && !episodes && query.recency() == null) {
            return results(fuse(lists, k), query, params);
        }
        List<Fused> fused = fuse(lists, Integer.MAX_VALUE);
        Said said = copy != null ? new Said(copy::speakerOf, copy::happenedAt) : said(fused);
        if (focus != null) {
            fused = focusedOn(focus, said, fused);
        }
        if (episodes) {
            fused = liftedByEpisode(said, fused);
        }
        if (query.recency() != null) {
            fused = liftedByRecency(query.recency(), said, fused);
        }
        return results(fused.stream().limit(k).toList(), query, params);
    }

    /**
     * Recency, when the search asks for it ({@link MemoryQuery.Recency}): each memory's score, over the
     * best, gains what its age leaves of the recency weight. Messages keep their score over the best.
     */
    private static List<Fused> liftedByRecency(MemoryQuery.Recency recency, Said said, List<Fused> fused) {
        double best = fused.stream().mapToDouble(Fused::score).max().orElse(0);
        if (best <= 0) {
            return fused;
        }
        return fused.stream()
                .map(hit -> {
                    Long happened = hit.candidate().message() == null ? said.happenedAt().apply(hit.candidate().id()) : null;
                    double lift = happened == null ? 0 : recency.lift(happened);
                    return hit.adjusted(hit.score() / best + lift, "recency", lift);
                })
                .sorted(BEST_FIRST)
                .toList();
    }

    /**
     * Who said each memory and when it happened (its occurredAt, else its creation), for the steps
     * after fusion: the scope's copy knows; without one they are read for the fused memories.
     */
    private record Said(Function<String, String> speakerOf, Function<String, Long> happenedAt) {
    }

    /** {@link Said} for the fused memories, in one read (a scope without a current copy). */
    private Said said(List<Fused> fused) {
        List<String> ids = fused.stream().map(Fused::candidate).filter(c -> c.message() == null).map(Candidate::id).toList();
        Map<String, String> speakers = new HashMap<>();
        Map<String, Long> happened = new HashMap<>();
        if (!ids.isEmpty()) {
            read("""
                    MATCH (m:Memory) WHERE m.id IN $ids
                    RETURN m.id AS id, m.speaker AS speaker, coalesce(m.occurredAt, m.createdAt) AS happened""",
                    Map.of("ids", ids)).forEach(row -> {
                        String id = row.get("id").asString();
                        if (!row.get("speaker").isNull()) {
                            speakers.put(id, row.get("speaker").asString());
                        }
                        if (!row.get("happened").isNull()) {
                            happened.put(id, row.get("happened").asLong());
                        }
                    });
        }
        return new Said(speakers::get, happened::get);
    }

    /**
     * Episodes: the memories that happened on the same (UTC) day are one episode (a conversation's
     * session, a day's notes). Each memory's score, over the best, gets {@code tuning.episodeWeight()}
     * times its episode's summed fused score over the best episode's: where strong hits cluster, the
     * turns around them that share no word with the question rise. Messages keep their score over the best.
     */
    private List<Fused> liftedByEpisode(Said said, List<Fused> fused) {
        if (fused.isEmpty()) {
            return fused;
        }
        Map<Long, Double> episodes = new HashMap<>();
        for (Fused hit : fused) {
            Long day = episodeOf(said, hit);
            if (day != null) {
                episodes.merge(day, hit.score(), Double::sum);
            }
        }
        double bestEpisode = episodes.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
        double best = fused.stream().mapToDouble(Fused::score).max().orElse(0);
        if (bestEpisode <= 0 || best <= 0) {
            return fused;
        }
        return fused.stream()
                .map(hit -> {
                    Long day = episodeOf(said, hit);
                    double lift = day == null ? 0 : tuning.episodeWeight() * episodes.get(day) / bestEpisode;
                    return hit.adjusted(hit.score() / best + lift, "episode", lift);
                })
                .sorted(BEST_FIRST)
                .toList();
    }

    private static Long episodeOf(Said said, Fused hit) {
        Long happened = hit.candidate().message() == null ? said.happenedAt().apply(hit.candidate().id()) : null;
        return happened == null ? null : Math.floorDiv(happened, 86_400_000L);
    }

    /**
     * The fused candidates with every memory another known speaker said weighed by
     * {@code tuning.otherSpeakerWeight()}, re-sorted (ties by key, as in fusion). Memories without a
     * speaker and conversation messages keep their score.
     */
    private List<Fused> focusedOn(String speaker, Said said, List<Fused> fused) {
        return fused.stream()
                .map(hit -> {
                    String by = hit.candidate().message() == null ? said.speakerOf().apply(hit.candidate().id()) : null;
                    return by == null || by.equals(speaker) ? hit
                            : hit.adjusted(hit.score() * tuning.otherSpeakerWeight(), "otherSpeaker", tuning.otherSpeakerWeight());
                })
                .sorted(BEST_FIRST)
                .toList();
    }

    /**
     * Pseudo-relevance feedback (RM3's idea, over the scope's copy): the words that best characterise
     * the first fused hits join the query's, and BM25 ranks the scope again with them. It reaches
     * evidence that shares no word with the question but shares them with what the question found
     * first: "which cities has John been to" finds a trip, and the trip's words find the other trips.
     * Only with a current copy: it needs the scope's own word statistics.
     */
    private List<Candidate> expandedByFeedback(MemoryScopeCopies.Copy copy, Map<String, List<Candidate>> lists, String text,
                                               MemoryScopeCopies.Filter filter, int depth) {
        List<String> seeds = fuse(lists, tuning.feedbackHits()).stream().map(Fused::candidate)
                .filter(candidate -> candidate.message() == null).map(Candidate::id).toList();
        List<Integer> positions = copy.positions(seeds);
        if (positions.isEmpty()) {
            return List.of();
        }
        List<String> terms = new ArrayList<>(MemoryText.queryTerms(text));
        terms.addAll(copy.feedbackTerms(positions, tuning.feedbackTerms(), terms));
        return fromCopy(copy.bestByWords(terms, filter, depth));
    }

    /** Whether a search of the scope now would take its vector lists from memory (reads the scope's version; starts a copy if none). */
    public boolean servesFromMemory(String scope) {
        return copies.current(scope) != null;
    }

    /**
     * How searches found their scope's in-memory copy since this store began, by name: {@code current} (at the scope's
     * version), {@code own_writes} (brought to it by this instance's writes), {@code caught_up} (by reading what other
     * instances wrote and deleted since), {@code read_now} (a small scope read whole while the search waited) and
     * {@code none} (Neo4j answered, without the lists only a copy gives: a search that ranks otherwise than the next).
     */
    public Map<String, Long> copyFindings() {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (MemoryScopeCopies.Found how : MemoryScopeCopies.Found.values()) {
            counts.put(how.name().toLowerCase(Locale.ROOT), copies.found(how));
        }
        return counts;
    }

    /** How many memories the scopes' in-memory copies hold in all. */
    public long memoriesInMemory() {
        return copies.memoriesInMemory();
    }

    private List<Candidate> conversationMessages(Map<String, Object> params) {
        return read("""
                MATCH (c:Conversation {id: $conversationId, scope: $scope})-[:HAS_MESSAGE]->(msg:Message)
                WITH c, msg, vector.similarity.cosine(msg.embedding, $vector) + $boost AS score
                ORDER BY score DESC, msg.id LIMIT $k
                RETURN score, c.id AS conversationId, msg""", params).stream()
                .map(row -> {
                    Message message = message(row.get("conversationId").asString(), row.get("msg").asNode());
                    return new Candidate("message", message.id(), row.get("score").asDouble(), message);
                })
                .toList();
    }

    private static <T> CompletableFuture<T> async(Supplier<T> query) {
        return CompletableFuture.supplyAsync(query, QUERIES);
    }

    /** The list, or the query's own exception (callers tell an outage by its type). */
    private static <T> T join(CompletableFuture<T> list) {
        try {
            return list.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }

    /**
     * The entity list, one or two hops through the names memories mention: the memories that name
     * what the question names, then the memories sharing a name with those or with the first
     * {@value #ENTITY_SEEDS} fused hits (only names some memory wrote with a capital mid-sentence,
     * see {@link MemoryEntities}); the question's names first, then the rarer the shared name the
     * earlier, then the nearest. Hubs (names of more than {@value #MAX_ENTITY_MENTIONS} memories) are
     * not followed and the seeds themselves are left out.
     */
    private List<Candidate> linkedByEntities(Map<String, Object> params, String text, List<Fused> seeds) {
        Map<String, Object> linked = new HashMap<>(params);
        linked.put("names", MemoryText.nameCandidates(text));
        linked.put("seeds", seeds.stream().map(Fused::candidate).filter(c -> c.message() == null).map(Candidate::id).toList());
        linked.put("maxMentions", MAX_ENTITY_MENTIONS);
        return candidates(read("""
                CALL () {
                  MATCH (q:MemoryEntity {scope: $scope}) WHERE q.key IN $names AND COUNT { (q)<-[:MENTIONS]-(:Memory) } <= $maxMentions
                  MATCH (q)<-[:MENTIONS]-(s:Memory) RETURN s
                  UNION
                  MATCH (s:Memory) WHERE s.id IN $seeds RETURN s
                }
                MATCH (s)-[:MENTIONS]->(e:MemoryEntity) WHERE e.certain OR e.key IN $names
                WITH DISTINCT e
                WITH e, COUNT { (e)<-[:MENTIONS]-(:Memory) } AS mentions WHERE mentions <= $maxMentions
                MATCH (e)<-[:MENTIONS]-(m:Memory) WHERE NOT m.id IN $seeds
                // a name of the question first, then the rarer the shared name the more it says; then the nearest
                WITH m, min(CASE WHEN e.key IN $names THEN 0 ELSE mentions END) AS rarest
                WITH m, vector.similarity.cosine(m.embedding, $vector) - rarest AS similarity
                """ + FILTER, linked));
    }

    /**
     * The speaker a question is about: the only one of the scope's speakers it names, or, when it names
     * several, the first, its subject in an English question ("What did Nate make for Joanna?"), unless
     * it names two of them together ("What do Jon and Gina both like?"): then none. In LoCoMo's dev
     * conversations, 57 of the 69 evidence turns of the questions naming both speakers apart were the
     * first-named speaker's own (docs/benchmarks.md).
     */
    private static String focusedSpeaker(ScopeFacts facts, String text) {
        List<String> named = namedSpeakers(facts, text);
        for (int i = 0; i < named.size(); i++) {
            for (int j = i + 1; j < named.size(); j++) {
                if (MemoryText.namedTogether(text, named.get(i), named.get(j))) {
                    return null;
                }
            }
        }
        return named.isEmpty() ? null : named.get(0);
    }

    /** The scope's speakers the query names (a word or two of each, any case), in the order it first names them. */
    private static List<String> namedSpeakers(ScopeFacts facts, String text) {
        List<String> named = new ArrayList<>();
        for (String name : MemoryText.nameCandidates(text)) {
            String speaker = facts.speakersByKey().get(name);
            if (speaker != null && !named.contains(speaker)) {
                named.add(speaker);
            }
        }
        return named;
    }

    /** The scope's size (counted up to the exact-scan limit) and speakers, read at most once every {@value #SCOPE_FACTS_TTL_MS} ms. */
    private ScopeFacts scopeFacts(String scope) {
        long now = System.currentTimeMillis();
        ScopeFacts known = scopeFacts.get(scope);
        if (known != null && now - known.readAt() < SCOPE_FACTS_TTL_MS) {
            return known;
        }
        Record row = read("""
                CALL () { MATCH (m:Memory {scope: $scope}) WITH m LIMIT $enough RETURN count(m) AS size }
                CALL () { MATCH (m:Memory) WHERE m.scope = $scope AND m.speakerKey IS NOT NULL
                          RETURN collect(DISTINCT [m.speakerKey, m.speaker]) AS speakers }
                RETURN size, speakers""", Map.of("scope", scope, "enough", exactScanLimit + 1)).get(0);
        Map<String, String> speakers = new HashMap<>();
        row.get("speakers").asList(value -> value.asList(org.neo4j.driver.Value::asString))
                .forEach(pair -> speakers.putIfAbsent(pair.get(0), pair.get(1)));
        ScopeFacts read = new ScopeFacts(row.get("size").asLong(), Map.copyOf(speakers), now);
        if (scopeFacts.size() >= MAX_CACHED_SCOPES) {
            scopeFacts.values().removeIf(stale -> now - stale.readAt() >= SCOPE_FACTS_TTL_MS);
        }
        scopeFacts.put(scope, read);
        return read;
    }

    /** A memory of a speaker the scope's cached facts do not know: read them again at the next search. */
    private void noteSpeaker(String scope, String speaker) {
        ScopeFacts known = scopeFacts.get(scope);
        if (known != null && speaker != null && !known.speakersByKey().containsKey(MemoryText.key(speaker))) {
            scopeFacts.remove(scope);
        }
    }

    /** Reciprocal rank fusion (constant {@code tuning.rrfK()}) of ranked lists; ranks kept per list. */
    private List<Fused> fuse(Map<String, List<Candidate>> lists, int k) {
        Map<String, Candidate> byKey = new HashMap<>();
        Map<String, Double> scores = new HashMap<>();
        Map<String, Map<String, Integer>> ranks = new HashMap<>();
        lists.forEach((list, candidates) -> {
            for (int i = 0; i < candidates.size(); i++) {
                Candidate candidate = candidates.get(i);
                byKey.putIfAbsent(candidate.key(), candidate);
                scores.merge(candidate.key(), 1.0 / (tuning.rrfK() + i + 1), Double::sum);
                ranks.computeIfAbsent(candidate.key(), x -> new LinkedHashMap<>()).put(list, i + 1);
            }
        });
        return scores.entrySet().stream()
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(k)
                .map(entry -> new Fused(byKey.get(entry.getKey()), entry.getValue(), Map.copyOf(ranks.get(entry.getKey()))))
                .toList();
    }

    /**
     * For each memory read with {@code m} bound: the newer memories suggested to replace it that are current for the search
     * (the same filters as {@link #FILTER}), with their fact's word stems ({@link NewerWins}).
     */
    private static final String NEWER = """
            [(n:Memory)-[l:LINKED {type: $suggested}]->(m) WHERE n.scope = m.scope
                AND ($includeForgotten OR n.forgottenAt IS NULL) AND (n.expiresAt IS NULL OR n.expiresAt > $now)
                AND ($speaker IS NULL OR n.speaker = $speaker)
                AND ($after IS NULL OR coalesce(n.occurredAt, n.createdAt) >= $after)
                AND ($before IS NULL OR coalesce(n.occurredAt, n.createdAt) < $before)
                AND CASE WHEN $asOf IS NULL THEN n.validTo IS NULL OR n.validTo > $now
                         ELSE coalesce(n.occurredAt, n.createdAt) <= $asOf AND (n.validTo IS NULL OR n.validTo > $asOf) END
              | {id: n.id, happened: coalesce(n.occurredAt, n.createdAt), words: coalesce(l.words, [])}] AS newer""";

    /**
     * The results: the fused candidates' memories read whole in one query, in fused order, then the last signal,
     * {@link NewerWins}: a current newer memory suggested to replace one of them goes right above it when the question
     * asks about that fact (read in the same query; a newer memory not among the candidates is read after).
     */
    private List<MemoryHit> results(List<Fused> fused, MemoryQuery query, Map<String, Object> filters) {
        List<String> ids = fused.stream().map(Fused::candidate).filter(c -> c.message() == null).map(Candidate::id).toList();
        Map<String, Memory> memories = new HashMap<>();
        Map<String, List<NewerWins.Newer>> newerOf = new HashMap<>();
        if (!ids.isEmpty()) {
            Map<String, Object> params = new HashMap<>(filters);
            params.put("ids", ids);
            params.put("suggested", Memory.SUGGESTED_SUPERSEDES);
            read("MATCH (m:Memory) WHERE m.id IN $ids RETURN " + MEMORY_FIELDS + ", " + NEWER, params).forEach(row -> {
                Memory memory = memory(row.get("memory"));
                memories.put(memory.id(), memory);
                List<NewerWins.Newer> newer = row.get("newer").asList(n -> new NewerWins.Newer(n.get("id").asString(),
                        n.get("happened").asLong(), n.get("words").asList(Value::asString)));
                if (!newer.isEmpty()) {
                    newerOf.put(memory.id(), newer);
                }
            });
        }
        Map<String, Fused> byId = new HashMap<>();
        fused.forEach(entry -> byId.putIfAbsent(entry.candidate().id(), entry));
        List<NewerWins.Placed> order = NewerWins.order(query.text(), fused.stream().map(entry -> entry.candidate().id()).toList(), newerOf);
        List<String> missing = order.stream().map(NewerWins.Placed::id).filter(id -> !byId.containsKey(id)).toList();
        if (!missing.isEmpty()) {
            read("MATCH (m:Memory) WHERE m.id IN $ids RETURN " + MEMORY_FIELDS, Map.of("ids", missing))
                    .forEach(row -> memories.put(row.get("memory").get("id").asString(), memory(row.get("memory"))));
        }
        List<MemoryHit> hits = new ArrayList<>();
        for (NewerWins.Placed placed : order.subList(0, Math.min(order.size(), Math.max(fused.size(), query.k())))) {
            Fused entry = byId.get(placed.id());
            Memory memory = memories.get(placed.id());
            if (entry != null && placed.above() == null) {
                Candidate candidate = entry.candidate();
                if (candidate.message() != null || memory != null) { // a memory deleted meanwhile drops out
                    hits.add(new MemoryHit(candidate.kind(), entry.score(), candidate.message() == null ? memory : null,
                            candidate.message(), entry.ranks(), entry.adjusted()));
                }
            } else if (memory != null) { // placed above the older memory it is suggested to replace, with its score
                Fused older = byId.get(placed.above());
                Map<String, Double> adjusted = new LinkedHashMap<>(entry == null || entry.adjusted() == null ? Map.of() : entry.adjusted());
                adjusted.put(NEWER_WINS, 1.0);
                hits.add(new MemoryHit("memory", older.score(), memory, null, entry == null ? Map.of() : entry.ranks(), adjusted));
            }
        }
        return hits.size() > query.k() ? hits.subList(0, query.k()) : hits;
    }

    /**
     * The nearest memories passing the query's filters: from the scope's in-memory copy when it is
     * current ({@code copy} not null, its {@code similarities} to the query computed once per search),
     * else from Neo4j on a session of its own (see the next method).
     */
    private CompletableFuture<List<Candidate>> nearest(Map<String, Object> query, int k, long scopeSize,
                                                       MemoryScopeCopies.Copy copy, double[] similarities) {
        if (copy == null) {
            return async(() -> nearest(query, k, scopeSize));
        }
        return CompletableFuture.completedFuture(fromCopy(copy.nearest(similarities, MemoryScopeCopies.Filter.of(query), k)));
    }

    /** A list ranked over the scope's copy, as fusion candidates. */
    private static List<Candidate> fromCopy(List<MemoryScopeCopies.Scored> ranked) {
        return ranked.stream().map(scored -> new Candidate("memory", scored.id(), scored.score(), null)).toList();
    }

    /**
     * Small scopes are scanned exactly; a big one asks the vector index, filtered by scope inside
     * the index, for its nearest {@code max(4 k, 50)} memories (room for forgotten and expired ones
     * to drop out) and scans the scope's memories not yet in the index ({@link MemoryVectorQueue}),
     * falling back to the exact scan when that still leaves fewer than k.
     */
    private List<Candidate> nearest(Map<String, Object> query, int k, long scopeSize) {
        Map<String, Object> params = new HashMap<>(query); // lists run at once: each gets its own parameters
        if (scopeSize > exactScanLimit) {
            params.put("candidates", Math.max(4 * k, 50));
            List<Candidate> approximate = candidates(read("""
                    CYPHER 25
                    CALL () {
                      MATCH (m:%s)
                        SEARCH m IN (VECTOR INDEX %s FOR $vector WHERE m.scope = $scope LIMIT $candidates) SCORE AS similarity
                      RETURN m, similarity
                      UNION
                      MATCH (m:%s {scope: $scope})
                      RETURN m, vector.similarity.cosine(m.embedding, $vector) AS similarity
                    }
                    WITH m, similarity
                    """.formatted(Neo4jSchema.INDEXED_MEMORY, Neo4jSchema.MEMORY_VECTOR_INDEX, Neo4jSchema.MEMORY_TO_INDEX)
                    + FILTER, params));
            if (approximate.size() >= Math.min(k, scopeSize)) {
                return approximate;
            }
        }
        return candidates(read("MATCH (m:Memory {scope: $scope})\nWITH m, vector.similarity.cosine(m.embedding, $vector) AS similarity\n"
                + FILTER, params));
    }

    /**
     * The scope and the query's filters, the conversation boost, the best {@code $k} by score (ties by
     * id, so that equal BM25 scores rank the same whatever plan Neo4j picks), as ids: after a MATCH or
     * CALL naming m and similarity.
     */
    private static final String FILTER = """
            WHERE m.scope = $scope AND ($includeForgotten OR m.forgottenAt IS NULL) AND (m.expiresAt IS NULL OR m.expiresAt > $now)
              AND ($speaker IS NULL OR m.speaker = $speaker)
              AND ($after IS NULL OR coalesce(m.occurredAt, m.createdAt) >= $after)
              AND ($before IS NULL OR coalesce(m.occurredAt, m.createdAt) < $before)
              AND CASE WHEN $asOf IS NULL THEN m.validTo IS NULL OR m.validTo > $now
                       ELSE coalesce(m.occurredAt, m.createdAt) <= $asOf AND (m.validTo IS NULL OR m.validTo > $asOf) END
            WITH m, similarity
                    + CASE WHEN EXISTS { (:Conversation {id: $conversationId})-[:HAS_MEMORY]->(m) } THEN $boost ELSE 0.0 END AS score
            ORDER BY score DESC, m.id LIMIT $k
            RETURN score, m.id AS id""";

    private static List<Candidate> candidates(List<Record> rows) {
        return rows.stream().map(row -> new Candidate("memory", row.get("id").asString(), row.get("score").asDouble(), null)).toList();
    }

    @Override
    public int sweep(long now, long forgottenBefore) {
        try (Session session = driver.session()) {
            return session.executeWrite(tx -> {
                List<Record> swept = tx.run("""
                        MATCH (m:Memory)
                        WHERE m.expiresAt <= $now OR m.forgottenAt <= $forgottenBefore
                        WITH m.scope AS scope, collect(m) AS gone
                        WITH scope, gone, [m IN gone | m.id] AS ids
                        FOREACH (m IN gone | DETACH DELETE m)
                        RETURN scope, ids""", Map.of("now", now, "forgottenBefore", forgottenBefore)).list();
                int n = 0;
                for (Record scope : swept) { // the scopes last, so that they lock last
                    List<String> ids = scope.get("ids").asList(Value::asString);
                    MemoryScopeCopies.bumpFromTo(tx, scope.get("scope").asString(), List.of(), ids);
                    n += ids.size();
                }
                return n;
            });
        } finally {
            write("MATCH (e:MemoryEntity) WHERE NOT EXISTS { (e)<-[:MENTIONS]-(:Memory) } DELETE e", Map.of());
        }
    }

    @Override
    public Correction addCorrection(Correction correction, float[] embedding) {
        Map<String, Object> params = new HashMap<>();
        params.put("id", correction.id());
        params.put("scope", correction.scope());
        params.put("text", correction.text());
        params.put("query", correction.query());
        params.put("chunkId", correction.chunkId());
        params.put("memoryId", correction.memoryId());
        params.put("createdAt", correction.createdAt());
        params.put("embedding", Neo4jGraphStore.toList(embedding));
        String cypher = """
                CREATE (c:Correction {id: $id, scope: $scope, text: $text, query: $query, chunkId: $chunkId,
                                      memoryId: $memoryId, createdAt: $createdAt, embedding: $embedding})
                WITH c
                OPTIONAL MATCH (ch:Chunk {chunkId: $chunkId})
                OPTIONAL MATCH (m:Memory {id: $memoryId})
                FOREACH (target IN [x IN [ch, m] WHERE x IS NOT NULL] | MERGE (c)-[:CORRECTS]->(target))
                // a corrected memory is no longer true from now on, as a superseded one
                FOREACH (_ IN CASE WHEN m IS NULL THEN [] ELSE [1] END | SET m.validTo = coalesce(m.validTo, $createdAt))""";
        if (correction.memoryId() == null) {
            write(cypher, params);
        } else { // the scope's copy takes the memory's end of validity, as a supersession's
            marked(tx -> {
                Long validTo = nullableLong(tx.run(cypher + "\nRETURN m.validTo AS validTo", params).single().get("validTo"));
                return List.of(new MemoryScopeCopies.Mark(correction.memoryId(), MemoryScopeCopies.Mark.Time.VALID_TO, validTo));
            }, correction.memoryId());
        }
        return correction;
    }

    @Override
    public List<Correction> corrections(String scope) {
        return read("MATCH (c:Correction {scope: $scope}) RETURN c ORDER BY c.createdAt DESC", Map.of("scope", scope))
                .stream().map(row -> correction(row.get("c").asNode(), null)).toList();
    }

    @Override
    public boolean chunkExists(String chunkId) {
        return !read("MATCH (c:Chunk {chunkId: $id}) RETURN c.chunkId LIMIT 1", Map.of("id", chunkId)).isEmpty();
    }

    @Override
    public Conversation createConversation(String scope, String title, long now) {
        String id = UUID.randomUUID().toString();
        Map<String, Object> params = new HashMap<>();
        params.put("id", id);
        params.put("scope", scope);
        params.put("title", title);
        params.put("now", now);
        write("CREATE (:Conversation {id: $id, scope: $scope, title: $title, createdAt: $now, messageCount: 0})", params);
        return new Conversation(id, scope, title, now, List.of());
    }

    @Override
    public Optional<Conversation> conversation(String id) {
        List<Record> rows = read("""
                MATCH (c:Conversation {id: $id})
                OPTIONAL MATCH (c)-[:HAS_MESSAGE]->(msg:Message)
                WITH c, msg ORDER BY msg.seq
                RETURN c, collect(msg) AS messages""", Map.of("id", id));
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        Node c = rows.get(0).get("c").asNode();
        List<Message> messages = rows.get(0).get("messages").asList(value -> message(id, value.asNode()));
        return Optional.of(new Conversation(id, c.get("scope").asString(), nullableString(c.get("title")),
                c.get("createdAt").asLong(), messages));
    }

    @Override
    public Message addMessage(String conversationId, String role, String content, float[] embedding, long now) {
        String id = UUID.randomUUID().toString();
        Map<String, Object> params = new HashMap<>();
        params.put("conversationId", conversationId);
        params.put("id", id);
        params.put("role", role);
        params.put("content", content);
        params.put("now", now);
        params.put("embedding", Neo4jGraphStore.toList(embedding));
        try (Session session = driver.session()) {
            // the counter on the conversation serialises concurrent appends: seq stays gap-free and ordered
            return session.executeWrite(tx -> {
                Record row = tx.run("""
                        MATCH (c:Conversation {id: $conversationId})
                        SET c.messageCount = c.messageCount + 1
                        WITH c, c.messageCount - 1 AS seq
                        CREATE (c)-[:HAS_MESSAGE]->(msg:Message {id: $id, seq: seq, role: $role, content: $content,
                                                                 createdAt: $now, embedding: $embedding})
                        RETURN msg""", params).single();
                return message(conversationId, row.get("msg").asNode());
            });
        }
    }

    @Override
    public RelatedKnowledge related(Collection<String> scopes, float[] query, double minSimilarity,
                                    Collection<String> chunkIds, int limit, long now) {
        Map<String, Object> params = new HashMap<>();
        params.put("scopes", scopes == null ? null : List.copyOf(scopes));
        params.put("vector", Neo4jGraphStore.toList(query));
        params.put("min", minSimilarity);
        params.put("chunkIds", List.copyOf(chunkIds));
        params.put("limit", limit);
        params.put("now", now);
        List<MemoryHit> memories = read("""
                MATCH (m:Memory {pinned: true})
                WHERE ($scopes IS NULL OR m.scope IN $scopes) AND m.forgottenAt IS NULL
                  AND (m.expiresAt IS NULL OR m.expiresAt > $now) AND (m.validTo IS NULL OR m.validTo > $now)
                WITH m, vector.similarity.cosine(m.embedding, $vector) AS similarity,
                     EXISTS { MATCH (m)-[:ABOUT]->(d:Document) MATCH (ch:Chunk) WHERE ch.chunkId IN $chunkIds
                                 AND d.collection = ch.collection AND d.documentId = ch.documentId }
                     OR EXISTS { MATCH (m)-[:ABOUT]->(:Entity)<-[:MENTIONS]-(ch:Chunk) WHERE ch.chunkId IN $chunkIds } AS attached
                WHERE similarity >= $min OR attached
                RETURN similarity AS score, %s ORDER BY score DESC LIMIT $limit""".formatted(MEMORY_FIELDS), params)
                .stream().map(row -> new MemoryHit("memory", row.get("score").asDouble(), memory(row.get("memory")), null))
                .toList();
        List<Correction> corrections = read("""
                MATCH (c:Correction)
                WHERE $scopes IS NULL OR c.scope IN $scopes
                WITH c, vector.similarity.cosine(c.embedding, $vector) AS similarity
                WHERE similarity >= $min OR c.chunkId IN $chunkIds
                RETURN c, similarity ORDER BY similarity DESC LIMIT $limit""", params)
                .stream().map(row -> correction(row.get("c").asNode(), row.get("similarity").asDouble())).toList();
        return new RelatedKnowledge(memories, corrections);
    }

    private void write(String cypher, Map<String, Object> params) {
        write(tx -> tx.run(cypher, params).consume());
    }

    private void write(Consumer<TransactionContext> work) {
        try (Session session = driver.session()) {
            session.executeWriteWithoutResult(work);
        }
    }

    /** An auto-commit read: one round trip instead of a managed transaction's three; searches wait on it. */
    private List<Record> read(String cypher, Map<String, Object> params) {
        try (Session session = driver.session()) {
            return session.run(cypher, params).list();
        }
    }

    private static Memory memory(Value m) {
        return new Memory(m.get("id").asString(), m.get("scope").asString(), m.get("text").asString(),
                m.get("tags").isNull() ? List.of() : m.get("tags").asList(Value::asString),
                m.get("pinned").asBoolean(false), m.get("createdAt").asLong(), m.get("updatedAt").asLong(),
                nullableLong(m.get("expiresAt")), nullableLong(m.get("forgottenAt")), nullableString(m.get("conversationId")),
                m.get("about").asList(Value::asString),
                m.get("links").asList(l -> new Memory.Link(l.get("type").asString(), l.get("toId").asString(),
                        nullableString(l.get("fact")), nullableString(l.get("reason")), List.of())),
                nullableLong(m.get("occurredAt")), nullableString(m.get("speaker")), nullableLong(m.get("validTo")),
                m.get("entities").asList(Value::asString));
    }

    private static Message message(String conversationId, Node msg) {
        return new Message(msg.get("id").asString(), conversationId, msg.get("seq").asInt(), msg.get("role").asString(),
                msg.get("content").asString(), msg.get("createdAt").asLong());
    }

    private static Correction correction(Node c, Double score) {
        return new Correction(c.get("id").asString(), c.get("scope").asString(), c.get("text").asString(),
                nullableString(c.get("query")), nullableString(c.get("chunkId")), nullableString(c.get("memoryId")),
                c.get("createdAt").asLong(), score);
    }

    static Long nullableLong(Value value) {
        return value == null || value.isNull() ? null : value.asLong();
    }

    private static String nullableString(Value value) {
        return value == null || value.isNull() ? null : value.asString();
    }
}
