package dev.openrag.knowledge.opensearch;


import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.opensearch.client.json.JsonData;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch._types.FieldValue;
import org.opensearch.client.opensearch._types.HealthStatus;
import org.opensearch.client.opensearch._types.Refresh;
import org.opensearch.client.opensearch._types.query_dsl.Query;
import org.opensearch.client.opensearch._types.query_dsl.TextQueryType;
import org.opensearch.client.opensearch.core.BulkResponse;
import org.opensearch.client.opensearch.core.SearchResponse;
import org.opensearch.client.opensearch.core.bulk.BulkOperation;
import org.opensearch.client.opensearch.core.search.Hit;

import dev.openrag.knowledge.filter.DocumentFilter;
import dev.openrag.knowledge.port.EngineUnavailableException;
import dev.openrag.knowledge.port.IndexedChunk;
import dev.openrag.knowledge.port.LexicalIndex;
import dev.openrag.knowledge.port.ScoredChunk;

/** {@link LexicalIndex} on OpenSearch: BM25 over chunk text, its context and title. */
public final class OpenSearchLexicalIndex implements LexicalIndex {

    /** Fields searched, with boosts: the chunk itself matters most, its context helps, identifiers split. */
    static final List<String> SEARCH_FIELDS = List.of(
            "text^2", "text.code^1.5", "context", "context.code", "title", "title.code", "headingPath");

    /** The fields of a chunk's document that a hit reads ({@link #fromDocument}). */
    static final List<String> HIT_FIELDS = List.of("documentId", "chunkId", "chunkIndex", "title", "sourceUri", "headingPath", "text",
            "context");

    /** What a hit without its text is made of, read from doc values (the chunk id is the hit's id). */
    private static final List<org.opensearch.client.opensearch._types.query_dsl.FieldAndFormat> DOC_VALUE_FIELDS = List.of(
            org.opensearch.client.opensearch._types.query_dsl.FieldAndFormat.of(f -> f.field("documentId")),
            org.opensearch.client.opensearch._types.query_dsl.FieldAndFormat.of(f -> f.field("chunkIndex")));

    private final OpenSearchClient client;
    private final Refresh refresh;
    /** Per collection, metadata fields known to be mapped (or allowed and being written): most writes add none, and read no mapping. */
    private final Map<String, java.util.Set<String>> knownFields = new java.util.concurrent.ConcurrentHashMap<>();
    /** Collections whose index was given its field limit by this instance (an index made before the limit lacks it). */
    private final java.util.Set<String> fieldLimitSet = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** @param refreshOnWrite true makes writes visible at once (tests, small imports); false batches refreshes */
    public OpenSearchLexicalIndex(OpenSearchClient client, boolean refreshOnWrite) {
        this.client = client;
        this.refresh = refreshOnWrite ? Refresh.True : Refresh.False;
    }

    @Override
    public void upsert(List<IndexedChunk> chunks) {
        if (chunks.isEmpty()) {
            return;
        }
        // one check per document version (its chunks share their metadata), before anything is written
        chunks.stream().map(chunk -> Map.entry(chunk.collection(), chunk.metadata())).distinct()
                .forEach(document -> reserveMetadataFields(document.getKey(), document.getValue()));
        List<BulkOperation> operations = new ArrayList<>();
        for (IndexedChunk chunk : chunks) {
            ChunkIndex.ensure(client, chunk.collection());
            operations.add(BulkOperation.of(op -> op.index(i -> i
                    .index(ChunkIndex.name(chunk.collection()))
                    .id(chunk.chunkId())
                    .document(document(chunk)))));
        }
        try {
            BulkResponse response = client.bulk(b -> b.operations(operations).refresh(refresh));
            if (response.errors()) {
                var failed = response.items().stream().filter(item -> item.error() != null).toList();
                String firstError = failed.isEmpty() ? "unknown" : failed.get(0).id() + ": " + failed.get(0).error().reason();
                // 429 (queue full), a read-only block and 5xx (shard not started yet after a restart) are
                // the engine's state, not the chunk's
                var outage = failed.stream().filter(item -> EngineUnavailableException.isOpenSearchOutage(item.status(),
                        item.error().type())).findFirst();
                if (outage.isPresent()) {
                    throw EngineUnavailableException.openSearch(outage.get().status(), outage.get().error().type(),
                            "OpenSearch could not take chunks yet, first: " + firstError, null);
                }
                throw new IllegalStateException("OpenSearch rejected chunks, first: " + firstError);
            }
        } catch (IOException e) {
            throw ChunkIndex.unreachable("indexing", e);
        }
    }

    @Override
    public void replaceDocument(String collection, String documentId, List<IndexedChunk> chunks) {
        upsert(chunks);
        try {
            if (!client.indices().exists(e -> e.index(ChunkIndex.name(collection))).value()) {
                return;
            }
            // chunk ids are deterministic: only chunks beyond the new count can be left over
            Query stale = Query.of(q -> q.bool(b -> b
                    .filter(f -> f.term(t -> t.field("documentId").value(FieldValue.of(documentId))))
                    .filter(f -> f.range(r -> r.field("chunkIndex").gte(JsonData.of(chunks.size()))))));
            // a count is cheap, delete-by-query is not: only delete when an older, longer version left chunks
            if (client.count(c -> c.index(ChunkIndex.name(collection)).query(stale)).count() > 0) {
                client.deleteByQuery(d -> d.index(ChunkIndex.name(collection)).refresh(refresh).query(stale));
            }
        } catch (IOException e) {
            throw ChunkIndex.unreachable("replacing " + documentId, e);
        }
    }

    /**
     * Updates a chunk that never exists: the write goes through the same checks as a document's
     * (blocks, the write queue) and, accepted, fails only for the missing chunk, changing nothing.
     * An update rather than an index request, so a missing index is not created by it.
     */
    @Override
    public boolean acceptsWrites(String collection) {
        String index = ChunkIndex.name(collection);
        try {
            if (!client.indices().exists(e -> e.index(index)).value()) {
                return false;
            }
            BulkResponse response = client.bulk(b -> b.operations(op -> op.update(u -> u.index(index).id(WRITE_PROBE_ID)
                    .document(Map.of("probe", true)))));
            for (var item : response.items()) {
                if (item.error() != null && EngineUnavailableException.isOpenSearchOutage(item.status(), item.error().type())) {
                    throw EngineUnavailableException.openSearch(item.status(), item.error().type(),
                            "OpenSearch refused a probe write: " + item.error().reason(), null);
                }
            }
            return true;
        } catch (IOException e) {
            throw ChunkIndex.unreachable("probing writes", e);
        }
    }

    /** No chunk has this id: chunk ids are document id and index. */
    static final String WRITE_PROBE_ID = "openrag-write-probe";

    @Override
    public List<ScoredChunk> search(String collection, String query, int k) {
        return search(collection, query, k, null);
    }

    @Override
    public List<ScoredChunk> search(String collection, String query, int k, DocumentFilter filter) {
        List<ScoredChunk> results = new ArrayList<>();
        // only what a hit is made of: a chunk's document metadata (meta_*) would travel with each of the k hits
        for (Hit<Map> hit : search(collection, query, k, filter, s -> s.source(src -> src.filter(f -> f.includes(HIT_FIELDS))))) {
            results.add(new ScoredChunk(fromDocument(collection, hit.source()), results.size() + 1, hit.score() == null ? 0 : hit.score()));
        }
        return results;
    }

    /** From the index's doc values, without loading any hit's stored source (its text above all). */
    @Override
    public List<ScoredChunk> searchWithoutText(String collection, String query, int k, DocumentFilter filter) {
        List<ScoredChunk> results = new ArrayList<>();
        for (Hit<Map> hit : search(collection, query, k, filter, s -> s.source(src -> src.fetch(false))
                .docvalueFields(DOC_VALUE_FIELDS))) {
            IndexedChunk chunk = new IndexedChunk(collection, ((jakarta.json.JsonString) docValue(hit, "documentId")).getString(), hit.id(),
                    ((jakarta.json.JsonNumber) docValue(hit, "chunkIndex")).intValue(), null, null, List.of(), null, null, null);
            results.add(new ScoredChunk(chunk, results.size() + 1, hit.score() == null ? 0 : hit.score()));
        }
        return results;
    }

    /** A hit's one value of a doc-value field (doc values come as arrays). */
    private static jakarta.json.JsonValue docValue(Hit<?> hit, String field) {
        return hit.fields().get(field).toJson().asJsonArray().get(0);
    }

    @SuppressWarnings("rawtypes")
    private List<Hit<Map>> search(String collection, String query, int k, DocumentFilter filter,
                                  java.util.function.Consumer<org.opensearch.client.opensearch.core.SearchRequest.Builder> fetching) {
        Query text = Query.of(q -> q.multiMatch(m -> m
                .query(query)
                .type(TextQueryType.MostFields)
                .fields(SEARCH_FIELDS)));
        // in the query's filter clause: BM25 ranks only the documents the filter keeps
        Query filtered = filter == null ? text : Query.of(q -> q.bool(b -> b.must(text).filter(OpenSearchFilters.query(filter))));
        try {
            SearchResponse<Map> response = client.search(s -> {
                s.index(ChunkIndex.name(collection))
                        .ignoreUnavailable(true)
                        .size(k)
                        // no total to count: Lucene may then skip documents that cannot reach the top k
                        .trackTotalHits(t -> t.enabled(false))
                        .query(filtered);
                fetching.accept(s);
                return s;
            }, Map.class);
            return response.hits().hits();
        } catch (IOException e) {
            throw ChunkIndex.unreachable("searching", e);
        }
    }

    @Override
    @SuppressWarnings("rawtypes")
    public List<IndexedChunk> chunks(String collection, java.util.Collection<String> chunkIds) {
        if (chunkIds.isEmpty()) {
            return List.of();
        }
        List<String> ids = List.copyOf(new java.util.LinkedHashSet<>(chunkIds));
        try {
            SearchResponse<Map> response = client.search(s -> s
                    .index(ChunkIndex.name(collection))
                    .ignoreUnavailable(true)
                    .size(ids.size())
                    .source(src -> src.filter(f -> f.includes(HIT_FIELDS)))
                    .query(q -> q.ids(i -> i.values(ids))), Map.class);
            return response.hits().hits().stream().map(hit -> fromDocument(collection, hit.source())).toList();
        } catch (IOException e) {
            throw ChunkIndex.unreachable("reading chunks", e);
        }
    }

    @Override
    public void deleteDocument(String collection, String documentId) {
        try {
            if (!client.indices().exists(e -> e.index(ChunkIndex.name(collection))).value()) {
                return;
            }
            client.deleteByQuery(d -> d
                    .index(ChunkIndex.name(collection))
                    .refresh(refresh)
                    .query(q -> q.term(t -> t.field("documentId").value(FieldValue.of(documentId)))));
        } catch (IOException e) {
            throw ChunkIndex.unreachable("deleting " + documentId, e);
        }
    }

    /**
     * The fields the metadata would add to those the index maps, against the limit, and then mapped
     * (reserved) at once. Fields are only added, never dropped from a mapping, so a field once known
     * stays so; a field not yet known is looked up in the mapping before it counts as new. Two writers
     * near the limit (parse instances, or documents one after another before any was indexed) cannot
     * both pass: the mapping update is OpenSearch's, one at a time, and the index's own field limit
     * ({@link ChunkIndex#FIELD_LIMIT}) refuses the second; its reason is then read from the mapping.
     */
    @Override
    public void reserveMetadataFields(String collection, Map<String, Object> metadata) {
        java.util.Set<String> wanted = OpenSearchFilters.fieldNames(metadata);
        if (knownFields.getOrDefault(collection, java.util.Set.of()).containsAll(wanted)) {
            return;
        }
        java.util.Set<String> mapped = ChunkIndex.metadataFields(client, collection);
        List<String> added = wanted.stream().filter(field -> !mapped.contains(field)).toList();
        // only a field the collection lacks is refused: one already over the limit (mapped before it existed) still takes
        // documents whose keys it has
        if (!added.isEmpty()) {
            refuseOverLimit(collection, mapped.size(), added);
            ChunkIndex.ensure(client, collection);
            if (fieldLimitSet.add(collection)) {
                ChunkIndex.limitFields(client, collection);
            }
            try {
                ChunkIndex.mapMetadataFields(client, collection, added);
            } catch (ChunkIndex.FieldLimitReached e) {
                // another writer took the room meanwhile; unless it mapped these very fields
                java.util.Set<String> now = ChunkIndex.metadataFields(client, collection);
                refuseOverLimit(collection, Math.max(now.size(), dev.openrag.schemas.Metadata.MAX_COLLECTION_FIELDS),
                        wanted.stream().filter(field -> !now.contains(field)).toList());
            }
        }
        java.util.Set<String> known = new java.util.HashSet<>(mapped);
        known.addAll(added);
        knownFields.put(collection, java.util.Set.copyOf(known));
    }

    private static void refuseOverLimit(String collection, int mapped, List<String> added) {
        if (!added.isEmpty() && mapped + added.size() > dev.openrag.schemas.Metadata.MAX_COLLECTION_FIELDS) {
            throw new IllegalArgumentException("metadata would give collection '" + collection + "' " + (mapped + added.size())
                    + " metadata fields; a collection holds at most " + dev.openrag.schemas.Metadata.MAX_COLLECTION_FIELDS
                    + " (a key counts once per kind of value: text, number, date). New here: "
                    + added.stream().limit(10).map(OpenSearchLexicalIndex::describeField).collect(java.util.stream.Collectors.joining(", "))
                    + (added.size() > 10 ? " and " + (added.size() - 10) + " more" : "")
                    + ". Reuse the collection's keys, or give several values of one kind as a list under one key"
                    + " (fields of documents since deleted still count: OpenSearch never drops a mapped field)");
        }
    }

    /** meta_n.year → "year (number)". */
    private static String describeField(String field) {
        String kind = field.substring(0, field.indexOf('.'));
        return field.substring(field.indexOf('.') + 1) + " (" + switch (kind) {
            case OpenSearchFilters.NUMBERS -> "number";
            case OpenSearchFilters.DATES -> "date";
            case OpenSearchFilters.LIST_DATES -> "dates in a list";
            default -> "text";
        } + ")";
    }

    /** One update-by-query over the document's chunks: the metadata objects dropped, the new ones set. */
    @Override
    public long replaceMetadata(String collection, String documentId, Map<String, Object> metadata) {
        String index = ChunkIndex.name(collection);
        reserveMetadataFields(collection, metadata);
        Map<String, JsonData> params = Map.of("fields", JsonData.of(OpenSearchFilters.fields(metadata)));
        try {
            if (!client.indices().exists(e -> e.index(index)).value()) {
                return 0;
            }
            var response = client.updateByQuery(u -> u.index(index).refresh(refresh)
                    .query(q -> q.term(t -> t.field("documentId").value(FieldValue.of(documentId))))
                    .script(s -> s.inline(i -> i.lang(l -> l.builtin(org.opensearch.client.opensearch._types.BuiltinScriptLanguage.Painless)).params(params).source("""
                            ctx._source.remove('meta_s'); ctx._source.remove('meta_n'); ctx._source.remove('meta_d'); ctx._source.remove('meta_dl');
                            for (def kind : params.fields.entrySet()) { ctx._source[kind.getKey()] = kind.getValue(); }"""))));
            if (!response.failures().isEmpty()) {
                throw new IllegalStateException("OpenSearch could not update the metadata of " + documentId + ": "
                        + response.failures().get(0).cause().reason());
            }
            return response.updated() == null ? 0 : response.updated();
        } catch (IOException e) {
            throw ChunkIndex.unreachable("updating the metadata of " + documentId, e);
        }
    }

    @Override
    public long countChunks(String collection) {
        String index = ChunkIndex.name(collection);
        try {
            if (!client.indices().exists(e -> e.index(index)).value()) {
                return 0;
            }
            try {
                return client.count(c -> c.index(index)).count();
            } catch (IOException e) {
                // an index created a moment ago exists before its shard has started ("all shards
                // failed", 503): wait for it, then count once more
                client.cluster().health(h -> h.index(index).waitForStatus(HealthStatus.Yellow).timeout(t -> t.time("10s")));
                return client.count(c -> c.index(index)).count();
            }
        } catch (IOException e) {
            throw ChunkIndex.unreachable("counting", e);
        }
    }

    private static Map<String, Object> document(IndexedChunk chunk) {
        Map<String, Object> document = new HashMap<>();
        document.put("collection", chunk.collection());
        document.put("documentId", chunk.documentId());
        document.put("chunkId", chunk.chunkId());
        document.put("chunkIndex", chunk.chunkIndex());
        document.put("title", chunk.title());
        document.put("sourceUri", chunk.sourceUri());
        document.put("headingPath", chunk.headingPath());
        document.put("text", chunk.text());
        document.put("context", chunk.context());
        Map<String, Map<String, Object>> byKind = OpenSearchFilters.fields(chunk.metadata());
        byKind.forEach(document::put);
        return document;
    }

    @SuppressWarnings("unchecked")
    private static IndexedChunk fromDocument(String collection, Map<?, ?> source) {
        Object headings = source.get("headingPath");
        return new IndexedChunk(collection,
                (String) source.get("documentId"),
                (String) source.get("chunkId"),
                ((Number) source.get("chunkIndex")).intValue(),
                (String) source.get("title"),
                (String) source.get("sourceUri"),
                headings instanceof List<?> list ? (List<String>) list : List.of(),
                (String) source.get("text"),
                (String) source.get("context"),
                null);
    }
}
