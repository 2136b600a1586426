package dev.openrag.memory.neo4j;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Value;

import dev.openrag.knowledge.neo4j.Neo4jGraphStore;
import dev.openrag.memory.Memory;
import dev.openrag.memory.MemoryEmbeddings;
import dev.openrag.memory.MemoryFilter;
import dev.openrag.memory.MemoryHit;
import dev.openrag.memory.MemoryQuery;
import dev.openrag.memory.MemoryText;
import dev.openrag.memory.MemoryWords;
import dev.openrag.memory.Message;
import dev.openrag.memory.NewerWins;

/**
 * The memory search of {@link Neo4jMemoryStore}: a pipeline of named lists fused by reciprocal rank, then named
 * signals after fusion. Each says what it needs from a memory and does nothing without it (memory/README.md has
 * the table, with each signal's measured effect):
 * <ul>
 * <li>lists: {@code vector} (the first model's nearest), {@code vector2} (the second model's, {@link
 * Neo4jMemoryStore#SECOND_VECTOR_LIST}), {@code bm25} (words by their stems, only where the query's words tell
 * memories apart), {@code context} (words of a memory's context: memories added with one), {@code time} (a period
 * the question names: needs occurredAt), {@code speaker} (a speaker the question names: needs speaker),
 * {@code feedback} (the first hits' words: needs a BM25 hit), {@code entity} (shared names: asked for);</li>
 * <li>after fusion: other-speaker weight ({@link SpeakerFocus}: needs speakers), same-day lift ({@link EpisodeLift}:
 * needs memories on several days), recency ({@link RecencyLift}: asked for), newer wins ({@link NewerWins}: needs
 * memories that happened at different times, close in meaning).</li>
 * </ul>
 * Reads where the scope stands, its in-memory copy ({@link MemoryScopeCopies}) and Neo4j; writes nothing. The lists
 * are ranked over the scope's copy, kept or read for the search alone (a scope Neo4j would scan exactly, within the
 * copies' budget), so that a search answers the same order either way; only a bigger scope without a current copy, or
 * any with copies off, is ranked by Neo4j's indexes.
 */
final class MemorySearch {

    private final Driver driver;
    private final int exactScanLimit;
    private final MemoryScopeCopies copies;
    private final MemoryVectorQueue vectorQueue;
    private final Neo4jMemoryStore.SearchTuning tuning;
    /** How questions are read: as the memories were ({@code terms} in Neo4j, the scope's copy). */
    private final MemoryWords words;

    MemorySearch(Driver driver, int exactScanLimit, MemoryScopeCopies copies, MemoryVectorQueue vectorQueue,
                 Neo4jMemoryStore.SearchTuning tuning) {
        this.driver = driver;
        this.exactScanLimit = exactScanLimit;
        this.copies = copies;
        this.vectorQueue = vectorQueue;
        this.tuning = tuning;
        this.words = MemoryWords.of(tuning.stemming());
    }

    /** The names of the speakers of a scope's memories (cached as the scope's facts). */
    Set<String> speakers(String scope) {
        return Set.copyOf(scopeFacts(scope).speakersByKey().values());
    }

    private List<Record> read(String cypher, Map<String, Object> params) {
        return Neo4jMemoryStore.read(driver, cypher, params);
    }

    private static Memory memory(Value m) {
        return Neo4jMemoryStore.memory(m);
    }

    /** Where a search's independent queries run, each waiting on Neo4j (virtual threads: waiting is cheap). */
    private static final ExecutorService QUERIES = Executors.newVirtualThreadPerTaskExecutor();

    /** How long a scope's size and speakers are reused before they are read again. */
    static final long SCOPE_FACTS_TTL_MS = 5000;

    /** Past this many scopes in the cache, the stale entries are dropped (a server may see many short-lived scopes). */
    static final int MAX_CACHED_SCOPES = 10_000;

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

    /** The name {@link NewerWins} goes by in a hit's {@code adjusted}. */
    static final String NEWER_WINS = "newerWins";

    /** How many candidates below the first k a search reads, for {@link NewerWins} to move one of them up. */
    static final int NEWER_WINS_POOL = 5;

    /** How many of the first fused hits lend their entities to the entity list. */
    static final int ENTITY_SEEDS = 3;

    /** An entity more memories than this mention (a hub: the other speaker's name) says little about any of them. */
    static final int MAX_ENTITY_MENTIONS = 20;

    /** How deep each list of a hybrid search is before fusion. */
    static final int FUSION_DEPTH = 50;

    List<MemoryHit> search(MemoryQuery query) {
        return search(query, CompletableFuture.completedFuture(new MemoryEmbeddings.Vectors(query.vector(), query.secondVector())));
    }

    /**
     * The search, reading where the scope stands (one round trip to Neo4j, about 4 ms), its copy and its best memories by
     * words while the question is embedded (about 5 ms). On 2 cores, where embedding with two models fills both, that
     * saved 0.4 ms of a 13-18 ms search (docs/benchmarks.md); with cores to spare, up to the round trip.
     */
    List<MemoryHit> search(MemoryQuery question, CompletableFuture<MemoryEmbeddings.Vectors> vectors) {
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
        if (question.filter() != null) { // the caller's filter on tags and metadata: in every list's query
            Map<String, Object> filterParams = new HashMap<>();
            params.put(FILTER_WHERE, MemoryFilter.cypher(question.filter(), filterParams));
            params.putAll(filterParams);
        }
        // the question's terms, read once for every list of words (reading them is most of a words list's cost)
        boolean readsWords = question.text() != null && !MemoryQuery.VECTOR.equals(question.mode());
        List<String> terms = readsWords ? words.ofQuery(question.text()) : List.of();
        String lucene = readsWords ? MemoryWords.luceneQuery(terms) : "";
        boolean wordsOnly = MemoryQuery.BM25.equals(question.mode());
        int k = question.k();
        // newer wins may move a memory from below the first k up: the results are chosen from a few more
        int pool = k + NEWER_WINS_POOL;
        // recency reorders what the lists found, so they look deeper than k when it is on
        int depth = lucene.isEmpty() && question.recency() == null ? pool : Math.max(pool, FUSION_DEPTH);
        params.put("k", depth);
        // whether the scope is small enough to scan: counting past the limit would read the whole scope's index
        // entries (9 ms at 10,000 memories, before anything else could start)
        ScopeFacts facts = scopeFacts(question.scope());
        long scopeSize = facts.size();
        // a scope without a current copy is read into memory now: its first search then ranks with the copy's lists too, as
        // the next one will (LoCoMo's scopes of 369-680 memories took 60-380 ms to read, one of 10,000 370-630 ms)
        MemoryScopeCopies.Copy copy = copies.current(question.scope(), true);
        if (copy == null && scopeSize <= exactScanLimit) {
            // no current copy (the read throttled or too slow): a scope Neo4j would scan exactly is read for this search
            // alone, within the copies' budget, so it ranks through the same lists as over a copy, in the same order
            copy = copies.readOnce(question.scope(), exactScanLimit);
        }
        // with a copy, the memories passing the caller's filter are read from Neo4j by the same predicate: the copy holds
        // no tags or metadata, so an update of them never makes it stale, and both paths keep exactly the same memories
        Set<String> allowed = copy == null || question.filter() == null ? null : Set.copyOf(read(
                "MATCH (m:Memory {scope: $scope}) WHERE " + params.get(FILTER_WHERE) + " RETURN m.id AS id", params)
                .stream().map(row -> row.get("id").asString()).toList());
        // the lists are independent queries: they run at once, each on its own session; BM25 starts first, as it
        // needs neither the vector nor the scope's copy
        CompletableFuture<List<Candidate>> byText = null;
        if (!lucene.isEmpty()) {
            if (copy != null) { // BM25 with the scope's own statistics
                byText = CompletableFuture.completedFuture(fromCopy(copy.bestByWords(terms,
                        MemoryScopeCopies.Filter.of(params, allowed), depth)));
            } else {
                Map<String, Object> words = new HashMap<>(params);
                words.put("lucene", MemoryText.inScope(question.scope(), lucene));
                vectorQueue.indexAll(); // the index holds the memories moved out of the queue only (MemoryVectorQueue)
                byText = async(() -> candidates(read(MemorySchema.AWAIT_MEMORY_WORDS
                        + "CALL db.index.fulltext.queryNodes('" + MemorySchema.MEMORY_TEXT_INDEX
                        + "', $lucene) YIELD node AS m, score AS similarity\n" + filter(words), words)));
            }
        }
        MemoryEmbeddings.Vectors embedded = join(vectors);
        MemoryQuery query = question.withVectors(embedded.first(), embedded.second());
        params.put("vector", Neo4jGraphStore.toList(query.vector()));
        // the second model's list scans the copy on another core while this one scans it by the first model's vectors
        // (each scan reads every vector of the scope: 15 MB at 10,000 memories); not beside a conversation's messages,
        // which that model does not embed: its vote would put every memory above them
        MemoryScopeCopies.Copy held = copy;
        MemoryScopeCopies.Filter kept = MemoryScopeCopies.Filter.of(params, allowed);
        CompletableFuture<List<MemoryScopeCopies.Scored>> second = held == null || wordsOnly || byText == null
                || query.secondVector() == null || query.conversationId() != null ? null
                : async(() -> held.nearestBySecond(query.secondVector(), kept, depth));
        double[] similarities = copy == null ? null : copy.similarities(query.vector());
        CompletableFuture<List<Candidate>> byVector = nearest(params, depth, scopeSize, copy, similarities, allowed);
        // a conversation's messages have no tags or metadata: a filtered search finds memories only
        CompletableFuture<List<Candidate>> messages = query.conversationId() == null || query.filter() != null
                ? CompletableFuture.completedFuture(List.of()) : async(() -> conversationMessages(params));
        CompletableFuture<List<Candidate>> inPeriod = null;
        CompletableFuture<List<Candidate>> bySpeaker = null;
        if (!lucene.isEmpty()) {
            if (!wordsOnly && query.period() != null) {
                // what happened in the period the question names, nearest first
                Map<String, Object> period = new HashMap<>(params);
                period.put("after", query.after() == null ? query.period().from() : Math.max(query.after(), query.period().from()));
                period.put("before", query.before() == null ? query.period().to() : Math.min(query.before(), query.period().to()));
                inPeriod = nearest(period, depth, scopeSize, copy, similarities, allowed);
            }
            if (!wordsOnly && query.speaker() == null) {
                // a question that names someone who speaks in the scope: their own memories, nearest first
                List<String> named = namedSpeakers(facts, query.text());
                if (!named.isEmpty()) {
                    Map<String, Object> speaker = new HashMap<>(params);
                    speaker.put("speaker", named.get(0));
                    bySpeaker = nearest(speaker, depth, scopeSize, copy, similarities, allowed);
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
                similar = RecencyLift.apply(query.recency(), copy != null ? new Said(copy::speakerOf, copy::happenedAt) : said(similar), similar);
            }
            return results(similar.stream().limit(pool).toList(), query);
        }
        Map<String, List<Candidate>> lists = new LinkedHashMap<>();
        if (!wordsOnly) {
            lists.put("vector", bySimilarity);
            // the second model's nearest: another opinion on meaning, from the scope's copy when all its memories have one
            List<MemoryScopeCopies.Scored> bySecond = second == null ? null : join(second);
            if (bySecond != null) {
                lists.put(Neo4jMemoryStore.SECOND_VECTOR_LIST, fromCopy(bySecond));
            }
        }
        // BM25 votes unless the query's words found are in every memory: they would rank them by length alone. Its list
        // is kept silent then, not dropped: its ranks still say which memories hold the words (MemoryPeriod dates by them)
        boolean wordsVote = wordsOnly || copy == null || !copy.wordsSayNothing(terms);
        Set<String> silent = wordsVote ? Set.of() : Set.of("bm25");
        lists.put("bm25", join(byText));
        if (copy != null && !wordsOnly) {
            // a reply's words with the turn it answers: a reply may not repeat what it is about, the question before it names it
            List<MemoryScopeCopies.Scored> inContext = copy.bestByWordsInContext(terms,
                    MemoryScopeCopies.Filter.of(params, allowed), depth);
            if (inContext != null) {
                lists.put(Neo4jMemoryStore.CONTEXT_WORDS_LIST, fromCopy(inContext));
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
        if (copy != null && !wordsOnly && tuning.feedbackHits() > 0 && tuning.feedbackTerms() > 0 && wordsVote
                && !lists.get("bm25").isEmpty()) {
            List<Candidate> expanded = expandedByFeedback(copy, lists, terms, MemoryScopeCopies.Filter.of(params, allowed), depth);
            if (!expanded.isEmpty()) {
                lists.put("feedback", expanded);
            }
        }
        if (!wordsOnly && query.entityLinks()) {
            List<Candidate> linked = linkedByEntities(params, query.text(), fuse(lists, ENTITY_SEEDS, silent));
            if (!linked.isEmpty()) {
                lists.put("entity", linked);
            }
        }
        // a question about one of the scope's speakers is mostly answered by what that person said
        double otherSpeakerWeight = query.ranking() != null ? query.ranking().otherSpeakerWeight() : tuning.otherSpeakerWeight();
        double episodeWeight = query.ranking() != null ? query.ranking().episodeWeight() : tuning.episodeWeight();
        String focus = otherSpeakerWeight >= 1 ? null : focusedSpeaker(facts, query.text());
        boolean episodes = episodeWeight > 0;
        if (focus == null && !episodes && query.recency() == null) {
            return results(fuse(lists, pool, silent), query);
        }
        List<Fused> fused = fuse(lists, Integer.MAX_VALUE, silent);
        Said said = copy != null ? new Said(copy::speakerOf, copy::happenedAt) : said(fused);
        if (focus != null) {
            fused = SpeakerFocus.apply(focus, otherSpeakerWeight, said, fused);
        }
        if (episodes) {
            fused = EpisodeLift.apply(episodeWeight, said, fused);
        }
        if (query.recency() != null) {
            fused = RecencyLift.apply(query.recency(), said, fused);
        }
        return results(fused.stream().limit(pool).toList(), query);
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
     * Pseudo-relevance feedback (RM3's idea, over the scope's copy): the words that best characterise
     * the first fused hits join the query's, and BM25 ranks the scope again with them. It reaches
     * evidence that shares no word with the question but shares them with what the question found
     * first: "which cities has John been to" finds a trip, and the trip's words find the other trips.
     * Only over a copy (kept, or read for the search): it needs the scope's own word statistics.
     */
    private List<Candidate> expandedByFeedback(MemoryScopeCopies.Copy copy, Map<String, List<Candidate>> lists, List<String> questionTerms,
                                               MemoryScopeCopies.Filter filter, int depth) {
        List<String> seeds = fuse(lists, tuning.feedbackHits(), Set.of()).stream().map(Fused::candidate)
                .filter(candidate -> candidate.message() == null).map(Candidate::id).toList();
        List<Integer> positions = copy.positions(seeds);
        if (positions.isEmpty()) {
            return List.of();
        }
        List<String> terms = new ArrayList<>(questionTerms);
        terms.addAll(copy.feedbackTerms(positions, tuning.feedbackTerms(), terms));
        return fromCopy(copy.bestByWords(terms, filter, depth));
    }

    private List<Candidate> conversationMessages(Map<String, Object> params) {
        return read("""
                MATCH (c:Conversation {id: $conversationId, scope: $scope})-[:HAS_MESSAGE]->(msg:Message)
                WITH c, msg, vector.similarity.cosine(msg.embedding, $vector) + $boost AS score
                ORDER BY score DESC, msg.id LIMIT $k
                RETURN score, c.id AS conversationId, msg""", params).stream()
                .map(row -> {
                    Message message = Neo4jMemoryStore.message(row.get("conversationId").asString(), row.get("msg").asNode());
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
                """ + filter(linked), linked));
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

    /** The scope's speakers the query names (a word or two of each, any case, or CJK characters), in the order it first names them. */
    private static List<String> namedSpeakers(ScopeFacts facts, String text) {
        return MemoryText.named(text, facts.speakersByKey());
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
    void noteSpeaker(String scope, String speaker) {
        ScopeFacts known = scopeFacts.get(scope);
        if (known != null && speaker != null && !known.speakersByKey().containsKey(MemoryText.key(speaker))) {
            scopeFacts.remove(scope);
        }
    }

    /** Reciprocal rank fusion (constant {@code tuning.rrfK()}) of ranked lists; ranks kept per list, the {@code silent} lists' too, though they add nothing. */
    private List<Fused> fuse(Map<String, List<Candidate>> lists, int k, Set<String> silent) {
        Map<String, Candidate> byKey = new HashMap<>();
        Map<String, Double> scores = new HashMap<>();
        Map<String, Map<String, Integer>> ranks = new HashMap<>();
        lists.forEach((list, candidates) -> {
            for (int i = 0; i < candidates.size(); i++) {
                Candidate candidate = candidates.get(i);
                byKey.putIfAbsent(candidate.key(), candidate);
                scores.merge(candidate.key(), silent.contains(list) ? 0.0 : 1.0 / (tuning.rrfK() + i + 1), Double::sum);
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
     * The results: the pool of fused candidates (k and {@value #NEWER_WINS_POOL} more) read whole in one query, with
     * their vectors, in fused order; then the last signal, {@link NewerWins}, over the pool's memories, and the first k.
     * The pairs are judged on the vectors stored in Neo4j, the same whether the scope has a copy or not.
     */
    private List<MemoryHit> results(List<Fused> fused, MemoryQuery query) {
        List<String> ids = fused.stream().map(Fused::candidate).filter(c -> c.message() == null).map(Candidate::id).toList();
        Map<String, Memory> memories = new HashMap<>();
        List<NewerWins.Candidate> candidates = new ArrayList<>();
        if (!ids.isEmpty()) {
            read("MATCH (m:Memory) WHERE m.id IN $ids RETURN " + Neo4jMemoryStore.MEMORY_FIELDS + ", " + MemoryVectors.READ,
                    Map.of("ids", ids)).forEach(row -> {
                // asOf before an edit: the text as it read then
                Memory stored = memory(row.get("memory"));
                Memory memory = query.asOf() == null ? stored : stored.asItReadAt(query.asOf());
                memories.put(memory.id(), memory);
                try {
                    MemoryVectors vectors = MemoryVectors.of(row);
                    candidates.add(new NewerWins.Candidate(memory.id(), happened(memory), memory.speaker() == null ? null
                            : MemoryText.key(memory.speaker()), memory.text(), vectors.second()));
                } catch (IllegalStateException unreadable) {
                    // bytes no release wrote this way: the memory is found as ever, and judged in no pair
                }
            });
        }
        Map<String, Fused> byId = new HashMap<>();
        fused.forEach(entry -> byId.putIfAbsent(entry.candidate().id(), entry));
        // pairs in the order the lists ranked them, so that the same pool gives the same pairs however it was read
        candidates.sort(Comparator.comparingInt(c -> ids.indexOf(c.id())));
        List<NewerWins.Placed> order = NewerWins.order(fused.stream().map(entry -> entry.candidate().id()).toList(), candidates,
                new NewerWins.Question(query.text(), query.secondVector()), tuning.newerWins());
        List<MemoryHit> hits = new ArrayList<>();
        for (NewerWins.Placed placed : order) {
            if (hits.size() == query.k()) {
                break;
            }
            Fused entry = byId.get(placed.id());
            Candidate candidate = entry.candidate();
            Memory memory = memories.get(placed.id());
            if (candidate.message() == null && memory == null) {
                continue; // a memory deleted meanwhile drops out
            }
            if (placed.above() == null) {
                hits.add(new MemoryHit(candidate.kind(), entry.score(), candidate.message() == null ? memory : null,
                        candidate.message(), entry.ranks(), entry.adjusted()));
            } else { // placed above the older memory it answers the same question as, with its score
                Map<String, Double> adjusted = new LinkedHashMap<>(entry.adjusted() == null ? Map.of() : entry.adjusted());
                adjusted.put(NEWER_WINS, 1.0);
                hits.add(new MemoryHit("memory", byId.get(placed.above()).score(), memory, null, entry.ranks(), adjusted));
            }
        }
        return hits;
    }

    private static long happened(Memory memory) {
        return memory.occurredAt() != null ? memory.occurredAt() : memory.createdAt();
    }

    /**
     * The nearest memories passing the query's filters: from the scope's in-memory copy when it is
     * current ({@code copy} not null, its {@code similarities} to the query computed once per search),
     * else from Neo4j on a session of its own (see the next method).
     */
    private CompletableFuture<List<Candidate>> nearest(Map<String, Object> query, int k, long scopeSize,
                                                       MemoryScopeCopies.Copy copy, double[] similarities, Set<String> allowed) {
        if (copy == null) {
            return async(() -> nearest(query, k, scopeSize));
        }
        return CompletableFuture.completedFuture(fromCopy(copy.nearest(similarities, MemoryScopeCopies.Filter.of(query, allowed), k)));
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
                    """.formatted(MemorySchema.INDEXED_MEMORY, MemorySchema.MEMORY_VECTOR_INDEX, MemorySchema.MEMORY_TO_INDEX)
                    + filter(params), params));
            if (approximate.size() >= Math.min(k, scopeSize)) {
                return approximate;
            }
        }
        return candidates(read("MATCH (m:Memory {scope: $scope})\nWITH m, vector.similarity.cosine(m.embedding, $vector) AS similarity\n"
                + filter(params), params));
    }

    /** The parameter holding the caller's filter as a Cypher predicate on m ({@link MemoryFilter#cypher}), when there is one. */
    private static final String FILTER_WHERE = "filterWhere";

    /** {@link #FILTER} with the caller's filter of these parameters ({@link #FILTER_WHERE}), if any. */
    private static String filter(Map<String, Object> params) {
        Object where = params.get(FILTER_WHERE);
        return where == null ? FILTER : FILTER.replace("WHERE m.scope = $scope AND", "WHERE m.scope = $scope AND (" + where + ") AND");
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
}
