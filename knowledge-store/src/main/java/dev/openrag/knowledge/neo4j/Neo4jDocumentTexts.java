package dev.openrag.knowledge.neo4j;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Session;
import org.neo4j.driver.Value;

import dev.openrag.knowledge.browse.ChunkPlace;
import dev.openrag.knowledge.browse.DocumentText;
import dev.openrag.knowledge.port.ChunkLookup;
import dev.openrag.knowledge.port.DocumentTexts;
import dev.openrag.schemas.Heading;
import dev.openrag.schemas.Page;

/**
 * Texts as {@code (:DocumentText {uid})} nodes beside the document's (same uid, unique), their lists
 * as parallel arrays; removed by {@link #delete} (the delete sink calls it beside {@link Neo4jGraphStore#deleteDocument}). Each node
 * holds {@code arrivedAt}, the time of the version it holds; a write is a conditional update in one
 * statement that takes the node's write lock before its check, so two sink instances cannot interleave a check and a write. A deleted document's node
 * stays as a tombstone ({@code deleted: true}, no text) with the delete's time, read as no text.
 *
 * <p>Each chunk's place ({@link ChunkPlace}) is a {@code (:ChunkPlace {key: uid#index})} node written
 * and removed in the same transaction as its text; {@code t.placesVersion} names the version they
 * belong to (absent on a text written before places were, which {@link #placeMissing} fills in), and
 * {@code t.placesComplete} is true where they are every chunk's of that version, those elsewhere
 * ({@link DocumentText#elsewhere}, kept on the text too) included; false where {@link #placeMissing}
 * could not tell (a later one tries again), absent on a text written before chunks elsewhere were placed.
 */
public final class Neo4jDocumentTexts implements DocumentTexts {

    private final Driver driver;

    public Neo4jDocumentTexts(Driver driver) {
        this.driver = driver;
    }

    @Override
    public boolean put(DocumentText text, long arrivedAt) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("arrivedAt", arrivedAt);
        params.put("uid", Neo4jGraphStore.documentUid(text.collection(), text.documentId()));
        params.put("collection", text.collection());
        params.put("documentId", text.documentId());
        params.put("version", text.version());
        params.put("text", text.text());
        putPages(params, text.pages());
        putHeadings(params, text.headings());
        params.put("chunkIndexes", text.chunks().stream().map(DocumentText.ChunkSpan::index).toList());
        params.put("chunkStarts", text.chunks().stream().map(DocumentText.ChunkSpan::start).toList());
        params.put("chunkEnds", text.chunks().stream().map(DocumentText.ChunkSpan::end).toList());
        putElsewhere(params, text.elsewhere());
        params.put("placesComplete", text.knowsEveryChunk() ? true : null); // not known: left to a reindex to find out
        List<Map<String, Object>> places = text.places().stream().map(Neo4jDocumentTexts::placeRow).toList();
        try (Session session = driver.session()) {
            // a text stored before versions were (no arrivedAt) is replaced; a tombstone of the same instant wins
            return session.executeWrite(tx -> placed(tx, lockText(tx, params).run("""
                    MERGE (t:DocumentText {uid: $uid})
                    SET t._lock = true
                    WITH t WHERE t.arrivedAt IS NULL OR t.arrivedAt < $arrivedAt OR (t.arrivedAt = $arrivedAt AND t.deleted IS NULL)
                    SET t.collection = $collection, t.documentId = $documentId, t.version = $version, t.text = $text,
                        t.arrivedAt = $arrivedAt, t.deleted = null,
                        t.pageNumbers = $pageNumbers, t.pageStarts = $pageStarts, t.pageEnds = $pageEnds,
                        t.headingLevels = $headingLevels, t.headingTexts = $headingTexts, t.headingOffsets = $headingOffsets,
                        t.chunkIndexes = $chunkIndexes, t.chunkStarts = $chunkStarts, t.chunkEnds = $chunkEnds,
                        t.elsewhereIndexes = $elsewhereIndexes, t.elsewhereHashes = $elsewhereHashes,
                        t.placesVersion = $version, t.placesComplete = $placesComplete
                    RETURN count(t) AS written""", params).single().get("written").asLong() > 0, params, places));
        }
    }

    /**
     * Takes the text node's write lock (made where there is none) before a conditional write: a tombstone sweep that
     * removed the node while this waited for its lock leaves a node that is gone, whose writes Neo4j drops without a
     * word, so the node is looked up again in a statement of its own and made anew when it is gone.
     */
    private static org.neo4j.driver.TransactionContext lockText(org.neo4j.driver.TransactionContext tx, Map<String, Object> params) {
        Map<String, Object> uid = Map.of("uid", params.get("uid"));
        tx.run("MERGE (t:DocumentText {uid: $uid}) SET t._lock = true", uid).consume();
        if (tx.run("MATCH (t:DocumentText {uid: $uid}) RETURN count(t) AS n", uid).single().get("n").asLong() == 0) {
            tx.run("MERGE (t:DocumentText {uid: $uid}) SET t._lock = true", uid).consume();
        }
        return tx;
    }

    /** Places written per statement: a long document's thousands of chunks go in a few round trips, one transaction. */
    private static final int PLACES_PER_WRITE = 2_000;

    /** Ends a conditional text write: where it was written, its places replace the old version's, in the same transaction. */
    private static boolean placed(org.neo4j.driver.TransactionContext tx, boolean written, Map<String, Object> params,
                                  List<Map<String, Object>> places) {
        if (written) {
            tx.run("MATCH (p:ChunkPlace {uid: $uid}) DELETE p", Map.of("uid", params.get("uid"))).consume();
            for (int from = 0; from < places.size(); from += PLACES_PER_WRITE) {
                tx.run("UNWIND $rows AS row MERGE (p:ChunkPlace {key: row.key}) SET p = row",
                        Map.of("rows", places.subList(from, Math.min(places.size(), from + PLACES_PER_WRITE)))).consume();
            }
        }
        return written(tx, written, params);
    }

    /** Pages as the parallel lists a text and a place store them in. */
    private static void putPages(Map<String, Object> params, List<Page> pages) {
        params.put("pageNumbers", pages.stream().map(Page::page).toList());
        params.put("pageStarts", pages.stream().map(Page::start).toList());
        params.put("pageEnds", pages.stream().map(Page::end).toList());
    }

    /** Headings as the parallel lists a text and a place store them in. */
    private static void putHeadings(Map<String, Object> params, List<Heading> headings) {
        params.put("headingLevels", headings.stream().map(Heading::level).toList());
        params.put("headingTexts", headings.stream().map(Heading::text).toList());
        params.put("headingOffsets", headings.stream().map(Heading::offset).toList());
    }

    /** The chunks elsewhere as the parallel lists a text stores them in, and whether its places are every chunk's (null lists: not known). */
    private static void putElsewhere(Map<String, Object> params, List<DocumentText.Elsewhere> elsewhere) {
        params.put("elsewhereIndexes", elsewhere == null ? null : elsewhere.stream().map(DocumentText.Elsewhere::index).toList());
        params.put("elsewhereHashes", elsewhere == null ? null : elsewhere.stream().map(DocumentText.Elsewhere::textHash).toList());
        params.put("placesComplete", elsewhere != null);
    }

    private static Map<String, Object> placeRow(ChunkPlace place) {
        String uid = Neo4jGraphStore.documentUid(place.collection(), place.documentId());
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("key", uid + "#" + place.index());
        row.put("uid", uid);
        row.put("index", place.index());
        row.put("version", place.version());
        row.put("start", place.start());
        row.put("end", place.end());
        row.put("textHash", place.textHash());
        putPages(row, place.pages());
        row.put("lastPage", place.lastPage());
        putHeadings(row, place.headings());
        return row;
    }

    @Override
    public void delete(String collection, String documentId, long deletedAt) {
        Map<String, Object> params = Map.of("uid", Neo4jGraphStore.documentUid(collection, documentId), "collection", collection,
                "documentId", documentId, "deletedAt", deletedAt);
        try (Session session = driver.session()) {
            session.executeWrite(tx -> placed(tx, lockText(tx, params).run("""
                    MERGE (t:DocumentText {uid: $uid})
                    SET t._lock = true
                    WITH t WHERE t.arrivedAt IS NULL OR t.arrivedAt <= $deletedAt
                    SET t.collection = $collection, t.documentId = $documentId, t.arrivedAt = $deletedAt, t.deleted = true,
                        t.version = null, t.text = null, t.pageNumbers = null, t.pageStarts = null, t.pageEnds = null,
                        t.headingLevels = null, t.headingTexts = null, t.headingOffsets = null,
                        t.chunkIndexes = null, t.chunkStarts = null, t.chunkEnds = null,
                        t.elsewhereIndexes = null, t.elsewhereHashes = null, t.placesVersion = null, t.placesComplete = null
                    RETURN count(t) AS written""", params).single().get("written").asLong() > 0, params, List.of()));
        }
    }

    /**
     * As {@link Neo4jDocumentMetadata#sweepDeletes}: one transaction that finds and write-locks the old tombstones,
     * then removes those that still are old tombstones, in a statement of its own; a re-upload's text written between
     * the two (the node no longer a tombstone) stays.
     */
    @Override
    public int sweepTombstones(long before, int limit) {
        if (limit <= 0) {
            return 0;
        }
        try (Session session = driver.session()) {
            return session.executeWrite(tx -> {
                List<String> locked = tx.run("""
                        MATCH (t:DocumentText)
                        WHERE t.deleted = true AND t.arrivedAt < $before
                        WITH t LIMIT $limit
                        SET t._lock = true
                        RETURN t.uid AS uid""", Map.of("before", before, "limit", limit)).list(r -> r.get("uid").asString());
                if (locked.isEmpty()) {
                    return 0;
                }
                int removed = tx.run("""
                        UNWIND $uids AS uid
                        MATCH (t:DocumentText {uid: uid})
                        WHERE t.deleted = true AND t.arrivedAt < $before
                        DETACH DELETE t
                        RETURN count(*) AS removed""", Map.of("uids", locked, "before", before)).single().get("removed").asInt();
                tx.run("UNWIND $uids AS uid MATCH (t:DocumentText {uid: uid}) REMOVE t._lock", Map.of("uids", locked)).consume();
                return removed;
            });
        }
    }

    /**
     * Ends a conditional write begun with {@code SET t._lock = true}: that write takes the node's
     * write lock before its condition reads the stored time, so a text write and a delete (or two
     * writes) of one document on different consumers cannot both pass their checks on the same old
     * time and the later commit win whatever its time (a lost update: a late write after a delete
     * bringing text back). The marker goes in the same transaction; nothing else reads it.
     */
    private static boolean written(org.neo4j.driver.TransactionContext tx, boolean written, Map<String, Object> params) {
        tx.run("MATCH (t:DocumentText {uid: $uid}) REMOVE t._lock", Map.of("uid", params.get("uid"))).consume();
        return written;
    }

    /** Between rebuilt chunks: a blank line, so no chunk's span runs into the next one's. */
    static final String REBUILT_SEPARATOR = "\n\n";

    /** Documents rebuilt per read: a huge collection's chunk texts are never all held at once. */
    static final int REBUILD_BATCH = 100;

    /**
     * The text is the chunks' texts in order, a blank line between them (overlapping chunks repeat
     * their overlap), stored as arrived at 0 so that any version the pipeline writes replaces it.
     */
    @Override
    public List<String> rebuildMissing(String collection) {
        return rebuildMissing(collection, REBUILD_BATCH);
    }

    /** {@link #rebuildMissing(String)}, reading {@code batch} documents' chunks at a time, in document id order. */
    public List<String> rebuildMissing(String collection, int batch) {
        List<String> rebuilt = new ArrayList<>();
        String after = "";
        while (true) {
            String from = after;
            List<String> documentIds;
            List<Record> rows;
            try (Session session = driver.session()) {
                documentIds = session.executeRead(tx -> tx.run("""
                        MATCH (d:Document {collection: $collection})
                        WHERE d.documentId > $after
                          AND NOT EXISTS { MATCH (t:DocumentText {uid: d.uid}) WHERE t.deleted IS NULL }
                        RETURN d.documentId AS documentId ORDER BY documentId LIMIT $batch""",
                        Map.of("collection", collection, "after", from, "batch", batch)).list(row -> row.get("documentId").asString()));
                if (documentIds.isEmpty()) {
                    return rebuilt;
                }
                rows = session.executeRead(tx -> tx.run("""
                        MATCH (d:Document {collection: $collection}) WHERE d.documentId IN $documentIds
                        MATCH (ch:Chunk {collection: $collection, documentId: d.documentId})
                        WITH d, ch ORDER BY ch.chunkIndex
                        RETURN d.documentId AS documentId, d.contentHash AS version,
                               collect(ch.chunkIndex) AS indexes, collect(ch.text) AS texts
                        ORDER BY documentId""", Map.of("collection", collection, "documentIds", documentIds)).list());
            }
            for (Record row : rows) {
                rebuild(collection, row).ifPresent(rebuilt::add);
            }
            after = documentIds.get(documentIds.size() - 1);
        }
    }

    /** One document's text from its chunks' texts; its id when written (a version the pipeline wrote meanwhile wins). */
    private Optional<String> rebuild(String collection, Record row) {
        List<Integer> indexes = row.get("indexes").asList(Value::asInt);
        List<String> chunkTexts = row.get("texts").asList(value -> value.isNull() ? "" : value.asString());
        StringBuilder text = new StringBuilder();
        List<DocumentText.ChunkSpan> spans = new ArrayList<>();
        for (int i = 0; i < indexes.size(); i++) {
            if (i > 0) {
                text.append(REBUILT_SEPARATOR);
            }
            spans.add(new DocumentText.ChunkSpan(indexes.get(i), text.length(), text.length() + chunkTexts.get(i).length()));
            text.append(chunkTexts.get(i));
        }
        String documentId = row.get("documentId").asString();
        String version = row.get("version").isNull() ? "rebuilt" : row.get("version").asString();
        return put(new DocumentText(collection, documentId, version, text.toString(), List.of(), List.of(), spans), 0)
                ? Optional.of(documentId) : Optional.empty();
    }

    /** Texts read per batch by {@link #placeMissing}: each may be long. */
    static final int PLACE_BATCH = 10;

    /**
     * The next texts to place, in document id order after {@code $after}: read through the index on
     * (collection, documentId) from {@code $after} on, in its order, so that each batch reads only the
     * texts up to its last one, never the whole collection's.
     */
    static final String UNPLACED = """
            MATCH (t:DocumentText)
            USING INDEX t:DocumentText(collection, documentId)
            WHERE t.collection = $collection AND t.documentId > $after AND t.deleted IS NULL
              AND NOT coalesce(t.placesVersion = t.version AND t.placesComplete, false)
            WITH t ORDER BY t.collection, t.documentId LIMIT $batch
            RETURN t"""; // the collection is one: the order is the index's own, so no sort; the "not placed" test is one
                         // expression, as an OR of its cases let the planner seek the index once per case and sort the union

    @Override
    public List<String> placeMissing(String collection) {
        List<String> placed = new ArrayList<>();
        String after = "";
        while (true) {
            String from = after;
            List<DocumentText> batch;
            try (Session session = driver.session()) {
                batch = session.executeRead(tx -> tx.run(UNPLACED, Map.of("collection", collection, "after", from, "batch", PLACE_BATCH))
                        .list(row -> text(row.get("t"))));
            }
            if (batch.isEmpty()) {
                return placed;
            }
            Map<String, List<DocumentText.Elsewhere>> elsewhere = storedElsewhere(collection,
                    batch.stream().filter(text -> !text.knowsEveryChunk()).toList());
            for (DocumentText read : batch) {
                DocumentText text = read.knowsEveryChunk() ? read : new DocumentText(collection, read.documentId(), read.version(),
                        read.text(), read.pages(), read.headings(), read.chunks(), elsewhere.get(read.documentId()));
                Map<String, Object> params = new LinkedHashMap<>();
                params.put("uid", Neo4jGraphStore.documentUid(collection, text.documentId()));
                params.put("version", text.version());
                putElsewhere(params, text.elsewhere());
                List<Map<String, Object>> places = text.places().stream().map(Neo4jDocumentTexts::placeRow).toList();
                try (Session session = driver.session()) {
                    // only the version read, and only while its places are not all there: a text written meanwhile
                    // came with its own places, and may be another text of the same version (one rebuilt from chunks);
                    // one already placed as not knowing its chunks elsewhere only once they are known (placed=N counts it once)
                    if (session.executeWrite(tx -> placed(tx, tx.run("""
                            MATCH (t:DocumentText {uid: $uid})
                            SET t._lock = true
                            WITH t WHERE t.version = $version AND t.deleted IS NULL
                                AND (t.placesVersion IS NULL OR t.placesVersion <> $version OR t.placesComplete IS NULL
                                     OR (t.placesComplete = false AND $placesComplete))
                            SET t.placesVersion = $version, t.placesComplete = $placesComplete,
                                t.elsewhereIndexes = $elsewhereIndexes, t.elsewhereHashes = $elsewhereHashes
                            RETURN count(t) AS written""", params).single().get("written").asLong() > 0, params, places))) {
                        placed.add(text.documentId());
                    }
                }
            }
            after = batch.get(batch.size() - 1).documentId();
        }
    }

    /**
     * The chunks elsewhere of texts stored before they were kept, by document id: the stored chunks of a
     * document whose stored version is the text's, less those the text has a span for or holds elsewhere than
     * at their offsets (those get no place, as {@code TextSink} gives them none). A text whose
     * document holds another version (or none) is left out: which of its chunks lie elsewhere is not known.
     */
    private Map<String, List<DocumentText.Elsewhere>> storedElsewhere(String collection, List<DocumentText> texts) {
        Map<String, List<DocumentText.Elsewhere>> found = new LinkedHashMap<>();
        if (texts.isEmpty()) {
            return found;
        }
        List<Map<String, Object>> asked = texts.stream().map(text -> Map.<String, Object>of(
                "uid", Neo4jGraphStore.documentUid(collection, text.documentId()), "version", text.version(),
                "located", text.chunks().stream().map(DocumentText.ChunkSpan::index).toList())).toList();
        try (Session session = driver.session()) {
            List<Record> rows = session.executeRead(tx -> tx.run("""
                    UNWIND $asked AS asked
                    MATCH (d:Document {uid: asked.uid}) WHERE d.contentHash = asked.version
                    OPTIONAL MATCH (ch:Chunk {collection: $collection, documentId: d.documentId}) WHERE NOT ch.chunkIndex IN asked.located
                    RETURN d.documentId AS documentId, [c IN collect(ch) | {index: c.chunkIndex, text: coalesce(c.text, '')}] AS chunks""",
                    Map.of("collection", collection, "asked", asked)).list());
            Map<String, String> held = new LinkedHashMap<>();
            texts.forEach(text -> held.put(text.documentId(), text.text()));
            for (Record row : rows) {
                String documentId = row.get("documentId").asString();
                List<DocumentText.Elsewhere> elsewhere = new ArrayList<>();
                for (Value chunk : row.get("chunks").values()) {
                    String chunkText = chunk.get("text").asString();
                    if (held.get(documentId).indexOf(chunkText) < 0) { // one the text holds, not at its offsets, gets no place (as TextSink)
                        elsewhere.add(new DocumentText.Elsewhere(chunk.get("index").asInt(), ChunkPlace.hash(chunkText)));
                    }
                }
                found.put(documentId, elsewhere);
            }
        }
        return found;
    }

    /**
     * One round trip, and no text read: each document's version and whether its places are of that
     * version, with the places asked for (those of another version are left out), and the document's
     * metadata as {@link Neo4jDocumentMetadata} keeps it on the Document node of the same uid.
     */
    @Override
    public Places places(String collection, Collection<ChunkLookup.ChunkKey> chunks) {
        Map<String, List<String>> keysByUid = new LinkedHashMap<>();
        Map<String, String> documentIds = new LinkedHashMap<>();
        for (ChunkLookup.ChunkKey chunk : chunks) {
            String uid = Neo4jGraphStore.documentUid(collection, chunk.documentId());
            documentIds.put(uid, chunk.documentId());
            keysByUid.computeIfAbsent(uid, key -> new ArrayList<>()).add(uid + "#" + chunk.chunkIndex());
        }
        List<Map<String, Object>> asked = keysByUid.entrySet().stream().map(entry -> Map.<String, Object>of("uid", entry.getKey(),
                "documentId", documentIds.get(entry.getKey()), "keys", entry.getValue())).toList();
        Map<String, Kept> documents = new LinkedHashMap<>();
        Map<ChunkLookup.ChunkKey, ChunkPlace> places = new LinkedHashMap<>();
        Map<String, Map<String, Object>> metadata = new LinkedHashMap<>();
        if (asked.isEmpty()) {
            return new Places(documents, places, metadata);
        }
        try (Session session = driver.session()) {
            // an auto-commit read (one round trip, where a managed transaction takes more), each node by its unique uid or key:
            // the document's metadata beside its text's places, as a search's hits need both
            List<Record> rows = session.run("""
                    UNWIND $asked AS asked
                    OPTIONAL MATCH (d:Document {uid: asked.uid})
                    OPTIONAL MATCH (t:DocumentText {uid: asked.uid}) WHERE t.deleted IS NULL
                    OPTIONAL MATCH (p:ChunkPlace) WHERE p.key IN asked.keys AND p.version = t.version
                    RETURN asked.documentId AS documentId, d.%s AS metadata, t.version AS version,
                           t.placesVersion AS placesVersion, t.placesComplete AS placesComplete, collect(p) AS places"""
                    .formatted(MetadataCypher.JSON_PROPERTY), Map.of("asked", asked)).list();
            for (Record row : rows) {
                String documentId = row.get("documentId").asString();
                if (!row.get("metadata").isNull()) {
                    metadata.put(documentId, Neo4jDocumentMetadata.fromJson(row.get("metadata").asString()));
                }
                if (row.get("version").isNull()) {
                    continue; // no text kept
                }
                String version = row.get("version").asString();
                boolean placed = version.equals(row.get("placesVersion").asString(null));
                documents.put(documentId, new Kept(version, placed, placed && row.get("placesComplete").asBoolean(false)));
                for (Value p : row.get("places").values()) {
                    ChunkPlace place = place(collection, documentId, p);
                    places.put(new ChunkLookup.ChunkKey(documentId, place.index()), place);
                }
            }
        }
        return new Places(documents, places, metadata);
    }

    private static ChunkPlace place(String collection, String documentId, Value p) {
        List<Integer> numbers = ints(p, "pageNumbers");
        List<Integer> starts = ints(p, "pageStarts");
        List<Integer> ends = ints(p, "pageEnds");
        List<Page> pages = new ArrayList<>();
        for (int i = 0; i < numbers.size(); i++) {
            pages.add(new Page(numbers.get(i), starts.get(i), ends.get(i)));
        }
        return new ChunkPlace(collection, documentId, p.get("version").asString(), p.get("index").asInt(), p.get("start").asInt(),
                p.get("end").asInt(), p.get("textHash").asString(null), pages, p.get("lastPage").isNull() ? null : p.get("lastPage").asInt(),
                headings(p));
    }

    @Override
    public Optional<DocumentText> get(String collection, String documentId) {
        return Optional.ofNullable(getAll(collection, List.of(documentId)).get(documentId));
    }

    @Override
    public Map<String, DocumentText> getAll(String collection, Collection<String> documentIds) {
        List<String> uids = documentIds.stream().distinct().map(id -> Neo4jGraphStore.documentUid(collection, id)).toList();
        Map<String, DocumentText> texts = new LinkedHashMap<>();
        if (uids.isEmpty()) {
            return texts;
        }
        try (Session session = driver.session()) {
            List<Record> rows = session.executeRead(tx -> tx.run("MATCH (t:DocumentText) WHERE t.uid IN $uids AND t.deleted IS NULL RETURN t",
                    Map.of("uids", uids)).list());
            for (Record row : rows) {
                DocumentText text = text(row.get("t"));
                texts.put(text.documentId(), text);
            }
        }
        return texts;
    }

    private static DocumentText text(Value t) {
        return new DocumentText(t.get("collection").asString(), t.get("documentId").asString(),
                t.get("version").asString(), t.get("text").asString(), pages(t), headings(t), chunks(t), elsewhere(t));
    }

    /** The chunks elsewhere a text keeps, where its places are known to be every chunk's; null otherwise. */
    private static List<DocumentText.Elsewhere> elsewhere(Value t) {
        if (!t.get("placesComplete").asBoolean(false)) {
            return null;
        }
        List<Integer> indexes = ints(t, "elsewhereIndexes");
        List<String> hashes = t.get("elsewhereHashes").isNull() ? List.of() : t.get("elsewhereHashes").asList(Value::asString);
        List<DocumentText.Elsewhere> elsewhere = new ArrayList<>();
        for (int i = 0; i < indexes.size(); i++) {
            elsewhere.add(new DocumentText.Elsewhere(indexes.get(i), hashes.get(i)));
        }
        return elsewhere;
    }

    private static List<Page> pages(Value t) {
        List<Integer> numbers = ints(t, "pageNumbers");
        List<Integer> starts = ints(t, "pageStarts");
        List<Integer> ends = ints(t, "pageEnds");
        List<Page> pages = new ArrayList<>();
        for (int i = 0; i < numbers.size(); i++) {
            pages.add(new Page(numbers.get(i), starts.get(i), ends.get(i)));
        }
        return pages;
    }

    private static List<Heading> headings(Value t) {
        List<Integer> levels = ints(t, "headingLevels");
        List<String> texts = t.get("headingTexts").isNull() ? List.of() : t.get("headingTexts").asList(Value::asString);
        List<Integer> offsets = ints(t, "headingOffsets");
        List<Heading> headings = new ArrayList<>();
        for (int i = 0; i < levels.size(); i++) {
            headings.add(new Heading(levels.get(i), texts.get(i), offsets.get(i)));
        }
        return headings;
    }

    private static List<DocumentText.ChunkSpan> chunks(Value t) {
        List<Integer> indexes = ints(t, "chunkIndexes");
        List<Integer> starts = ints(t, "chunkStarts");
        List<Integer> ends = ints(t, "chunkEnds");
        List<DocumentText.ChunkSpan> spans = new ArrayList<>();
        for (int i = 0; i < indexes.size(); i++) {
            spans.add(new DocumentText.ChunkSpan(indexes.get(i), starts.get(i), ends.get(i)));
        }
        return spans;
    }

    private static List<Integer> ints(Value node, String key) {
        Value value = node.get(key);
        return value.isNull() ? List.of() : value.asList(Value::asInt);
    }
}
