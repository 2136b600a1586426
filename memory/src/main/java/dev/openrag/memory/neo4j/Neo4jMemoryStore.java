package dev.openrag.memory.neo4j;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
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
import java.util.function.Consumer;
import java.util.function.Function;
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

import dev.openrag.knowledge.filter.DocumentFilter;
import dev.openrag.knowledge.neo4j.MetadataCypher;
import dev.openrag.knowledge.neo4j.Neo4jCorrectionStore;
import dev.openrag.knowledge.neo4j.Neo4jGraphStore;
import dev.openrag.knowledge.port.Correction;
import dev.openrag.memory.Conversation;
import dev.openrag.memory.Memory;
import dev.openrag.memory.MemoryEmbeddings;
import dev.openrag.memory.MemoryEntities;
import dev.openrag.memory.MemoryFilter;
import dev.openrag.memory.MemoryHit;
import dev.openrag.memory.MemoryQuery;
import dev.openrag.memory.MemoryStore;
import dev.openrag.memory.MemoryText;
import dev.openrag.memory.MemoryWords;
import dev.openrag.memory.Message;
import dev.openrag.memory.NewerWins;
import dev.openrag.schemas.Metadata;

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
 * gives a hybrid search its feedback list and the second embedding model's list ({@link #SECOND_VECTOR_LIST},
 * over {@code Memory.secondEmbedding}, which no index holds). A scope without a current copy that Neo4j
 * would scan exactly is read into a copy for that search alone, so it ranks through the same code.
 */
public final class Neo4jMemoryStore implements MemoryStore {

    private static final Logger LOG = Logger.getLogger(Neo4jMemoryStore.class);

    static final String MEMORY_FIELDS = """
            m {.*, embedding: null, secondEmbedding: null, vectors: null, vectorsOf: null, context: null, terms: null, termsBy: null,
               versionTexts: null, versionFrom: null, versionUntil: null, textSince: null,
               versions: [i IN range(0, size(coalesce(m.versionTexts, [])) - 1)
                          | {text: m.versionTexts[i], from: m.versionFrom[i], until: m.versionUntil[i]}],
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

    /** Scopes up to this many memories are searched by an exact scan (about 20 ms on 2 cores). */
    public static final int EXACT_SCAN_LIMIT = 1000;
    /** How long new memories wait to enter the vector index together: a few hundred at a time under a steady stream. */
    public static final Duration VECTOR_INDEX_DELAY = Duration.ofMillis(500);
    /** The vectors of 50,000 memories of 384 dimensions take about 80 MB of heap, 160 with the second model's (texts and word index come on top). */
    public static final long DEFAULT_MAX_COPIED = 50_000;
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
     * @param stemming      whether word search matches words by their stems, each text in its language
     *                      ({@link dev.openrag.memory.MemoryWords}). Off when first measured (English stems)
     *                      (it cost the tune conversations two questions at recall@10); on since the
     *                      context, feedback and time lists joined: recall@10 0.8291 to 0.8383 on
     *                      the tune conversations, 0.7870 to 0.7887-0.7905 on the others
     * @param episodeWeight how much a memory's episode (the memories that happened on the same UTC day)
     *                      lends it: its fused candidates' summed score over the best episode's, times
     *                      this, added to the memory's own over the best (0: off). 0.2 was chosen
     *                      among 0.1, 0.2 and 0.5 on the tune conversations (recall@10 0.7959 without,
     *                      0.8088 with) and checked on the others (0.7465 to 0.7555; docs/benchmarks.md)
     * @param newerWins     when a newer memory goes right above an older one that answers the same question
     *                      ({@link NewerWins.Rule}; chosen on held-out pairs in five languages, memory/README.md)
     */
    public record SearchTuning(int rrfK, int feedbackHits, int feedbackTerms, double otherSpeakerWeight, boolean stemming,
                               double episodeWeight, NewerWins.Rule newerWins) {

        public static final int DEFAULT_RRF_K = 3;
        public static final int DEFAULT_FEEDBACK_HITS = 10;
        public static final int DEFAULT_FEEDBACK_TERMS = 5;
        /** Chosen on LoCoMo; kept on as the agent-memory scenarios lose checks without it (docs/benchmarks.md). */
        public static final double DEFAULT_OTHER_SPEAKER_WEIGHT = 0.5;
        public static final boolean DEFAULT_STEMMING = true;
        public static final double DEFAULT_EPISODE_WEIGHT = 0.2;
        public static final SearchTuning DEFAULT = new SearchTuning(DEFAULT_RRF_K, DEFAULT_FEEDBACK_HITS, DEFAULT_FEEDBACK_TERMS,
                DEFAULT_OTHER_SPEAKER_WEIGHT, DEFAULT_STEMMING, DEFAULT_EPISODE_WEIGHT, NewerWins.Rule.DEFAULT);

        public SearchTuning(int rrfK, int feedbackHits, int feedbackTerms, double otherSpeakerWeight, boolean stemming,
                            double episodeWeight) {
            this(rrfK, feedbackHits, feedbackTerms, otherSpeakerWeight, stemming, episodeWeight, NewerWins.Rule.DEFAULT);
        }

        public SearchTuning(int rrfK, int feedbackHits, int feedbackTerms) {
            this(rrfK, feedbackHits, feedbackTerms, DEFAULT_OTHER_SPEAKER_WEIGHT, DEFAULT_STEMMING, DEFAULT_EPISODE_WEIGHT);
        }

        public SearchTuning {
            java.util.Objects.requireNonNull(newerWins, "newerWins");
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

    private final Driver driver;
    private final int exactScanLimit;
    private final MemoryScopeCopies copies;
    private final java.util.concurrent.atomic.LongAdder vectorReads = new java.util.concurrent.atomic.LongAdder();
    private final MemoryVectorQueue vectorQueue;
    private final SearchTuning tuning;
    private final MemorySearch searcher;
    /** How a memory's text becomes the terms word search matches ({@code terms}, indexed by {@value MemorySchema#MEMORY_TEXT_INDEX}). */
    private final MemoryWords words;
    public Neo4jMemoryStore(Driver driver) {
        this(driver, EXACT_SCAN_LIMIT, DEFAULT_MAX_COPIED);
    }

    /**
     * @param exactScanLimit the largest scope Neo4j scans exactly; bigger ones ask its vector index
     * @param maxCopied      how many memories the in-memory copies of scopes may hold in all (0: none, not
     *                       even for one search: every search asks Neo4j; see {@link MemoryScopeCopies})
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
        this(driver, exactScanLimit, maxCopied, tuning, vectorIndexDelay, true);
    }

    /**
     * A store that keeps no copy between searches: each search of a scope within {@code exactScanLimit} and {@code
     * maxCopied} reads it for itself, as a search does when its copy's read is throttled (the path tests compare with a
     * kept copy).
     */
    static Neo4jMemoryStore readingEachSearch(Driver driver, int exactScanLimit, long maxCopied, SearchTuning tuning) {
        return new Neo4jMemoryStore(driver, exactScanLimit, maxCopied, tuning, VECTOR_INDEX_DELAY, false);
    }

    private Neo4jMemoryStore(Driver driver, int exactScanLimit, long maxCopied, SearchTuning tuning, Duration vectorIndexDelay,
                             boolean keepCopies) {
        this.driver = driver;
        this.exactScanLimit = exactScanLimit;
        this.tuning = Objects.requireNonNull(tuning);
        this.words = MemoryWords.of(tuning.stemming());
        this.copies = new MemoryScopeCopies(driver, maxCopied, tuning.stemming(), keepCopies);
        this.vectorQueue = new MemoryVectorQueue(driver, vectorIndexDelay);
        this.searcher = new MemorySearch(driver, exactScanLimit, copies, vectorQueue, tuning);
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
        params.put("terms", words.stored(memory.text()));
        params.put("termsBy", words.version());
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
        params.put("meta", metadataProperties(memory.metadata()));
        params.putAll(MemoryScopeCopies.bumpParameters(List.of(memory.id()), List.of()));
        searcher.noteSpeaker(memory.scope(), memory.speaker());
        String create = ("""
                CREATE (m:Memory:%s {id: $id, scope: $scope, text: $text, terms: $terms, termsBy: $termsBy, tags: $tags, pinned: $pinned,
                                  createdAt: $createdAt, updatedAt: $createdAt, expiresAt: $expiresAt, embedding: $embedding,
                                  vectors: $vectors, vectorsOf: $createdAt, occurredAt: $occurredAt, speaker: $speaker,
                                  speakerKey: $speakerKey})
                SET m += $meta
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
                """).formatted(MemorySchema.MEMORY_TO_INDEX);
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
                  MERGE (m)-[l:LINKED {type: $type}]->(old)
                  SET l.by = $by, old.validTo = coalesce(old.validTo, m.occurredAt, m.createdAt)
                }
                RETURN pair.old AS old, old IS NULL AS missing, old.validTo AS validTo""",
                Map.of("pairs", pairs, "type", Memory.SUPERSEDES, "by", InferredSupersessions.BY_CALLER)).list();
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
            row.put("terms", words.stored(memory.text()));
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
            row.put("meta", metadataProperties(memory.metadata()));
            searcher.noteSpeaker(scope, memory.speaker());
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
                        CREATE (m:Memory:%s {id: row.id, scope: $scope, text: row.text, terms: row.terms, termsBy: $termsBy, context: row.context, tags: row.tags, pinned: row.pinned,
                                          createdAt: row.createdAt, updatedAt: row.createdAt, expiresAt: row.expiresAt, embedding: row.embedding,
                                          vectors: row.vectors, vectorsOf: row.createdAt, occurredAt: row.occurredAt, speaker: row.speaker, speakerKey: row.speakerKey})
                        SET m += row.meta
                        WITH m, row
                        CALL (m, row) {
                          UNWIND row.entities AS entity
                        """ + MENTION + """
                        }
                        RETURN m.id AS id""").formatted(MemorySchema.MEMORY_TO_INDEX), Map.of("rows", rows, "scope", scope, "termsBy", words.version()))
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
        return list(scope, pinned, tag, null, offset, limit, now);
    }

    @Override
    public List<Memory> list(String scope, Boolean pinned, String tag, DocumentFilter filter, int offset, int limit, long now) {
        Map<String, Object> params = new HashMap<>();
        String filtered = filter == null ? "" : "  AND (" + MemoryFilter.cypher(filter, params) + ")\n";
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
                %sRETURN %s ORDER BY m.createdAt DESC, m.id SKIP $offset LIMIT $limit""".formatted(filtered, MEMORY_FIELDS), params)
                .stream().map(row -> memory(row.get("memory"))).toList();
    }

    @Override
    public Memory update(String id, String text, float[] embedding, float[] secondEmbedding, List<String> tags, long now) {
        return update(id, text, embedding, secondEmbedding, tags, null, now);
    }

    @Override
    public Memory update(String id, String text, float[] embedding, float[] secondEmbedding, List<String> tags,
                         Map<String, Object> metadata, long now) {
        Map<String, Object> params = new HashMap<>();
        params.put("id", id);
        params.put("text", text);
        params.put("terms", text == null ? null : words.stored(text));
        params.put("termsBy", words.version());
        params.put("embedding", embedding == null ? null : Neo4jGraphStore.toList(embedding));
        params.put("tags", tags);
        params.put("now", now);
        params.put("entities", text == null ? null : entities(text));
        String cypher = """
                MATCH (m:Memory {id: $id})
                WITH m, [(m)-[:MENTIONS]->(e:MemoryEntity) | e] AS before
                // the text it replaces is kept as a version, with when it held: asOf before the edit reads it
                FOREACH (_ IN CASE WHEN $text IS NOT NULL AND $text <> m.text THEN [1] ELSE [] END |
                  SET m.versionTexts = coalesce(m.versionTexts, []) + m.text,
                      m.versionFrom = coalesce(m.versionFrom, []) + coalesce(m.textSince, m.createdAt),
                      m.versionUntil = coalesce(m.versionUntil, []) + $now,
                      m.textSince = $now)
                FOREACH (_ IN CASE WHEN $text IS NULL THEN [] ELSE [1] END | SET m.terms = $terms, m.termsBy = $termsBy)
                SET m.text = coalesce($text, m.text), m.embedding = coalesce($embedding, m.embedding), m.tags = coalesce($tags, m.tags)
                SET m += $meta
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
                Map<String, Object> meta = new HashMap<>();
                if (metadata != null) { // replaces the metadata: += with null removes the keys the new one no longer has
                    tx.run("MATCH (m:Memory {id: $id}) UNWIND [k IN keys(m) WHERE k STARTS WITH 'meta_'] AS k RETURN k", Map.of("id", id))
                            .list(row -> row.get("k").asString()).forEach(old -> meta.put(old, null));
                    meta.putAll(metadataProperties(metadata));
                }
                withVectors.put("meta", meta);
                tx.run(cypher, withVectors).consume();
                List<MemoryScopeCopies.Edit> edits = vectors == null ? List.of() : tx.run(
                        "MATCH (m:Memory {id: $id}) RETURN m.text AS text, m.context AS context", Map.of("id", id))
                        .list(row -> new MemoryScopeCopies.Edit(id, row.get("text").asString(""), row.get("context").asString(null),
                                vectors.embedding(), vectors.second()));
                return new Updated(MemoryScopeCopies.bumpScopeOfFromTo(tx, id, List.of(id), false), edits);
            });
        }
        // the scope's copy takes the new text and vectors (new tags or metadata alone change nothing it holds: a filter on
        // them is read from Neo4j at each search)
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

    /**
     * From the scope's copy where it holds them (the copy the scope's last search used: an add's check for the memories
     * it may replace reads the vectors of those its search just found without a round trip), else read from Neo4j.
     */
    @Override
    public Map<String, MemoryEmbeddings.Vectors> vectors(String scope, Collection<String> ids) {
        Map<String, MemoryEmbeddings.Vectors> vectors = new HashMap<>(copies.vectors(scope, ids));
        List<String> unread = ids.stream().filter(id -> {
            MemoryEmbeddings.Vectors held = vectors.get(id);
            return held == null || held.second() == null; // a copy without the second list: read, a memory may have it
        }).distinct().toList();
        if (unread.isEmpty()) {
            return vectors;
        }
        vectorReads.increment();
        for (Record row : read("MATCH (m:Memory) WHERE m.id IN $ids AND m.scope = $scope RETURN m.id AS id, " + MemoryVectors.READ,
                Map.of("ids", unread, "scope", scope))) {
            try {
                MemoryVectors read = MemoryVectors.of(row);
                vectors.put(row.get("id").asString(), new MemoryEmbeddings.Vectors(read.embedding(), read.second()));
            } catch (IllegalStateException unreadable) {
                // bytes no release wrote this way: the memory has no vector to compare
            }
        }
        return vectors;
    }

    /** How many times {@link #vectors} read Neo4j (what its copy did not hold). */
    long vectorReads() {
        return vectorReads.sum();
    }

    @Override
    public Set<String> speakers(String scope) {
        return searcher.speakers(scope);
    }

    @Override
    public List<MemoryHit> search(MemoryQuery query) {
        return searcher.search(query);
    }

    /** The search ({@link MemorySearch}), reading what needs no vector while the query is still being embedded. */
    @Override
    public List<MemoryHit> search(MemoryQuery question, CompletableFuture<MemoryEmbeddings.Vectors> vectors) {
        return searcher.search(question, vectors);
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

    /** Whether a search of the scope now would take its vector lists from memory (reads the scope's version; starts a copy if none). */
    public boolean servesFromMemory(String scope) {
        return copies.current(scope) != null;
    }

    /**
     * How searches found their scope's in-memory copy since this store began, by name: {@code current} (at the scope's
     * version), {@code own_writes} (brought to it by this instance's writes), {@code caught_up} (by reading what other
     * instances wrote and deleted since), {@code read_now} (a small scope read whole while the search waited) and
     * {@code none} (no current copy: the scope was read for that search alone, or, past the exact-scan limit or the copies'
     * budget, Neo4j's indexes answered, ranking otherwise than the next search).
     */
    public Map<String, Long> copyFindings() {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (MemoryScopeCopies.Found how : MemoryScopeCopies.Found.values()) {
            counts.put(how.name().toLowerCase(Locale.ROOT), copies.found(how));
        }
        return counts;
    }

    /** How many searches read their scope for themselves ({@link MemoryScopeCopies#readOnce}). */
    long readsForOneSearch() {
        return copies.readsForOneSearch();
    }

    /** How many memories the scopes' in-memory copies hold in all. */
    public long memoriesInMemory() {
        return copies.memoriesInMemory();
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
    public Correction correct(Correction correction, float[] embedding) {
        if (correction.memoryId() == null) {
            throw new IllegalArgumentException("a correction memory stores names a memory; " + correction.id() + " names none");
        }
        // the correction as knowledge-store writes it, and in the same write the memory it names: no longer true from now
        // on, as a superseded one, and the scope's copy takes the memory's end of validity
        String cypher = Neo4jCorrectionStore.CREATE + """
                WITH c
                OPTIONAL MATCH (m:Memory {id: $memoryId})
                FOREACH (_ IN CASE WHEN m IS NULL THEN [] ELSE [1] END |
                  MERGE (c)-[:CORRECTS]->(m)
                  SET m.validTo = coalesce(m.validTo, $createdAt))
                RETURN m.validTo AS validTo""";
        Map<String, Object> params = Neo4jCorrectionStore.parameters(correction, embedding);
        marked(tx -> {
            Long validTo = nullableLong(tx.run(cypher, params).single().get("validTo"));
            return List.of(new MemoryScopeCopies.Mark(correction.memoryId(), MemoryScopeCopies.Mark.Time.VALID_TO, validTo));
        }, correction.memoryId());
        return correction;
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
    public List<MemoryHit> relatedPinned(Collection<String> scopes, float[] query, double minSimilarity,
                                         Collection<String> subjects, int limit, long now) {
        Map<String, Object> params = new HashMap<>();
        params.put("scopes", scopes == null ? null : List.copyOf(scopes));
        params.put("vector", Neo4jGraphStore.toList(query));
        params.put("min", minSimilarity);
        params.put("subjects", List.copyOf(subjects));
        params.put("limit", limit);
        params.put("now", now);
        List<MemoryHit> memories = read("""
                MATCH (m:Memory {pinned: true})
                WHERE ($scopes IS NULL OR m.scope IN $scopes) AND m.forgottenAt IS NULL
                  AND (m.expiresAt IS NULL OR m.expiresAt > $now) AND (m.validTo IS NULL OR m.validTo > $now)
                WITH m, vector.similarity.cosine(m.embedding, $vector) AS similarity,
                     EXISTS { MATCH (m)-[:ABOUT]->(subject) WHERE subject.uid IN $subjects } AS attached
                WHERE similarity >= $min OR attached
                RETURN similarity AS score, %s ORDER BY score DESC LIMIT $limit""".formatted(MEMORY_FIELDS), params)
                .stream().map(row -> new MemoryHit("memory", row.get("score").asDouble(), memory(row.get("memory")), null))
                .toList();
        return memories;
    }

    private void write(String cypher, Map<String, Object> params) {
        write(tx -> tx.run(cypher, params).consume());
    }

    private void write(Consumer<TransactionContext> work) {
        try (Session session = driver.session()) {
            session.executeWriteWithoutResult(work);
        }
    }

    private List<Record> read(String cypher, Map<String, Object> params) {
        return read(driver, cypher, params);
    }

    /** An auto-commit read: one round trip instead of a managed transaction's three; searches wait on it. */
    static List<Record> read(Driver driver, String cypher, Map<String, Object> params) {
        try (Session session = driver.session()) {
            return session.run(cypher, params).list();
        }
    }

    static Memory memory(Value m) {
        return new Memory(m.get("id").asString(), m.get("scope").asString(), m.get("text").asString(),
                m.get("tags").isNull() ? List.of() : m.get("tags").asList(Value::asString),
                m.get("pinned").asBoolean(false), m.get("createdAt").asLong(), m.get("updatedAt").asLong(),
                nullableLong(m.get("expiresAt")), nullableLong(m.get("forgottenAt")), nullableString(m.get("conversationId")),
                m.get("about").asList(Value::asString),
                m.get("links").asList(l -> new Memory.Link(l.get("type").asString(), l.get("toId").asString(),
                        nullableString(l.get("fact")), nullableString(l.get("reason")), List.of())),
                nullableLong(m.get("occurredAt")), nullableString(m.get("speaker")), nullableLong(m.get("validTo")),
                m.get("entities").asList(Value::asString),
                m.get("versions").isNull() ? List.of() : m.get("versions").asList(v -> new Memory.Version(v.get("text").asString(),
                        v.get("from").asLong(), v.get("until").asLong())),
                MetadataCypher.fromJson(nullableString(m.get(MetadataCypher.JSON_PROPERTY))));
    }

    /**
     * A memory's caller metadata as node properties: typed {@code meta_*} ones to filter on and the whole map as JSON to
     * return ({@link MetadataCypher}); {@code metadataJson} null (removed) when there is none.
     */
    private static Map<String, Object> metadataProperties(Map<String, Object> metadata) {
        Map<String, Object> normalised = Metadata.normalise(metadata, true);
        Map<String, Object> properties = new HashMap<>(MetadataCypher.properties(normalised));
        properties.put(MetadataCypher.JSON_PROPERTY, normalised.isEmpty() ? null : MetadataCypher.json(normalised));
        return properties;
    }

    static Message message(String conversationId, Node msg) {
        return new Message(msg.get("id").asString(), conversationId, msg.get("seq").asInt(), msg.get("role").asString(),
                msg.get("content").asString(), msg.get("createdAt").asLong());
    }

    static Long nullableLong(Value value) {
        return value == null || value.isNull() ? null : value.asLong();
    }

    private static String nullableString(Value value) {
        return value == null || value.isNull() ? null : value.asString();
    }
}
