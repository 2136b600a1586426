package dev.openrag.memory.neo4j;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.jboss.logging.Logger;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Session;
import org.neo4j.driver.TransactionContext;
import org.neo4j.driver.Value;

import dev.openrag.knowledge.vector.UnitVectors;
import dev.openrag.memory.MemoryEmbeddings;
import dev.openrag.memory.MemoryWords;
import dev.openrag.memory.ScopeWords;

/**
 * Exact in-memory copies of memory scopes' vectors and search filters, so that a memory search's
 * vector lists (the nearest memories; the nearest of a period; of a named speaker) are scans in
 * memory instead of one Neo4j vector query each. At 10,000 memories in a scope Neo4j's
 * scope-filtered vector index needed 13 ms of the search's ~32 ms; a scan of the copy takes about 2.
 *
 * <p>Every write of a memory (add, update, supersede, correct, forget, delete, sweep) sets a new
 * random {@code version} on the scope's {@code (:MemoryScope {scope})} node in the same transaction
 * ({@link #BUMP_SCOPE_OF_M_FROM_TO}). A search reads that version first and uses the copy only when the copy
 * is at it, so it sees exactly what Neo4j holds, whichever instance wrote it. A copy behind the scope's
 * version catches up in one of three ways, cheapest first:
 * <ol>
 *   <li>this instance's own writes since, held in memory, are applied to it ({@link #changed}): adds, single or
 *   batched, forgets, supersessions, corrections, updates and deletes;</li>
 *   <li>otherwise the memories written since are read ({@link #caughtUp}): every write stamps the memories it changed
 *   with the scope's count of writes ({@code seq}), and a deletion (or a sweep) lists the ids it deleted on the scope,
 *   so a copy reads the memories stamped after its own count, through an index, and the deletions listed after it,
 *   however many instances wrote them;</li>
 *   <li>otherwise (a deletion the list no longer holds or never held, or too much to read) the scope is read again.
 *   A search waits for that read ({@link #current(String, boolean)}), up to {@value #READ_NOW_WAIT_MS} ms, so that it
 *   ranks as the next search will; past that, or when the throttle allows no read yet, a scope Neo4j would scan
 *   exactly is read for that search alone ({@link #readOnce}: at most 1,000 memories, a tenth of the read of 10,000
 *   below, within the copies' budget, which also bounds what such reads hold at once; none with copies off) and a bigger
 *   one is answered by Neo4j's indexes. One read per scope at a time, and no sooner than 20 times the last read's
 *   duration (at least a second), so a scope that changes all the time costs at most about 5% of a core to follow. The vectors,
 *   most of what is read, come as bytes ({@link MemoryVectors}): a scope of 10,000 memories is read in about half a
 *   second.</li>
 * </ol>
 * Copies hold at most {@code maxMemories} memories in all; the least recently searched make room, and a bigger
 * scope is never copied.
 */
final class MemoryScopeCopies {

    private static final Logger LOG = Logger.getLogger(MemoryScopeCopies.class);
    private static final long MIN_RELOAD_INTERVAL_NANOS = 1_000_000_000L;
    private static final int RELOAD_COST_FACTOR = 20;
    /** Past this many scopes with a reload time, the times already passed are dropped. */
    private static final int MAX_THROTTLED_SCOPES = 10_000;
    /** The longest a search waits for its scope's copy to be read ({@link #current(String, boolean)}). */
    static final long READ_NOW_WAIT_MS = 2_000;

    /**
     * Gives the scope of the memory {@code m} a new version, as a clause for a statement that has {@code m} bound (saves a
     * round trip). It binds the version it replaces ({@code before}, read once the scope is locked, so no other write comes
     * between the two) and the new one ({@code after}): a write with it can be applied to a copy at {@code before}
     * ({@link #changed}). It also counts the scope's writes ({@code seq}) and stamps the memories the write changed
     * (parameter {@code $changed}, their ids) with that count, so that another instance's copy can read just those
     * ({@link #caughtUp}).
     *
     * <p>Parameter {@code $gone} names the memories the write deleted, which a copy cannot read back: the scope counts
     * the deletion ({@code deletes}) and lists those ids with the count ({@code gone}, {@code goneSeq}), the last
     * {@value #MAX_GONE_LISTED} of them. A deletion of more at once is counted and not listed; so, with a listed one,
     * is each deletion the list no longer reaches back to ({@code goneTrimmedTo}). A copy catches up past a deletion only
     * when it was listed ({@code listedDeletes} counts those): a release that lists none (before the thirty-third
     * session's) reads the scope again at every deletion, as copies of this one do after a deletion it made.
     * {@code stamped} names the version the last such write set: a version it does not name was set by a write that
     * stamped nothing (an older release of OpenRAG during a rolling upgrade), which the next write counts as an unlisted
     * deletion, so that copies read before it are read again.
     */
    static final String BUMP_SCOPE_OF_M_FROM_TO = """
            MERGE (s:MemoryScope {scope: m.scope})
            SET s.lock = true
            WITH m, s, s.version AS before
            SET s.version = randomUUID(), s.seq = coalesce(s.seq, 0) + 1,
                s.deletes = coalesce(s.deletes, 0) + CASE WHEN size($gone) > 0 THEN 1 ELSE 0 END
                            + CASE WHEN before IS NULL OR before = s.stamped THEN 0 ELSE 1 END
            SET s.stamped = s.version
            REMOVE s.lock
            WITH m, s, before
            CALL (s) {
              UNWIND $changed AS changedId
              MATCH (changed:Memory {id: changedId}) WHERE changed.scope = s.scope
              SET changed.seq = s.seq
            }
            CALL (s) {
              WITH s WHERE 0 < size($gone) <= $maxGoneListed
              WITH s, coalesce(s.gone, []) + $gone AS ids, coalesce(s.goneSeq, []) + [id IN $gone | s.seq] AS seqs
              WITH s, ids, seqs, size(ids) - $maxGoneListed AS over
              SET s.gone = CASE WHEN over > 0 THEN ids[over..] ELSE ids END,
                  s.goneSeq = CASE WHEN over > 0 THEN seqs[over..] ELSE seqs END,
                  s.goneTrimmedTo = CASE WHEN over > 0 THEN seqs[over - 1] ELSE s.goneTrimmedTo END,
                  s.listedDeletes = coalesce(s.listedDeletes, 0) + 1
            }
            WITH m, before, s.version AS after""";

    /** The most deleted memories a scope lists for copies to catch up with ({@link #BUMP_SCOPE_OF_M_FROM_TO}). */
    static final int MAX_GONE_LISTED = 500;

    /**
     * The parameters of {@link #BUMP_SCOPE_OF_M_FROM_TO}: the ids of the memories a write changed, and of those it
     * deleted.
     */
    static Map<String, Object> bumpParameters(Collection<String> changed, Collection<String> gone) {
        return Map.of("changed", List.copyOf(changed), "gone", List.copyOf(gone), "maxGoneListed", MAX_GONE_LISTED);
    }

    /**
     * {@link #BUMP_SCOPE_OF_M_FROM_TO} for a scope by name, after a write that changed the memories {@code changed} and
     * deleted those {@code gone}: a write with it can be applied to a copy at {@code before} ({@link #changed}).
     */
    static Versions bumpFromTo(TransactionContext tx, String scope, Collection<String> changed, Collection<String> gone) {
        // that clause, with a map standing in for the memory: it reads only m.scope
        Map<String, Object> params = new HashMap<>(bumpParameters(changed, gone));
        params.put("scope", scope);
        Record row = tx.run("WITH {scope: $scope} AS m\n" + BUMP_SCOPE_OF_M_FROM_TO + "\nRETURN before, after", params).single();
        return new Versions(scope, row.get("before").asString(null), row.get("after").asString());
    }

    /**
     * {@link #bumpFromTo} for the scope of the memory {@code id} (which the write deletes, or not); null when there is no
     * such memory.
     */
    static Versions bumpScopeOfFromTo(TransactionContext tx, String id, Collection<String> changed, boolean deletes) {
        Map<String, Object> params = new HashMap<>(bumpParameters(changed, deletes ? List.of(id) : List.of()));
        params.put("id", id);
        List<Record> rows = tx.run("MATCH (m:Memory {id: $id})\n" + BUMP_SCOPE_OF_M_FROM_TO + "\nRETURN m.scope AS scope, before, after",
                params).list();
        if (rows.isEmpty()) {
            return null;
        }
        Record row = rows.get(0);
        return new Versions(row.get("scope").asString(), row.get("before").asString(null), row.get("after").asString());
    }

    /** The version a write took a scope from ({@code before}; null: the scope had none) and the one it set. */
    record Versions(String scope, String before, String after) {
    }

    /**
     * Where a scope stands: its version, how many writes stamped memories in it ({@code seq}, 0 before the first), how
     * many deleted some ({@code deletes}) and how many of those listed what they deleted ({@code listedDeletes}), and the
     * count of writes up to which the list no longer reaches ({@code goneTrimmedTo}). A copy read at one state can catch
     * up with a later one by reading the memories stamped since and the deletions listed since, if every deletion in
     * between was listed and the last write stamped what it changed ({@code stamped}; see {@link #BUMP_SCOPE_OF_M_FROM_TO})
     * ({@link #caughtUp}).
     */
    record State(String version, long seq, long deletes, long listedDeletes, long goneTrimmedTo, boolean stamped) {

        /** Whether a copy at {@code at} can learn every deletion since from the scope's list of them. */
        boolean listsEveryDeletionSince(State at) {
            long deletions = deletes - at.deletes;
            return deletions == listedDeletes - at.listedDeletes && (deletions == 0 || goneTrimmedTo <= at.seq);
        }

        /**
         * These counts at another version: for a copy on its way to a state whose counts are not known yet (counts older
         * than a copy's own are safe: a catch-up from them reads more, never less).
         */
        State at(String version) {
            return new State(version, seq, deletes, listedDeletes, goneTrimmedTo, false);
        }
    }

    private final Driver driver;
    private final long maxMemories;
    /** Whether copies are kept between searches (else each search of a scope within the limit reads it for itself). */
    private final boolean keep;
    private final boolean stemming;
    /** The memories that reads for one search ({@link #readOnce}) may hold at the moment, reserved before each read. */
    private final AtomicLong heldForOneSearch = new AtomicLong();
    /** How many scopes were read for one search. */
    private final LongAdder readsForOneSearch = new LongAdder();
    private final ExecutorService background = Executors.newVirtualThreadPerTaskExecutor();
    private final Map<String, Copy> copies = new ConcurrentHashMap<>();
    private final Map<String, Long> nextLoadAllowed = new ConcurrentHashMap<>();
    /** Per scope, its read under way. */
    private final Map<String, CompletableFuture<Void>> loading = new ConcurrentHashMap<>();
    /** Per scope, what this store's writes changed since, by the version each write replaced (see {@link #changed}). */
    private final Map<String, Map<String, Change>> changes = new ConcurrentHashMap<>();
    private final AtomicInteger changesHeld = new AtomicInteger();
    /** The most added memories and marks held for copies in all (a memory is about 3 KB with two models' vectors); past it they are dropped. */
    static final int MAX_CHANGES_HELD = 10_000;
    /** How the scopes asked for were found, by {@link Found#ordinal}. */
    private final LongAdder[] found = Stream.generate(LongAdder::new).limit(Found.values().length).toArray(LongAdder[]::new);

    /** How a search found its scope's copy ({@link #current(String, boolean)}). */
    enum Found {
        /** at the scope's version already */
        CURRENT,
        /** brought to it by this instance's own writes since ({@link #changed}) */
        OWN_WRITES,
        /** brought to it by reading what was written and deleted since ({@link #caughtUp}) */
        CAUGHT_UP,
        /** read whole while the search waited */
        READ_NOW,
        /** without a current copy: read for the search alone, or (a scope past the exact-scan limit) Neo4j's indexes answered */
        NONE
    }

    /** @param stemming whether a copy's BM25 matches words by their stems ({@link ScopeWords}) */
    MemoryScopeCopies(Driver driver, long maxMemories, boolean stemming) {
        this(driver, maxMemories, stemming, true);
    }

    /** @param keep whether copies are kept between searches (false: every search without one reads its scope for itself) */
    MemoryScopeCopies(Driver driver, long maxMemories, boolean stemming, boolean keep) {
        this.driver = driver;
        this.maxMemories = maxMemories;
        this.stemming = stemming;
        this.keep = keep;
    }

    /**
     * The scope's copy if it is current (one round trip for the scope's version); otherwise null,
     * and a fresh copy is read in the background (a scope over the budget is found too big then, and
     * asked again no sooner than the throttle allows).
     */
    Copy current(String scope) {
        return current(scope, false);
    }

    /**
     * {@link #current(String)}; with {@code readNow}, a scope without a current copy is read before this
     * returns (or its read under way is waited for), when the throttle allows a read, for up to
     * {@value #READ_NOW_WAIT_MS} ms. Without a copy a search takes Neo4j's lists alone: the first search
     * of a scope (after a start, or after a write this store cannot apply) would rank otherwise than the
     * next. The copy read is used only at the version the scope has after it, so the search still sees
     * every write committed before it began.
     */
    Copy current(String scope, boolean readNow) {
        if (maxMemories <= 0 || !keep) {
            return null;
        }
        Copy copy = copies.get(scope);
        State state = copy == null ? null : state(scope);
        if (state != null) {
            Found how = Found.CURRENT;
            Copy current = copy.version().equals(state.version()) ? copy : null;
            if (current == null) {
                how = Found.OWN_WRITES;
                current = advanced(scope, copy, state);
            }
            if (current == null) {
                how = Found.CAUGHT_UP;
                current = caughtUp(scope, copy, state);
            }
            if (current != null) {
                if (current != copy && copies.replace(scope, copy, current)) {
                    evictBeyondBudget(scope);
                }
                current.touch();
                return counted(how, current);
            }
        }
        if (copy != null) {
            copy.behind = true; // its vectors are no longer those a search found memories by (vectors)
        }
        CompletableFuture<Void> read = loadInBackground(scope);
        Copy fresh = readNow && read != null ? readNow(scope, read) : null;
        return counted(fresh == null ? Found.NONE : Found.READ_NOW, fresh);
    }

    private Copy counted(Found how, Copy copy) {
        found[how.ordinal()].increment();
        return copy;
    }

    /** How many times a scope asked for was found as {@code how} (copies off: none counted). */
    long found(Found how) {
        return found[how.ordinal()].sum();
    }

    private Copy readNow(String scope, CompletableFuture<Void> read) {
        try {
            read.get(READ_NOW_WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (ExecutionException e) {
            return null; // logged by the read
        }
        Copy fresh = copies.get(scope);
        // a read already under way may have begun before a write this search must see: its version says
        State state = fresh == null ? null : state(scope);
        if (state == null || !fresh.version().equals(state.version())) {
            return null;
        }
        fresh.touch();
        return fresh;
    }

    /**
     * What this store changed in a scope in one write that took the scope from one version to the next
     * ({@link #BUMP_SCOPE_OF_M_FROM_TO}, {@link #bumpFromTo}): the memories it added, the times it set on
     * memories ({@code marks}), the memories it gave a new text or deleted ({@code edits}); all may be
     * empty (a write that changes nothing a copy holds, as new tags). The next search of the scope applies
     * them to a copy at the version before instead of reading the whole scope again: an agent that
     * remembers, corrects and recalls in turn, or imports in batches while it searches, keeps finding its
     * scope in memory without a read. Only while the scope has a copy; another instance's writes are read
     * instead ({@link #caughtUp}).
     */
    void changed(Versions versions, List<Row> rows, List<Mark> marks, List<Edit> edits) {
        if (versions == null || versions.before() == null || !copies.containsKey(versions.scope())) {
            return;
        }
        Change change = new Change(versions.before(), versions.after(), List.copyOf(rows), List.copyOf(marks), List.copyOf(edits));
        if (changesHeld.addAndGet(change.size()) > MAX_CHANGES_HELD) { // scopes written and never searched: start again
            changes.clear();
            changesHeld.set(change.size());
        }
        changes.computeIfAbsent(versions.scope(), key -> new ConcurrentHashMap<>()).put(versions.before(), change);
    }

    /** The copy with this store's changes since its version applied, if they lead to {@code version}; null if they do not. */
    private Copy advanced(String scope, Copy copy, State state) {
        Map<String, Change> held = changes.get(scope);
        String version = state.version();
        if (held == null) {
            return null;
        }
        Copy current = copy;
        List<Row> rows = new ArrayList<>();
        List<Mark> marks = new ArrayList<>();
        String at = copy.version();
        while (!at.equals(version)) {
            Change next = held.remove(at); // each once: a chain cannot come round
            if (next == null) {
                return null;
            }
            changesHeld.addAndGet(-next.size());
            rows.addAll(next.rows());
            marks.addAll(next.marks());
            at = next.after();
            if (!next.edits().isEmpty()) { // in their turn: after the adds and marks before them, which are applied together
                State between = copy.state().at(at);
                current = current.with(rows, marks, between);
                current = current == null ? null : current.edited(next.edits(), between);
                if (current == null) {
                    return null;
                }
                rows.clear();
                marks.clear();
            }
        }
        return current.size() + rows.size() > maxMemories ? null : current.with(rows, marks, state);
    }

    /**
     * The copy caught up with the scope's {@code state} by reading the memories written since its own (another instance's
     * writes, or this one's that {@link #advanced} could not apply): one indexed read of those memories instead of the
     * whole scope, so a scope written through several instances stays in memory; then the memories deleted since, as
     * the scope lists them. Null where it cannot: a deletion since that was not listed, more than {@value #MAX_CATCH_UP}
     * memories to read, or changes the copy cannot apply ({@link Copy#caughtUp}); the scope is read again then.
     *
     * <p>The memories are read before the deletions, and both may hold writes newer than {@code state}: the copy is
     * then newer than its state, and the next search catches up from that state again, which sets right a memory
     * read here and deleted before the deletions were read.
     */
    private Copy caughtUp(String scope, Copy copy, State state) {
        State at = copy.state();
        if (!state.stamped() || !state.listsEveryDeletionSince(at) || state.seq() <= at.seq()) {
            return null;
        }
        List<Record> rows;
        List<String> gone = List.of();
        try (Session session = driver.session()) {
            // the hint: without it the planner takes the scope's index and reads every memory's stamp
            rows = session.run("MATCH (m:Memory {scope: $scope}) USING INDEX m:Memory(scope, seq) WHERE m.seq > $seq\n" + COPIED_FIELDS
                    + "\nLIMIT $limit", Map.of("scope", scope, "seq", at.seq(), "limit", MAX_CATCH_UP + 1)).list();
            if (state.deletes() != at.deletes()) {
                Record listed = session.run("""
                        MATCH (s:MemoryScope {scope: $scope})
                        RETURN coalesce(s.goneTrimmedTo, 0) <= $seq AS reaches,
                               [i IN range(0, size(coalesce(s.gone, [])) - 1) WHERE s.goneSeq[i] > $seq | s.gone[i]] AS gone""",
                        Map.of("scope", scope, "seq", at.seq())).single();
                if (!listed.get("reaches").asBoolean()) { // trimmed since the state was read
                    return null;
                }
                gone = listed.get("gone").asList(Value::asString);
            }
        }
        List<Copied> written;
        try {
            written = rows.stream().map(Copied::of).toList();
        } catch (IllegalStateException e) { // vectors that cannot be read (bytes not written by OpenRAG): the read of the scope logs it
            return null;
        }
        Copy current = rows.size() > MAX_CATCH_UP ? null : copy.caughtUp(written, gone, state);
        if (current == null || current.size() > maxMemories) {
            return null;
        }
        LOG.debugf("memory scope %s: caught up with %d memories written and %d deleted since its copy", scope, rows.size(), gone.size());
        Map<String, Change> held = changes.get(scope);
        if (held != null) { // what this store wrote before this state is in the copy now; only a change from it can follow
            held.entrySet().removeIf(entry -> {
                boolean passed = !entry.getKey().equals(state.version());
                if (passed) {
                    changesHeld.addAndGet(-entry.getValue().size());
                }
                return passed;
            });
        }
        return current;
    }

    /**
     * A time a write set on a memory: when it was forgotten ({@code at} null: restored), or the end of its
     * validity (a supersession; {@code at} as stored, so a memory superseded before keeps its first end).
     */
    record Mark(String id, Time time, Long at) {

        enum Time { FORGOTTEN, VALID_TO }
    }

    /** A memory as a copy holds it; {@code context} is the words searched with its text (null: none). */
    record Row(String id, String text, String context, float[] embedding, float[] second, String speaker, long happened,
               Long expiresAt, List<String> conversations) {

        /** The text as a copy's words in context hold it: after its context, as {@link Copy#of} reads it. */
        String inContext() {
            return MemoryScopeCopies.inContext(context, text);
        }
    }

    /** What a copy reads of each memory {@code m} ({@link Copied#of}). */
    private static final String COPIED_FIELDS = "RETURN m.id AS id, m.text AS text, m.context AS context, m.terms AS terms, m.termsBy AS termsBy,\n" + MemoryVectors.READ + ",\n" + """
                   m.speaker AS speaker, coalesce(m.occurredAt, m.createdAt) AS happened, m.forgottenAt AS forgottenAt,
                   m.expiresAt AS expiresAt, m.validTo AS validTo, [(c:Conversation)-[:HAS_MEMORY]->(m) | c.id] AS conversations""";

    /** The most memories a copy catches up with in one read ({@link #caughtUp}); past it the scope is read again. */
    static final int MAX_CATCH_UP = 2_000;

    /** A memory as read from Neo4j: as a copy holds it, and the times a write may have set on it since it was added. */
    record Copied(Row row, Long forgottenAt, Long validTo, String terms, String termsBy) {

        /** The text's terms as stored beside it, when {@code words} read them (a copy then reads no text again); else null. */
        List<String> terms(MemoryWords words) {
            return terms == null || !words.version().equals(termsBy) ? null : terms.isEmpty() ? List.of() : List.of(terms.split(" "));
        }

        static Copied of(Record record) {
            String id = record.get("id").asString();
            MemoryVectors vectors;
            try {
                vectors = MemoryVectors.of(record);
            } catch (IllegalStateException e) { // the log names the memory
                throw new IllegalStateException("memory " + id + ": " + e.getMessage(), e);
            }
            return new Copied(new Row(id, record.get("text").asString(""), record.get("context").asString(null),
                    vectors.embedding(), vectors.second(), record.get("speaker").asString(null),
                    record.get("happened").asLong(), Neo4jMemoryStore.nullableLong(record.get("expiresAt")),
                    List.copyOf(record.get("conversations").asList(Value::asString))),
                    Neo4jMemoryStore.nullableLong(record.get("forgottenAt")), Neo4jMemoryStore.nullableLong(record.get("validTo")),
                    record.get("terms").asString(null), record.get("termsBy").asString(null));
        }
    }

    /**
     * A memory a write gave a new text, with its {@code context} and vectors as stored now, or deleted
     * ({@code text} null).
     */
    record Edit(String id, String text, String context, float[] embedding, float[] second) {

        static Edit deleted(String id) {
            return new Edit(id, null, null, null, null);
        }

        boolean deletes() {
            return text == null;
        }

        /** The text as a copy's words in context hold it ({@link Row#inContext}). */
        String inContext() {
            return MemoryScopeCopies.inContext(context, text);
        }
    }

    private record Change(String before, String after, List<Row> rows, List<Mark> marks, List<Edit> edits) {

        int size() {
            return 1 + rows.size() + marks.size() + edits.size();
        }
    }

    /** A memory's text as a copy's words in context hold it: after its context (null: none). */
    static String inContext(String context, String text) {
        return context == null ? text : context + "\n" + text;
    }

    /** A vector as Neo4j returns it (a list of doubles), as floats. */
    static float[] floats(Value list) {
        float[] floats = new float[list.size()];
        for (int d = 0; d < floats.length; d++) { // not through a List<Double>: a scope's read boxes millions
            floats[d] = (float) list.get(d).asDouble();
        }
        return floats;
    }

    /**
     * The vectors of the memories {@code ids} of {@code scope} as its copy holds them (unit length; the second null where
     * the copy holds no second model's list), by id; those it does not hold are absent. Only from a copy that was current
     * at the scope's last search, so the memories that search found come with their vectors as that search saw them,
     * without a read; none without such a copy.
     */
    Map<String, MemoryEmbeddings.Vectors> vectors(String scope, Collection<String> ids) {
        Copy copy = copies.get(scope);
        return copy == null || copy.behind ? Map.of() : copy.vectorsOf(ids);
    }

    /** How many memories the copies hold in all. */
    long memoriesInMemory() {
        return copies.values().stream().mapToLong(Copy::size).sum();
    }

    /** The scope's state (null: it has no version, as before its first write). */
    private State state(String scope) {
        try (Session session = driver.session()) {
            List<Record> rows = session.run("""
                    MATCH (s:MemoryScope {scope: $scope})
                    RETURN s.version AS version, coalesce(s.seq, 0) AS seq, coalesce(s.deletes, 0) AS deletes,
                           coalesce(s.listedDeletes, 0) AS listedDeletes, coalesce(s.goneTrimmedTo, 0) AS goneTrimmedTo,
                           coalesce(s.version = s.stamped, false) AS stamped""",
                    Map.of("scope", scope)).list();
            if (rows.isEmpty() || rows.get(0).get("version").isNull()) {
                return null;
            }
            Record row = rows.get(0);
            return new State(row.get("version").asString(), row.get("seq").asLong(), row.get("deletes").asLong(),
                    row.get("listedDeletes").asLong(), row.get("goneTrimmedTo").asLong(), row.get("stamped").asBoolean());
        }
    }

    /** The scope's read under way, else a new one; null when the throttle allows none yet. */
    private CompletableFuture<Void> loadInBackground(String scope) {
        CompletableFuture<Void> underWay = loading.get(scope);
        if (underWay != null) {
            return underWay;
        }
        long now = System.nanoTime();
        Long allowed = nextLoadAllowed.get(scope);
        if (allowed != null && now < allowed) {
            return null;
        }
        CompletableFuture<Void> read = new CompletableFuture<>();
        underWay = loading.putIfAbsent(scope, read);
        if (underWay != null) {
            return underWay;
        }
        if (nextLoadAllowed.size() >= MAX_THROTTLED_SCOPES) {
            nextLoadAllowed.values().removeIf(time -> time <= now);
        }
        nextLoadAllowed.put(scope, now + MIN_RELOAD_INTERVAL_NANOS);
        background.execute(() -> {
            long started = System.nanoTime();
            boolean empty = false;
            try {
                empty = !load(scope);
            } catch (RuntimeException e) {
                LOG.warnf("could not copy memory scope %s into memory, searching it in Neo4j: %s", scope, e.getMessage());
            } finally {
                long took = System.nanoTime() - started;
                LOG.debugf("memory scope %s read in %.1f ms", scope, took / 1e6);
                if (empty) {
                    // nothing was read (one lookup): the scope's first write is no reason to keep its first search from reading it
                    nextLoadAllowed.remove(scope);
                } else {
                    nextLoadAllowed.put(scope, started + Math.max(MIN_RELOAD_INTERVAL_NANOS, RELOAD_COST_FACTOR * took));
                }
                loading.remove(scope);
                read.complete(null);
            }
        });
        return read;
    }

    /** Reads the scope into a copy (none past the budget); false when the scope has no memories to read. */
    private boolean load(String scope) {
        // the state first: a write that commits while the memories are read makes the copy newer than its
        // state (caught up at the next search), never older. A scope last written before versions existed gets one;
        // a scope with no memories gets none (a search of any name a caller makes up writes nothing) and no copy.
        State state = state(scope);
        try (Session session = driver.session()) {
            if (state == null) {
                String version = session.executeWrite(tx -> tx.run("""
                        MATCH (m:Memory {scope: $scope}) WITH m LIMIT 1
                        MERGE (s:MemoryScope {scope: $scope}) ON CREATE SET s.version = randomUUID()
                        WITH s SET s.stamped = coalesce(s.stamped, s.version) RETURN s.version AS v""",
                        Map.of("scope", scope)).list().stream().findFirst().map(row -> row.get("v").asString()).orElse(null));
                if (version == null) {
                    copies.remove(scope);
                    return false;
                }
                state = state(scope);
            }
            State readAt = state;
            Copy copy = session.executeRead(tx -> {
                // counted first, so that a scope over the budget costs an index count, not a read of its vectors
                long size = tx.run("MATCH (m:Memory {scope: $scope}) WITH m LIMIT $limit RETURN count(m) AS n",
                        Map.of("scope", scope, "limit", maxMemories + 1)).single().get("n").asLong();
                if (size > maxMemories) {
                    return null;
                }
                return Copy.of(readAt, stemming, tx.run("MATCH (m:Memory {scope: $scope})\n" + COPIED_FIELDS, Map.of("scope", scope))
                        .list(Copied::of));
            });
            if (copy == null) {
                copies.remove(scope);
                return true;
            }
            copies.put(scope, copy); // changes held from before its version stay until MAX_CHANGES_HELD clears them: a write
            // that committed while the scope was read has its version and may be needed next
            LOG.debugf("memory scope %s: %d memories copied into memory at version %s", scope, copy.size(), copy.version());
            evictBeyondBudget(scope);
            return true;
        }
    }

    /** The state of a copy read for one search only ({@link #readOnce}): a version no scope has. */
    private static final State ONCE = new State("", 0, 0, 0, 0, false);

    /**
     * The scope read whole for one search and not kept (no throttle): a search without a current copy ranks over this
     * one, through the same code as over a kept copy, so that both answer in the same order (MemorySearch asks only for
     * a scope Neo4j would scan exactly anyway). Bounded by the copies' budget: none when it is 0 (copies off: Neo4j
     * answers every search), at most {@code atMost} and the budget's memories read for one scope, and at most the
     * budget's memories being read for single searches at once. Null past any of these (Neo4j's indexes answer), for an
     * empty scope, or for vectors a copy cannot hold (the read of a scope logs those).
     */
    Copy readOnce(String scope, long atMost) {
        long bound = Math.min(atMost, maxMemories);
        if (bound <= 0) {
            return null;
        }
        if (heldForOneSearch.addAndGet(bound) > maxMemories) {
            heldForOneSearch.addAndGet(-bound);
            return null;
        }
        try (Session session = driver.session()) {
            List<Copied> rows = session.executeRead(tx -> tx.run("MATCH (m:Memory {scope: $scope}) WITH m LIMIT $limit\n"
                    + COPIED_FIELDS, Map.of("scope", scope, "limit", bound + 1)).list(Copied::of));
            if (rows.isEmpty() || rows.size() > bound) {
                return null;
            }
            readsForOneSearch.increment();
            return Copy.of(ONCE, stemming, rows);
        } catch (IllegalStateException e) {
            return null;
        } finally {
            heldForOneSearch.addAndGet(-bound);
        }
    }

    /** How many scopes were read for one search ({@link #readOnce}). */
    long readsForOneSearch() {
        return readsForOneSearch.sum();
    }

    /** Drops the least recently searched copies, other than {@code keep}, until all fit in the budget. */
    private synchronized void evictBeyondBudget(String keep) {
        while (memoriesInMemory() > maxMemories) {
            String oldest = copies.entrySet().stream().filter(entry -> !entry.getKey().equals(keep))
                    .min(Comparator.comparingLong(entry -> entry.getValue().lastUsed))
                    .map(Map.Entry::getKey).orElse(keep);
            copies.remove(oldest);
            Map<String, Change> held = changes.remove(oldest);
            if (held != null) {
                changesHeld.addAndGet(-held.values().stream().mapToInt(Change::size).sum());
            }
        }
    }

    /** What a vector list filters on, as {@code Neo4jMemoryStore}'s FILTER does in Cypher. */
    record Filter(boolean includeForgotten, long now, String speaker, Long after, Long before, Long asOf,
                  String conversationId, double boost, Set<String> allowed) {

        /** From a search's Cypher parameters. */
        static Filter of(Map<String, Object> params) {
            return of(params, null);
        }

        /** From a search's Cypher parameters, keeping only the {@code allowed} ids (the caller's filter; null: all). */
        static Filter of(Map<String, Object> params, Set<String> allowed) {
            return new Filter((Boolean) params.get("includeForgotten"), (Long) params.get("now"), (String) params.get("speaker"),
                    (Long) params.get("after"), (Long) params.get("before"), (Long) params.get("asOf"),
                    (String) params.get("conversationId"), ((Number) params.get("boost")).doubleValue(), allowed);
        }
    }

    /** A memory of a copy that passed a filter, with its score. */
    record Scored(String id, double score) {
    }

    /** One scope's memories: ids, unit vectors and the fields search filters on, one array each. */
    static final class Copy {

        private static final long NONE = Long.MIN_VALUE;

        private final State state;
        private final String[] ids;
        private final UnitVectors vectors;
        /** The second model's vectors, or null when a memory of the scope has none (written before, or with it off). */
        private final UnitVectors secondVectors;
        /**
         * Which memories have no second vector (then {@code secondVectors} is null): followed so that an update or a
         * delete can tell whether a fresh read would still lack the list (some memory still without one).
         */
        private final boolean[] lacksSecond;
        private final String[] speakers;
        private final long[] happened;
        private final long[] forgottenAt;
        private final long[] expiresAt;
        private final long[] validTo;
        private final List<List<String>> conversations;
        private final ScopeWords words;
        /** The words of each memory's context and text, or null when no memory of the scope has a context. */
        private final ScopeWords wordsInContext;
        private final Map<String, Integer> positions = new HashMap<>();
        private volatile long lastUsed = System.nanoTime();
        /** Set once a search found the scope at another version that this copy could not be brought to. */
        private volatile boolean behind;

        private Copy(State state, String[] ids, UnitVectors vectors, UnitVectors secondVectors, boolean[] lacksSecond, String[] speakers,
                     long[] happened,
                     long[] forgottenAt, long[] expiresAt, long[] validTo, List<List<String>> conversations, ScopeWords words,
                     ScopeWords wordsInContext) {
            this.state = state;
            this.ids = ids;
            this.vectors = vectors;
            this.secondVectors = secondVectors;
            this.lacksSecond = lacksSecond;
            this.speakers = speakers;
            this.happened = happened;
            this.forgottenAt = forgottenAt;
            this.expiresAt = expiresAt;
            this.validTo = validTo;
            this.conversations = conversations;
            this.words = words;
            this.wordsInContext = wordsInContext;
            for (int i = 0; i < ids.length; i++) {
                positions.put(ids[i], i);
            }
        }

        static Copy of(State state, boolean stemming, List<Copied> rows) {
            int n = rows.size();
            String[] ids = new String[n];
            float[][] embeddings = new float[n][];
            float[][] seconds = new float[n][];
            String[] speakers = new String[n];
            long[] happened = new long[n];
            long[] forgottenAt = new long[n];
            long[] expiresAt = new long[n];
            long[] validTo = new long[n];
            List<List<String>> conversations = new ArrayList<>(n);
            List<String> texts = new ArrayList<>(n);
            MemoryWords words = MemoryWords.of(stemming);
            List<List<String>> terms = new ArrayList<>(n);
            List<String> inContext = new ArrayList<>(n);
            boolean anyContext = false;
            int dimension = 0;
            for (int i = 0; i < n; i++) {
                Row row = rows.get(i).row();
                ids[i] = row.id();
                texts.add(row.text());
                terms.add(rows.get(i).terms(words));
                anyContext |= row.context() != null;
                inContext.add(row.inContext());
                embeddings[i] = row.embedding();
                dimension = Math.max(dimension, embeddings[i].length);
                seconds[i] = row.second();
                speakers[i] = row.speaker();
                happened[i] = row.happened();
                forgottenAt[i] = orNone(rows.get(i).forgottenAt());
                expiresAt[i] = orNone(row.expiresAt());
                validTo[i] = orNone(rows.get(i).validTo());
                conversations.add(row.conversations());
            }
            for (float[] embedding : embeddings) {
                if (embedding.length != dimension) { // written by another embedding model: the copy could not rank it
                    throw new IllegalStateException("the scope's memories have vectors of different sizes");
                }
            }
            // the second model's list only when every memory has its vector, all of one size
            boolean allSeconds = n > 0 && Arrays.stream(seconds).allMatch(v -> v != null && v.length == seconds[0].length);
            UnitVectors secondVectors = allSeconds ? UnitVectors.of(seconds, seconds[0].length) : null;
            boolean[] lacksSecond = new boolean[n];
            for (int i = 0; i < n; i++) {
                lacksSecond[i] = seconds[i] == null;
            }
            return new Copy(state, ids, UnitVectors.of(embeddings, dimension), secondVectors, lacksSecond, speakers, happened, forgottenAt,
                    expiresAt, validTo, conversations, ScopeWords.of(texts, terms, words), anyContext ? ScopeWords.of(inContext, stemming) : null);
        }

        /**
         * This copy with {@code rows} added after its memories and then the {@code marks} set, at {@code state}: what
         * reading the scope again would give, at the cost of the new memories (their vectors fill the room after the old
         * ones; the words of the others are shared). Rows it holds already (written while it was read) are skipped. Null
         * where it cannot: an empty copy, vectors of another size, the scope's first memories with a context, or a mark
         * on a memory it does not hold.
         */
        Copy with(List<Row> rows, List<Mark> marks, State state) {
            List<Row> fresh = rows.stream().filter(row -> !positions.containsKey(row.id())).toList();
            if (ids.length == 0 || fresh.stream().anyMatch(row -> row.embedding().length != vectors.dimension())) {
                return null;
            }
            if (wordsInContext == null && fresh.stream().anyMatch(row -> row.context() != null)) {
                return null; // the scope's first context: its words in context are built when the scope is read again
            }
            int n = ids.length;
            int total = n + fresh.size();
            String[] grownIds = Arrays.copyOf(ids, total);
            String[] grownSpeakers = Arrays.copyOf(speakers, total);
            long[] grownHappened = Arrays.copyOf(happened, total);
            long[] grownForgottenAt = Arrays.copyOf(forgottenAt, total);
            long[] grownExpiresAt = Arrays.copyOf(expiresAt, total);
            long[] grownValidTo = Arrays.copyOf(validTo, total);
            List<List<String>> grownConversations = new ArrayList<>(conversations);
            Map<String, Integer> grownPositions = new HashMap<>(positions);
            for (int k = 0; k < fresh.size(); k++) {
                Row row = fresh.get(k);
                grownIds[n + k] = row.id();
                grownSpeakers[n + k] = row.speaker();
                grownHappened[n + k] = row.happened();
                grownForgottenAt[n + k] = NONE;
                grownExpiresAt[n + k] = row.expiresAt() == null ? NONE : row.expiresAt();
                grownValidTo[n + k] = NONE;
                grownConversations.add(List.copyOf(row.conversations()));
                grownPositions.put(row.id(), n + k);
            }
            for (Mark mark : marks) { // in the order they were written
                Integer position = grownPositions.get(mark.id());
                if (position == null) {
                    return null;
                }
                long[] times = mark.time() == Mark.Time.FORGOTTEN ? grownForgottenAt : grownValidTo;
                times[position] = mark.at() == null ? NONE : mark.at();
            }
            // the second model's list only while every memory has its vector (as when read)
            boolean allSeconds = secondVectors != null
                    && fresh.stream().allMatch(row -> row.second() != null && row.second().length == secondVectors.dimension());
            boolean[] grownLacksSecond = Arrays.copyOf(lacksSecond, total);
            for (int k = 0; k < fresh.size(); k++) {
                grownLacksSecond[n + k] = fresh.get(k).second() == null;
            }
            List<String> texts = fresh.stream().map(Row::text).toList();
            return new Copy(state, grownIds, vectors.with(fresh.stream().map(Row::embedding).toArray(float[][]::new)),
                    allSeconds ? secondVectors.with(fresh.stream().map(Row::second).toArray(float[][]::new)) : null, grownLacksSecond,
                    grownSpeakers, grownHappened, grownForgottenAt, grownExpiresAt, grownValidTo, grownConversations,
                    words.with(texts), wordsInContext == null ? null : wordsInContext.with(fresh.stream().map(Row::inContext).toList()));
        }

        /**
         * This copy with the {@code edits} applied, at {@code state}: deleted memories left out, new texts and vectors
         * in place, the words indexes edited alike ({@link ScopeWords#edited}: what reading the scope again would give,
         * without reading it). A delete of a memory it does not hold (read after the delete) changes nothing. Null where it
         * cannot: a new text for a memory it does not hold, vectors of another size, or a scope without the second
         * model's list that would have it now (the last memory without a second vector got one or went: the copy does
         * not hold the others' to make the list).
         */
        Copy edited(List<Edit> edits, State state) {
            Map<Integer, Edit> replaced = new HashMap<>();
            Set<Integer> deleted = new HashSet<>();
            for (Edit edit : edits) { // in the order they were written; a later edit of a memory wins
                Integer position = positions.get(edit.id());
                if (position == null) {
                    if (edit.deletes()) {
                        continue;
                    }
                    return null;
                }
                if (edit.deletes()) {
                    deleted.add(position);
                    replaced.remove(position);
                } else if (!deleted.contains(position)) {
                    replaced.put(position, edit);
                }
            }
            if (replaced.values().stream().anyMatch(edit -> edit.embedding().length != vectors.dimension())) {
                return null;
            }
            int[] kept = IntStream.range(0, ids.length).filter(i -> !deleted.contains(i)).toArray();
            String[] keptIds = new String[kept.length];
            String[] keptSpeakers = new String[kept.length];
            long[] keptHappened = new long[kept.length];
            long[] keptForgottenAt = new long[kept.length];
            long[] keptExpiresAt = new long[kept.length];
            long[] keptValidTo = new long[kept.length];
            List<List<String>> keptConversations = new ArrayList<>(kept.length);
            List<String> inContext = new ArrayList<>(kept.length);
            Map<Integer, float[]> embeddings = new HashMap<>();
            Map<Integer, float[]> seconds = new HashMap<>();
            Map<Integer, String> newTexts = new HashMap<>();
            Map<Integer, String> newInContext = new HashMap<>();
            boolean[] keptLacksSecond = new boolean[kept.length];
            boolean allSeconds = secondVectors != null;
            boolean anyLacking = false;
            boolean anyContext = false;
            for (int k = 0; k < kept.length; k++) {
                int i = kept[k];
                keptIds[k] = ids[i];
                keptSpeakers[k] = speakers[i];
                keptHappened[k] = happened[i];
                keptForgottenAt[k] = forgottenAt[i];
                keptExpiresAt[k] = expiresAt[i];
                keptValidTo[k] = validTo[i];
                keptConversations.add(conversations.get(i));
                Edit edit = replaced.get(i);
                String text = edit == null ? words.text(i) : edit.text();
                String said = edit == null ? (wordsInContext == null ? text : wordsInContext.text(i)) : edit.inContext();
                inContext.add(said);
                anyContext |= !said.equals(text);
                if (edit != null) {
                    newTexts.put(i, text);
                    newInContext.put(i, said);
                    embeddings.put(i, edit.embedding());
                    allSeconds &= edit.second() != null && secondVectors != null && edit.second().length == secondVectors.dimension();
                    seconds.put(i, edit.second());
                }
                keptLacksSecond[k] = edit == null ? lacksSecond[i] : edit.second() == null;
                anyLacking |= keptLacksSecond[k];
            }
            if (secondVectors == null && !anyLacking) {
                return null; // read afresh, the scope would have the second model's list now
            }
            // the words of the memories left are not read again; a scope's first context makes its words in context afresh
            ScopeWords keptWordsInContext = !anyContext ? null
                    : wordsInContext == null ? ScopeWords.of(inContext, words.stemming()) : wordsInContext.edited(kept, newInContext);
            return new Copy(state, keptIds, vectors.select(kept, embeddings), allSeconds ? secondVectors.select(kept, seconds) : null,
                    keptLacksSecond, keptSpeakers, keptHappened, keptForgottenAt, keptExpiresAt, keptValidTo, keptConversations,
                    words.edited(kept, newTexts), keptWordsInContext);
        }

        /**
         * This copy caught up, at {@code state}, with the memories deleted since its own state ({@code gone}, first: a
         * memory deleted and then added again under its id is new) and those written since ({@code read}, as stored now):
         * new memories added, new texts with their vectors in place, forgets and ends of validity set. Null where it
         * cannot: a memory it holds with another speaker, time, expiry or conversation (no write changes those), or where
         * {@link #edited} or {@link #with} cannot. A new vector with the same text (no write of the store gives one) is not
         * looked for.
         */
        Copy caughtUp(List<Copied> read, List<String> gone, State state) {
            Copy left = gone.isEmpty() ? this : edited(gone.stream().map(Edit::deleted).toList(), state);
            return left == null ? null : left.caughtUpWith(read, state);
        }

        private Copy caughtUpWith(List<Copied> read, State state) {
            List<Row> fresh = new ArrayList<>();
            List<Mark> marks = new ArrayList<>();
            List<Edit> edits = new ArrayList<>();
            for (Copied copied : read) {
                Row row = copied.row();
                Integer position = positions.get(row.id());
                if (position == null) {
                    fresh.add(row);
                } else {
                    if (!Objects.equals(speakers[position], row.speaker()) || happened[position] != row.happened()
                            || expiresAt[position] != orNone(row.expiresAt()) || !conversations.get(position).equals(row.conversations())) {
                        return null;
                    }
                    String held = words.text(position);
                    String heldInContext = wordsInContext == null ? held : wordsInContext.text(position);
                    if (!held.equals(row.text()) || !heldInContext.equals(row.inContext())) {
                        edits.add(new Edit(row.id(), row.text(), row.context(), row.embedding(), row.second()));
                    }
                }
                marks.add(new Mark(row.id(), Mark.Time.FORGOTTEN, copied.forgottenAt()));
                marks.add(new Mark(row.id(), Mark.Time.VALID_TO, copied.validTo()));
            }
            Copy edited = edits.isEmpty() ? this : edited(edits, state);
            return edited == null ? null : edited.with(fresh, marks, state);
        }

        private static long orNone(Long value) {
            return value == null ? NONE : value;
        }

        String version() {
            return state.version();
        }

        State state() {
            return state;
        }

        int size() {
            return ids.length;
        }

        void touch() {
            lastUsed = System.nanoTime();
        }

        /** Every memory's similarity to the query ({@code (1 + cos) / 2}), computed once for all of a search's lists. */
        double[] similarities(float[] query) {
            return vectors.similarities(query);
        }

        /** The {@code k} best memories passing the filter: similarity plus the conversation boost, ties by id. */
        List<Scored> nearest(double[] similarities, Filter filter, int k) {
            return best(similarities, filter, k, false);
        }

        /**
         * The {@code k} best memories passing the filter by the second model's similarity to its
         * query vector, as {@link #nearest}; null when some memory of the scope has no second vector
         * (the list would leave it out unfairly) or the query's vector has another size.
         */
        List<Scored> nearestBySecond(float[] query, Filter filter, int k) {
            if (secondVectors == null || query.length != secondVectors.dimension()) {
                return null;
            }
            return best(secondVectors.similarities(query), filter, k, false);
        }

        /** The vectors of the memories {@code wanted} this copy holds, by id ({@link MemoryScopeCopies#vectors}). */
        Map<String, MemoryEmbeddings.Vectors> vectorsOf(Collection<String> wanted) {
            Map<String, MemoryEmbeddings.Vectors> found = new HashMap<>();
            for (String id : wanted) {
                Integer position = positions.get(id);
                if (position != null) {
                    found.put(id, new MemoryEmbeddings.Vectors(vectors.vector(position),
                            secondVectors == null ? null : secondVectors.vector(position)));
                }
            }
            return found;
        }

        /** Positions of the given ids in this copy (ids not in it are skipped). */
        List<Integer> positions(List<String> wanted) {
            List<Integer> found = new ArrayList<>();
            for (String id : wanted) {
                Integer position = positions.get(id);
                if (position != null) {
                    found.add(position);
                }
            }
            return found;
        }

        /** When the memory with this id happened (its occurredAt, else its creation; null: not in this copy). */
        Long happenedAt(String id) {
            Integer position = positions.get(id);
            return position == null ? null : happened[position];
        }

        /** Who said the memory with this id (null: no speaker, or not in this copy). */
        String speakerOf(String id) {
            Integer position = positions.get(id);
            return position == null ? null : speakers[position];
        }

        /** What the memories at {@code positions} are about beyond the {@code known} words ({@link ScopeWords#feedbackTerms}). */
        List<String> feedbackTerms(List<Integer> positions, int count, List<String> known) {
            return words.feedbackTerms(positions, count, known);
        }

        /** The {@code k} best memories by BM25 over the scope's own texts ({@link ScopeWords}), as {@link #nearest}; only those holding a term. */
        /** Whether the query's words say nothing of the scope's memories ({@link ScopeWords#sayNothing}). */
        boolean wordsSayNothing(List<String> terms) {
            return words.sayNothing(terms);
        }

        List<Scored> bestByWords(List<String> terms, Filter filter, int k) {
            return best(words.scores(terms), filter, k, true);
        }

        /**
         * {@link #bestByWords} over each memory's context (the turn before a reply) and text together; null when no
         * memory of the scope has a context.
         */
        List<Scored> bestByWordsInContext(List<String> terms, Filter filter, int k) {
            return wordsInContext == null ? null : best(wordsInContext.scores(terms), filter, k, true);
        }

        private List<Scored> best(double[] scores, Filter filter, int k, boolean matchedOnly) {
            Comparator<Scored> better = Comparator.comparingDouble(Scored::score).reversed().thenComparing(Scored::id);
            PriorityQueue<Scored> best = new PriorityQueue<>(better.reversed()); // the worst kept one on top
            // a boost only raises a score: a memory below the worst kept one, boost and all, is passed over before anything
            // else is looked at (at 10,000 memories most are, and a scan then costs little more than the scores)
            double maxBoost = filter.conversationId() == null ? 0 : Math.max(0, filter.boost());
            for (int i = 0; i < ids.length && k > 0; i++) {
                if (matchedOnly && scores[i] <= 0 || best.size() == k && scores[i] + maxBoost < best.peek().score()) {
                    continue;
                }
                if (passes(i, filter)) {
                    double boost = filter.conversationId() != null && conversations.get(i).contains(filter.conversationId()) ? filter.boost() : 0;
                    Scored scored = new Scored(ids[i], scores[i] + boost);
                    if (best.size() < k) {
                        best.add(scored);
                    } else if (better.compare(scored, best.peek()) < 0) {
                        best.poll();
                        best.add(scored);
                    }
                }
            }
            List<Scored> sorted = new ArrayList<>(best);
            sorted.sort(better);
            return sorted;
        }

        private boolean passes(int i, Filter filter) {
            long now = filter.now();
            return (filter.allowed() == null || filter.allowed().contains(ids[i]))
                    && (filter.includeForgotten() || forgottenAt[i] == NONE)
                    && (expiresAt[i] == NONE || expiresAt[i] > now)
                    && (filter.speaker() == null || Objects.equals(filter.speaker(), speakers[i]))
                    && (filter.after() == null || happened[i] >= filter.after())
                    && (filter.before() == null || happened[i] < filter.before())
                    && (filter.asOf() == null
                        ? validTo[i] == NONE || validTo[i] > now
                        : happened[i] <= filter.asOf() && (validTo[i] == NONE || validTo[i] > filter.asOf()));
        }
    }
}
