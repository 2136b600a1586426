package dev.openrag.knowledge;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.stub.StreamObserver;
import io.qdrant.client.grpc.Collections;
import io.qdrant.client.grpc.CollectionsGrpc;
import io.qdrant.client.grpc.Common;
import io.qdrant.client.grpc.JsonWithInt;
import io.qdrant.client.grpc.Points;
import io.qdrant.client.grpc.PointsGrpc;

/**
 * A STAND-IN for a Qdrant server (none can run on this machine): a real gRPC server on a local
 * port, built from the Qdrant client's own generated service stubs, keeping points in memory.
 * It implements just the calls QdrantVectorIndex makes (collection exists/create, upsert,
 * search with cosine similarity, delete by filter, count, set and delete payload keys by filter, create a payload index)
 * with Qdrant's filter semantics for keyword match and numeric range. The real server runs in
 * compose.yaml. Tests read what it holds ({@link #payloads}, {@link #vectors}) and how many points
 * were upserted ({@link #upserted}): a metadata-only update must change payloads, never vectors.
 */
public final class QdrantGrpcStandIn implements AutoCloseable {

    private record StoredPoint(Common.PointId id, List<Float> vector, Map<String, JsonWithInt.Value> payload) {
    }

    private final Map<String, Map<Common.PointId, StoredPoint>> collections = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong upserted = new java.util.concurrent.atomic.AtomicLong();
    private final Map<String, Map<String, Points.FieldType>> fieldIndexes = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong indexRequests = new java.util.concurrent.atomic.AtomicLong();
    private final Server server;

    public QdrantGrpcStandIn() throws IOException {
        server = ServerBuilder.forPort(0).addService(new CollectionsService()).addService(new PointsService()).build().start();
    }

    public int port() {
        return server.getPort();
    }

    /** Points written by upserts so far (each point of each upsert counts). */
    public long upserted() {
        return upserted.get();
    }

    /** The payload indexes of the collection: field → type, as create-field-index requests made them. */
    public Map<String, Points.FieldType> fieldIndexes(String collection) {
        return Map.copyOf(fieldIndexes.getOrDefault(collection, Map.of()));
    }

    /** Create-field-index requests so far, repeats included. */
    public long indexRequests() {
        return indexRequests.get();
    }

    /** Makes a collection as another client (or an earlier version) would have, without payload indexes. */
    public void createBareCollection(String collection) {
        collections.putIfAbsent(collection, new ConcurrentHashMap<>());
    }

    /** The payload of every point of the collection whose {@code documentId} is the given one, by point id. */
    public Map<String, Map<String, JsonWithInt.Value>> payloads(String collection, String documentId) {
        Map<String, Map<String, JsonWithInt.Value>> payloads = new java.util.TreeMap<>();
        ofDocument(collection, documentId).forEach(point -> payloads.put(point.id().getUuid(), point.payload()));
        return payloads;
    }

    /** The vector of every point of the document, by point id. */
    public Map<String, List<Float>> vectors(String collection, String documentId) {
        Map<String, List<Float>> vectors = new java.util.TreeMap<>();
        ofDocument(collection, documentId).forEach(point -> vectors.put(point.id().getUuid(), point.vector()));
        return vectors;
    }

    private List<StoredPoint> ofDocument(String collection, String documentId) {
        return collections.getOrDefault(collection, Map.of()).values().stream()
                .filter(point -> point.payload().containsKey("documentId")
                        && point.payload().get("documentId").getStringValue().equals(documentId))
                .toList();
    }

    @Override
    public void close() {
        server.shutdownNow();
    }

    private final class CollectionsService extends CollectionsGrpc.CollectionsImplBase {
        @Override
        public void collectionExists(Collections.CollectionExistsRequest request,
                                     StreamObserver<Collections.CollectionExistsResponse> response) {
            reply(response, Collections.CollectionExistsResponse.newBuilder().setResult(
                    Collections.CollectionExists.newBuilder().setExists(collections.containsKey(request.getCollectionName()))).build());
        }

        @Override
        public void create(Collections.CreateCollection request, StreamObserver<Collections.CollectionOperationResponse> response) {
            collections.putIfAbsent(request.getCollectionName(), new ConcurrentHashMap<>());
            reply(response, Collections.CollectionOperationResponse.newBuilder().setResult(true).build());
        }
    }

    private final class PointsService extends PointsGrpc.PointsImplBase {
        /** Qdrant's create_field_index: an index that exists with the same type stays as it is; another type is refused. */
        @Override
        public void createFieldIndex(Points.CreateFieldIndexCollection request, StreamObserver<Points.PointsOperationResponse> response) {
            indexRequests.incrementAndGet();
            if (!collections.containsKey(request.getCollectionName())) {
                response.onError(io.grpc.Status.NOT_FOUND.withDescription("Collection `" + request.getCollectionName() + "` doesn't exist!")
                        .asRuntimeException());
                return;
            }
            Map<String, Points.FieldType> indexes = fieldIndexes.computeIfAbsent(request.getCollectionName(), c -> new ConcurrentHashMap<>());
            Points.FieldType before = indexes.putIfAbsent(request.getFieldName(), request.getFieldType());
            if (before != null && before != request.getFieldType()) {
                response.onError(io.grpc.Status.INVALID_ARGUMENT.withDescription("field " + request.getFieldName() + " is indexed as " + before)
                        .asRuntimeException());
                return;
            }
            reply(response, done());
        }

        @Override
        public void upsert(Points.UpsertPoints request, StreamObserver<Points.PointsOperationResponse> response) {
            Map<Common.PointId, StoredPoint> points = collections.get(request.getCollectionName());
            for (Points.PointStruct point : request.getPointsList()) {
                Points.Vector vector = point.getVectors().getVector();
                List<Float> values = vector.hasDense() ? vector.getDense().getDataList() : vector.getDataList();
                points.put(point.getId(), new StoredPoint(point.getId(), values, point.getPayloadMap()));
                upserted.incrementAndGet();
            }
            reply(response, done());
        }

        @Override
        public void search(Points.SearchPoints request, StreamObserver<Points.SearchResponse> response) {
            List<Points.ScoredPoint> scored = new ArrayList<>();
            for (StoredPoint point : collections.get(request.getCollectionName()).values()) {
                scored.add(Points.ScoredPoint.newBuilder().setId(point.id()).putAllPayload(point.payload())
                        .setScore((float) cosine(request.getVectorList(), point.vector())).build());
            }
            scored.sort(Comparator.comparingDouble(Points.ScoredPoint::getScore).reversed());
            reply(response, Points.SearchResponse.newBuilder()
                    .addAllResult(scored.subList(0, (int) Math.min(request.getLimit(), scored.size()))).build());
        }

        @Override
        public void delete(Points.DeletePoints request, StreamObserver<Points.PointsOperationResponse> response) {
            Common.Filter filter = request.getPoints().getFilter();
            collections.get(request.getCollectionName()).values().removeIf(point -> matches(filter, point.payload()));
            reply(response, done());
        }

        /** Qdrant's set_payload: the given keys replace those of every selected point; other keys stay. */
        @Override
        public void setPayload(Points.SetPayloadPoints request, StreamObserver<Points.PointsOperationResponse> response) {
            Map<Common.PointId, StoredPoint> points = collections.get(request.getCollectionName());
            points.replaceAll((id, point) -> {
                if (!matches(request.getPointsSelector().getFilter(), point.payload())) {
                    return point;
                }
                Map<String, JsonWithInt.Value> payload = new java.util.HashMap<>(point.payload());
                payload.putAll(request.getPayloadMap());
                return new StoredPoint(id, point.vector(), Map.copyOf(payload));
            });
            reply(response, done());
        }

        /** Qdrant's delete_payload: the given keys leave every selected point. */
        @Override
        public void deletePayload(Points.DeletePayloadPoints request, StreamObserver<Points.PointsOperationResponse> response) {
            Map<Common.PointId, StoredPoint> points = collections.get(request.getCollectionName());
            points.replaceAll((id, point) -> {
                if (!matches(request.getPointsSelector().getFilter(), point.payload())) {
                    return point;
                }
                Map<String, JsonWithInt.Value> payload = new java.util.HashMap<>(point.payload());
                request.getKeysList().forEach(payload::remove);
                return new StoredPoint(id, point.vector(), Map.copyOf(payload));
            });
            reply(response, done());
        }

        @Override
        public void count(Points.CountPoints request, StreamObserver<Points.CountResponse> response) {
            long count = collections.get(request.getCollectionName()).values().stream()
                    .filter(point -> !request.hasFilter() || matches(request.getFilter(), point.payload())).count();
            reply(response, Points.CountResponse.newBuilder().setResult(Points.CountResult.newBuilder().setCount(count)).build());
        }
    }

    private static Points.PointsOperationResponse done() {
        return Points.PointsOperationResponse.newBuilder().setResult(Points.UpdateResult.newBuilder()
                .setStatus(Points.UpdateStatus.Completed)).build();
    }

    private static boolean matches(Common.Filter filter, Map<String, JsonWithInt.Value> payload) {
        for (Common.Condition condition : filter.getMustList()) {
            Common.FieldCondition field = condition.getField();
            JsonWithInt.Value value = payload.get(field.getKey());
            if (value == null) {
                return false;
            }
            if (field.hasMatch() && !field.getMatch().getKeyword().equals(value.getStringValue())) {
                return false;
            }
            if (field.hasRange() && field.getRange().hasGte() && value.getIntegerValue() < field.getRange().getGte()) {
                return false;
            }
        }
        return true;
    }

    private static double cosine(List<Float> a, List<Float> b) {
        double dot = 0;
        double normA = 0;
        double normB = 0;
        for (int i = 0; i < a.size(); i++) {
            dot += a.get(i) * b.get(i);
            normA += a.get(i) * a.get(i);
            normB += b.get(i) * b.get(i);
        }
        return dot / (Math.sqrt(normA) * Math.sqrt(normB));
    }

    private static <T> void reply(StreamObserver<T> observer, T value) {
        observer.onNext(value);
        observer.onCompleted();
    }
}
