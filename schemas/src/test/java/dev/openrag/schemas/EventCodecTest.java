package dev.openrag.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class EventCodecTest {

    private static final EventCodec CODEC = new EventCodec();
    private static final Source SOURCE = new Source("upload", "file:///docs/readme.md");
    private static final int V = EventEnvelope.CURRENT_SCHEMA_VERSION;

    static Stream<EventEnvelope> oneOfEachEvent() {
        Chunk chunk = new Chunk("docs/d1#0", 0, "Kafka keeps order per key.", List.of("Intro"), 0, 26,
                "From readme.md, section Intro.", new float[] {0.25f, -0.5f});
        return Stream.of(
                new DocumentArrived(V, "e1", "d1", "j1", "docs", SOURCE, "Readme", "text/markdown",
                        "# Intro\nKafka keeps order per key.", DocumentArrived.TEXT,
                        List.of(new PremadeChunk("c-0", 0, "Kafka keeps order per key.")), Map.of("lang", "en")),
                new DocumentParsed(V, "e2", "d1", "j1", "docs", SOURCE, "Readme", "text/markdown",
                        "Intro\nKafka keeps order per key.", "abc", List.of(new Heading(1, "Intro", 0)), null, Map.of(), null,
                        List.of(new Page(1, 0, 32))),
                new DocumentChunked(V, "e3", "d1", "j1", "docs", SOURCE, "Readme", "text/markdown",
                        "Intro\nKafka keeps order per key.", "abc", List.of(chunk), Map.of(), null,
                        List.of(new Heading(1, "Intro", 0)), List.of(new Page(1, 0, 32))),
                new ChunksContextualized(V, "e4", "d1", "j1", "docs", SOURCE, "Readme", "abc", "structural",
                        List.of(chunk), Map.of(), null),
                new ChunksEmbedded(V, "e5", "d1", "j1", "docs", SOURCE, "Readme", "abc", "bge-small-en-v1.5-q", 2,
                        List.of(chunk), Map.of(), List.of(new SectionSummary(List.of("Intro"), "Intro", "Kafka keeps order per key.", new float[] {0.5f, 0.5f}))),
                new GraphExtracted(V, "e6", "d1", "j1", "docs",
                        List.of(new GraphExtracted.Entity("kafka:tech", "Kafka", "tech")),
                        List.of(new GraphExtracted.Relation("kafka:tech", "key:term", "uses")),
                        List.of(new GraphExtracted.Mention("docs/d1#0", "kafka:tech")),
                        new ApiGraph("Petstore", "1.0", List.of(
                                new ApiGraph.Node("api", ApiGraph.API, "Petstore", ApiGraph.API, Map.of("version", "1.0")),
                                new ApiGraph.Node("op:GET /pets", ApiGraph.OPERATION, "listPets", ApiGraph.OPERATION,
                                        Map.of("method", "GET", "path", "/pets"))),
                                List.of(new ApiGraph.Edge("api", "op:GET /pets", "HAS_OPERATION")),
                                List.of(new ApiGraph.ChunkLink(0, "op:GET /pets")))),
                new DocumentDeleted(V, "e7", "d1", "j1", "docs"),
                new StageCompleted(V, "e8", "d1", "j1", "docs", "parse", StageCompleted.STATUS, 3, List.of("spec problem")),
                new StageFailed(V, "e9", "d1", "j1", "docs", "parse", StageFailed.STATUS, "corrupt PDF", SOURCE),
                new DeadLetter(V, "e10", null, null, null, "arrived", "not valid JSON", Topics.DOCUMENTS_ARRIVED, "{oops"));
    }

    @ParameterizedTest
    @MethodSource("oneOfEachEvent")
    void everyEventRoundTripsThroughJsonAndMatchesItsSchema(EventEnvelope event) {
        String json = CODEC.toJson(event);

        assertThat(CODEC.validate(EventType.of(event.getClass()), CODEC.toTree(event))).isEmpty();
        EventEnvelope back = CODEC.fromJson(json, event.getClass());
        assertThat(CODEC.toTree(back)).isEqualTo(CODEC.toTree(event));
        assertThat(back.documentId()).isEqualTo(event.documentId());
    }

    /**
     * A version's arrival time travels on every event of it from parsing to the sinks; an event written
     * before it was carried (no field) still reads, with none.
     */
    @Test
    void theVersionTimeTravelsOnAndOlderEventsWithoutItStillRead() {
        Chunk chunk = new Chunk("docs/d1#0", 0, "Kafka keeps order per key.", List.of(), 0, 26, null, new float[] {0.5f});
        ChunksEmbedded carried = new ChunksEmbedded(V, "e5", "d1", "j1", "docs", SOURCE, "Readme", "abc", "m", 1,
                List.of(chunk), Map.of(), null, 1_700_000_000_123L);
        assertThat(CODEC.fromJson(CODEC.toJson(carried), ChunksEmbedded.class).arrivedAt()).isEqualTo(1_700_000_000_123L);
        assertThat(CODEC.toTree(carried).get("arrivedAt").asLong()).isEqualTo(1_700_000_000_123L);

        String older = """
                {"schemaVersion":1,"eventId":"e3","documentId":"d1","jobId":"j1","collection":"docs",
                 "source":{"type":"upload","uri":"file:///docs/readme.md"},"title":"Readme","mediaType":"text/plain",
                 "text":"Kafka","contentHash":"abc","chunks":[{"chunkId":"docs/d1#0","index":0,"text":"Kafka",
                 "headingPath":[],"startOffset":0,"endOffset":5}],"metadata":{}}""";
        assertThat(CODEC.fromJson(older, DocumentChunked.class).arrivedAt()).isNull();
        assertThatThrownBy(() -> CODEC.fromJson(older.replace("\"metadata\":{}", "\"metadata\":{},\"arrivedAt\":\"soon\""),
                DocumentChunked.class)).as("not a time").isInstanceOf(InvalidEventException.class).hasMessageContaining("arrivedAt");
    }

    @Test
    void everyEventTypeHasAnExample() {
        assertThat(oneOfEachEvent().map(e -> EventType.of(e.getClass())).distinct())
                .containsExactlyInAnyOrder(EventType.values());
    }

    @Test
    void missingFieldIsNamed() {
        String json = """
                {"schemaVersion":1,"eventId":"e1","documentId":"d1","jobId":"j1","collection":"docs",
                 "content":"hello","contentEncoding":"text"}""";

        assertThatThrownBy(() -> CODEC.fromJson(json, DocumentArrived.class))
                .isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("source");
    }

    @Test
    void wrongTypeAndBadEnumAreNamed() {
        String json = """
                {"schemaVersion":"one","eventId":"e1","documentId":"d1","jobId":"j1","collection":"docs",
                 "source":{"type":"upload","uri":"x"},"content":"hello","contentEncoding":"gzip"}""";

        assertThatThrownBy(() -> CODEC.fromJson(json, DocumentArrived.class))
                .isInstanceOfSatisfying(InvalidEventException.class, e -> assertThat(e.problems())
                        .anySatisfy(p -> assertThat(p).contains("schemaVersion"))
                        .anySatisfy(p -> assertThat(p).contains("contentEncoding")));
    }

    @Test
    void aFieldNamedTwiceIsRefusedNotReadAsItsLastValue() {
        String valid = """
                {"schemaVersion":1,"eventId":"e1","documentId":"d1","jobId":"j1","collection":"docs",
                 "source":{"type":"upload","uri":"x"},"content":"hello","contentEncoding":"text",
                 "metadata":{"team":"payments"}}""";
        assertThat(CODEC.fromJson(valid, DocumentArrived.class).metadata()).containsEntry("team", "payments");

        assertThatThrownBy(() -> CODEC.fromJson(valid.replace("\"team\":\"payments\"", "\"team\":\"payments\",\"team\":\"risk\""),
                DocumentArrived.class)).isInstanceOf(InvalidEventException.class).hasMessageContaining("Duplicate field 'team'");
        assertThatThrownBy(() -> CODEC.fromJson(valid.replace("\"collection\":\"docs\"", "\"collection\":\"docs\",\"collection\":\"other\""),
                DocumentArrived.class)).isInstanceOf(InvalidEventException.class).hasMessageContaining("Duplicate field 'collection'");
    }

    @Test
    void invalidCollectionNameIsRejected() {
        String json = """
                {"schemaVersion":1,"eventId":"e1","documentId":"d1","jobId":"j1","collection":"Has Spaces",
                 "source":{"type":"upload","uri":"x"},"content":"hello","contentEncoding":"text"}""";

        assertThatThrownBy(() -> CODEC.fromJson(json, DocumentArrived.class))
                .hasMessageContaining("collection");
    }

    @Test
    void notJsonAtAllSaysWhere() {
        assertThatThrownBy(() -> CODEC.fromJson("{\"eventId\": ", DocumentArrived.class))
                .isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("not valid JSON at line 1");
        assertThatThrownBy(() -> CODEC.fromJson("  ", DocumentArrived.class))
                .hasMessageContaining("empty message");
    }

    @Test
    void idsFollowTheArchitectureRules() {
        assertThat(Ids.chunkId("docs", "d1", 3)).isEqualTo("docs/d1#3");
        assertThat(Ids.documentIdFromUri("file:///a.md")).hasSize(32).isEqualTo(Ids.documentIdFromUri("file:///a.md"));
        assertThat(Ids.pointId("docs/d1#3")).isEqualTo(Ids.pointId("docs/d1#3")).isNotEqualTo(Ids.pointId("docs/d1#4"));
        assertThat(Topics.ALL).hasSize(9).doesNotHaveDuplicates().allMatch(t -> t.startsWith("openrag."));
    }
}
