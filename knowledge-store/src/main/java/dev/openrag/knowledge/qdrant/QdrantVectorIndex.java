package dev.openrag.knowledge.qdrant;

import static io.qdrant.client.ConditionFactory.matchKeyword;
import static io.qdrant.client.ConditionFactory.matchKeywords;
import static io.qdrant.client.ConditionFactory.range;
import static io.qdrant.client.ValueFactory.value;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.openrag.knowledge.port.IndexedChunk;
import dev.openrag.knowledge.port.ScoredChunk;
import dev.openrag.knowledge.port.VectorIndex;
import dev.openrag.schemas.Ids;
import dev.openrag.schemas.Metadata;
import io.qdrant.client.PointIdFactory;
import io.qdrant.client.QdrantClient;
import io.qdrant.client.VectorsFactory;
import io.qdrant.client.WithPayloadSelectorFactory;
import io.qdrant.client.grpc.Collections.Distance;
import io.qdrant.client.grpc.Collections.PayloadSchemaType;
import io.qdrant.client.grpc.Collections.VectorParams;
import io.qdrant.client.grpc.Common.Filter;
import io.qdrant.client.grpc.Common.Range;
import io.qdrant.client.grpc.JsonWithInt.Value;
import io.qdrant.client.grpc.Points.PointStruct;
import io.qdrant.client.grpc.Points.ScoredPoint;
import io.qdrant.client.grpc.Points.SearchPoints;

/**
 * {@link VectorIndex} on Qdrant ({@code openrag.vectors.backend=qdrant}, cluster deployments):
 * one Qdrant collection per OpenRAG collection, cosine distance, point id = a UUID derived from
 * the chunk id (so upserts are idempotent), payload mirroring the OpenSearch fields.
 */
public final class QdrantVectorIndex implements VectorIndex {

    private static final long TIMEOUT_SECONDS = 30;
    /** The payload field naming a point's document. */
    static final String DOCUMENT_ID = "documentId";

    private final QdrantClient client;
    private final int dimension;
    private final Set<String> readyCollections = ConcurrentHashMap.newKeySet();

    public QdrantVectorIndex(QdrantClient client, int dimension) {
        this.client = client;
        this.dimension = dimension;
    }

    @Override
    public void upsert(List<IndexedChunk> chunks) {
        Map<String, List<PointStruct>> byCollection = new HashMap<>();
        for (IndexedChunk chunk : chunks) {
            if (chunk.vector() == null) {
                continue;
            }
            byCollection.computeIfAbsent(chunk.collection(), c -> new ArrayList<>()).add(PointStruct.newBuilder()
                    .setId(PointIdFactory.id(Ids.pointId(chunk.chunkId())))
                    .setVectors(VectorsFactory.vectors(chunk.vector()))
                    .putAllPayload(payload(chunk))
                    .build());
        }
        byCollection.forEach((collection, points) -> {
            ensureCollection(collection);
            await(client.upsertAsync(collection, points), "upserting into " + collection);
        });
    }

    @Override
    public void replaceDocument(String collection, String documentId, List<IndexedChunk> chunks) {
        upsert(chunks);
        if (exists(collection)) {
            await(client.deleteAsync(collection, Filter.newBuilder()
                    .addMust(matchKeyword("documentId", documentId))
                    .addMust(range("chunkIndex", Range.newBuilder().setGte(chunks.size()).build()))
                    .build()), "removing stale chunks of " + documentId);
        }
    }

    @Override
    public List<ScoredChunk> search(String collection, float[] queryVector, int k) {
        return search(collection, queryVector, k, null);
    }

    /** With Qdrant's payload filter on the document id: it filters during the HNSW search, not after it. */
    @Override
    public List<ScoredChunk> searchWithin(String collection, float[] queryVector, int k, Set<String> documentIds) {
        return documentIds.isEmpty() ? List.of() : search(collection, queryVector, k,
                Filter.newBuilder().addMust(matchKeywords("documentId", List.copyOf(documentIds))).build());
    }

    private List<ScoredChunk> search(String collection, float[] queryVector, int k, Filter filter) {
        if (!exists(collection)) {
            return List.of();
        }
        SearchPoints.Builder request = SearchPoints.newBuilder()
                .setCollectionName(collection)
                .setLimit(k)
                .setWithPayload(WithPayloadSelectorFactory.enable(true));
        if (filter != null) {
            request.setFilter(filter);
        }
        for (float value : queryVector) {
            request.addVector(value);
        }
        List<ScoredPoint> points = await(client.searchAsync(request.build()), "searching " + collection);
        List<ScoredChunk> results = new ArrayList<>();
        int rank = 1;
        for (ScoredPoint point : points) {
            results.add(new ScoredChunk(chunk(collection, point.getPayloadMap()), rank++, point.getScore()));
        }
        return results;
    }

    @Override
    public void deleteDocument(String collection, String documentId) {
        if (exists(collection)) {
            await(client.deleteAsync(collection, Filter.newBuilder().addMust(matchKeyword("documentId", documentId)).build()),
                    "deleting " + documentId);
        }
    }

    /** The payload's {@code metadata} key set (or deleted) on every point of the document; the vectors stay as they are. */
    @Override
    public long replaceMetadata(String collection, String documentId, Map<String, Object> metadata) {
        if (!exists(collection)) {
            return 0;
        }
        Filter document = Filter.newBuilder().addMust(matchKeyword("documentId", documentId)).build();
        if (metadata.isEmpty()) {
            await(client.deletePayloadAsync(collection, List.of("metadata"), document, true, null, null), "updating " + documentId);
        } else {
            await(client.setPayloadAsync(collection, Map.of("metadata", value(metadataPayload(metadata))), document, true, null, null),
                    "updating " + documentId);
        }
        return await(client.countAsync(collection, document, true), "counting " + documentId);
    }

    @Override
    public long countChunks(String collection) {
        return exists(collection) ? await(client.countAsync(collection), "counting " + collection) : 0;
    }

    /** Whether the collection exists; one found for the first time here gets its document index ({@link #indexDocumentIds}). */
    private boolean exists(String collection) {
        if (readyCollections.contains(collection)) {
            return true;
        }
        if (!await(client.collectionExistsAsync(collection), "looking up collection " + collection)) {
            return false;
        }
        indexDocumentIds(collection);
        readyCollections.add(collection);
        return true;
    }

    private void ensureCollection(String collection) {
        if (readyCollections.contains(collection)) {
            return;
        }
        if (!await(client.collectionExistsAsync(collection), "looking up collection " + collection)) {
            await(client.createCollectionAsync(collection, VectorParams.newBuilder()
                    .setSize(dimension).setDistance(Distance.Cosine).build()), "creating collection " + collection);
        }
        indexDocumentIds(collection);
        readyCollections.add(collection);
    }

    /**
     * A keyword index on {@code documentId}, which every document-scoped call filters on (replace, delete, metadata
     * updates, searches within selected documents): without it each scans the collection's payloads. Made with the
     * collection, and for a collection made before it the first time this process uses it; Qdrant keeps an index
     * that exists with the same schema as it is, so asking again changes nothing.
     */
    private void indexDocumentIds(String collection) {
        await(client.createPayloadIndexAsync(collection, DOCUMENT_ID, PayloadSchemaType.Keyword, null, true, null, null),
                "indexing " + DOCUMENT_ID + " of " + collection);
    }

    private static Map<String, Value> payload(IndexedChunk chunk) {
        Map<String, Value> payload = new HashMap<>();
        payload.put("collection", value(chunk.collection()));
        payload.put("documentId", value(chunk.documentId()));
        payload.put("chunkId", value(chunk.chunkId()));
        payload.put("chunkIndex", value(chunk.chunkIndex()));
        payload.put("title", value(chunk.title() == null ? "" : chunk.title()));
        payload.put("sourceUri", value(chunk.sourceUri() == null ? "" : chunk.sourceUri()));
        payload.put("headingPath", value(chunk.headingPath() == null ? List.of()
                : chunk.headingPath().stream().map(io.qdrant.client.ValueFactory::value).toList()));
        payload.put("text", value(chunk.text() == null ? "" : chunk.text()));
        payload.put("context", value(chunk.context() == null ? "" : chunk.context()));
        if (!chunk.metadata().isEmpty()) {
            payload.put("metadata", value(metadataPayload(chunk.metadata())));
        }
        return payload;
    }

    /** The document's metadata as a payload object: strings, numbers, lists of strings, dates as ISO-8601 instants. */
    private static Map<String, Value> metadataPayload(Map<String, Object> metadata) {
        Map<String, Value> payload = new HashMap<>();
        Metadata.toJson(Metadata.normalise(metadata, true)).forEach((key, item) -> payload.put(key, switch (item) {
            case Long number -> value(number);
            case Number number -> value(number.doubleValue());
            case List<?> list -> value(list.stream().map(text -> value((String) text)).toList());
            default -> value(item.toString());
        }));
        return payload;
    }

    private static IndexedChunk chunk(String collection, Map<String, Value> payload) {
        return new IndexedChunk(collection,
                payload.get("documentId").getStringValue(),
                payload.get("chunkId").getStringValue(),
                (int) payload.get("chunkIndex").getIntegerValue(),
                payload.get("title").getStringValue(),
                payload.get("sourceUri").getStringValue(),
                payload.containsKey("headingPath")
                        ? payload.get("headingPath").getListValue().getValuesList().stream().map(Value::getStringValue).toList()
                        : List.of(),
                payload.get("text").getStringValue(),
                payload.get("context").getStringValue(),
                null);
    }

    private static <T> T await(Future<T> future, String what) {
        try {
            return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Qdrant failed " + what + ": " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("Qdrant did not answer within " + TIMEOUT_SECONDS + " s while " + what, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while " + what, e);
        }
    }
}
