package dev.openrag.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class MetadataTest {

    @Test
    void valuesAreNormalisedByKind() {
        Map<String, Object> normalised = Metadata.fromCaller(Map.of("team", "payments", "year", 2026.0, "score", 4.5,
                "reviewed", "2026-03-01", "at", "2026-03-01T10:00:00+02:00", "tags", List.of("a", "b"), "version", "2026"));
        assertThat(normalised).containsEntry("team", "payments").containsEntry("year", 2026L).containsEntry("score", 4.5)
                .containsEntry("reviewed", Instant.parse("2026-03-01T00:00:00Z"))
                .containsEntry("at", Instant.parse("2026-03-01T08:00:00Z"))
                .containsEntry("tags", List.of("a", "b"))
                .containsEntry("version", "2026");
        assertThat(Metadata.toJson(normalised)).containsEntry("reviewed", "2026-03-01T00:00:00Z");
    }

    @Test
    void sourceFieldsAreRefusedFromCallersAndAllowedFromThePipeline() {
        assertThatThrownBy(() -> Metadata.fromCaller(Map.of("path", "docs/"))).hasMessageContaining("'path' is a source field");
        assertThat(Metadata.normalise(Map.of("path", "docs/a.md"), true)).containsEntry("path", "docs/a.md");
    }

    @Test
    void badKeysAndValuesAreRefusedWithTheRule() {
        Map<String, Object> many = new HashMap<>();
        for (int i = 0; i < 33; i++) {
            many.put("k" + i, "v");
        }
        assertThatThrownBy(() -> Metadata.fromCaller(many)).hasMessageContaining("at most 32");
        assertThatThrownBy(() -> Metadata.fromCaller(Map.of("a.b", "x"))).hasMessageContaining("not a plain name");
        assertThatThrownBy(() -> Metadata.fromCaller(Map.of("'] or 1=1", "x"))).hasMessageContaining("not a plain name");
        assertThatThrownBy(() -> Metadata.fromCaller(Map.of("or", "x"))).hasMessageContaining("filter operator");
        assertThatThrownBy(() -> Metadata.fromCaller(Map.of("k".repeat(65), "x"))).hasMessageContaining("at most 64");
        assertThatThrownBy(() -> Metadata.fromCaller(Map.of("team", Map.of("a", 1)))).hasMessageContaining("nested objects");
        assertThatThrownBy(() -> Metadata.fromCaller(Map.of("team", "x".repeat(1025)))).hasMessageContaining("at most 1024");
        assertThatThrownBy(() -> Metadata.fromCaller(Map.of("tags", List.of("a", 1)))).hasMessageContaining("lists hold strings only");
        assertThatThrownBy(() -> Metadata.fromCaller(Map.of("n", Double.NaN))).hasMessageContaining("finite");
        assertThatThrownBy(() -> Metadata.fromCaller(Map.of("flag", true))).hasMessageContaining("a boolean");
        assertThat(Metadata.fromCaller(Map.of("team-name_2", "ok"))).containsEntry("team-name_2", "ok");
    }

    @Test
    void aKafkaEventWithBadMetadataIsInvalid() {
        String json = new EventCodec().toJson(new DocumentArrived(EventEnvelope.CURRENT_SCHEMA_VERSION, "e", "d", "j", "c",
                new Source("producer", "s3://x"), "t", "text/plain", "hello", DocumentArrived.TEXT, null, Map.of("or", "x")));
        assertThatThrownBy(() -> new EventCodec().fromJson(json, DocumentArrived.class)).isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("$.metadata").hasMessageContaining("'or' is a filter operator");
        String nested = json.replace("{\"or\":\"x\"}", "{\"team\":{\"a\":1}}");
        assertThatThrownBy(() -> new EventCodec().fromJson(nested, DocumentArrived.class)).isInstanceOf(InvalidEventException.class);
        String good = json.replace("{\"or\":\"x\"}", "{\"team\":\"payments\",\"year\":2026,\"tags\":[\"a\"]}");
        assertThat(new EventCodec().fromJson(good, DocumentArrived.class).metadata()).containsEntry("team", "payments");
    }
    /** The Kafka event may carry source fields under their own names (the pipeline's sources do), never in another case. */
    @Test
    void aKafkaEventWithASourceFieldInAnotherCaseIsInvalid() {
        java.util.Locale before = java.util.Locale.getDefault();
        try {
            for (java.util.Locale locale : List.of(java.util.Locale.ROOT, java.util.Locale.forLanguageTag("tr-TR"))) {
                java.util.Locale.setDefault(locale);
                for (String key : List.of("Title", "TITLE", "tItLe", "Path", "FILENAME", "mediatype", "SourceId", "Modified", "COMMIT")) {
                    String json = arrivedWith(Map.of(key, "x", "team", "payments"));
                    assertThatThrownBy(() -> new EventCodec().fromJson(json, DocumentArrived.class)).as(key + " in " + locale)
                            .isInstanceOf(InvalidEventException.class).hasMessageContaining("$.metadata")
                            .hasMessageContaining("'" + key + "' is in another case a source field");
                }
                // controls: the exact source names, and keys that only resemble one, pass
                assertThat(new EventCodec().fromJson(arrivedWith(Map.of("title", "A", "path", "docs/a.md", "subtitle", "s",
                        "titles", "t")), DocumentArrived.class).metadata()).containsKeys("title", "path", "subtitle", "titles");
            }
        } finally {
            java.util.Locale.setDefault(before);
        }
    }

    private static String arrivedWith(Map<String, Object> metadata) {
        return new EventCodec().toJson(new DocumentArrived(EventEnvelope.CURRENT_SCHEMA_VERSION, "e", "d", "j", "c",
                new Source("producer", "s3://x"), "t", "text/plain", "hello", DocumentArrived.TEXT, null, metadata));
    }

    /** A source field or operator in another case would be a second field reading as the reserved one. */
    @Test
    void reservedNamesInAnotherCaseAreRefusedWhateverTheDefaultLocale() {
        java.util.Locale before = java.util.Locale.getDefault();
        try {
            for (java.util.Locale locale : List.of(java.util.Locale.ROOT, java.util.Locale.forLanguageTag("tr-TR"))) {
                java.util.Locale.setDefault(locale); // Turkish: "TITLE".toLowerCase() is "tıtle", not "title"
                for (String key : List.of("Path", "PATH", "TITLE", "FileName", "filename", "Commit", "HOST")) {
                    assertThatThrownBy(() -> Metadata.fromCaller(Map.of(key, "x"))).as(key + " in " + locale)
                            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("in another case a source field");
                }
                for (String key : List.of("OR", "And", "IN", "Not", "PREFIX", "Exists")) {
                    assertThatThrownBy(() -> Metadata.checkKey(key)).as(key + " in " + locale)
                            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("in another case a filter operator");
                }
                // controls: keys that only contain or resemble a reserved name are the caller's own
                assertThat(Metadata.fromCaller(Map.of("pathway", "x", "subtitle", "y", "titles", "z", "order", "o", "index", "i")))
                        .containsKeys("pathway", "subtitle", "titles", "order", "index");
                // the pipeline's (and a producer's) exact source field names still pass
                assertThat(Metadata.normalise(Map.of("path", "docs/a.md", "title", "A"), true)).containsKeys("path", "title");
            }
        } finally {
            java.util.Locale.setDefault(before);
        }
    }

    /** An empty list is no value, so every store agrees the key is absent (exists: false), not only some. */
    @Test
    void anEmptyListIsNoValue() {
        assertThat(Metadata.fromCaller(Map.of("tags", List.of(), "team", "payments"))).isEqualTo(Map.of("team", "payments"));
        assertThat(Metadata.normalise(Map.of("tags", List.of()), true)).isEmpty();
        // the control: a list with an item is kept
        assertThat(Metadata.fromCaller(Map.of("tags", List.of("oncall")))).isEqualTo(Map.of("tags", List.of("oncall")));
    }

    @Test
    void aDateOutsideTheYearsEveryStoreTakesStaysText() {
        // UTC instants past 9999 or before 0000 would be written "+10000-…" or "-0001-…", which OpenSearch's dates refuse
        assertThat(Metadata.dateOrNull("9999-12-31T23:59:59-01:00")).isNull();
        assertThat(Metadata.dateOrNull("0000-01-01T00:00:00+01:00")).isNull();
        assertThat(Metadata.datesIn(List.of("9999-12-31T23:59:59-01:00", "2026-03-01"))).containsExactly(Instant.parse("2026-03-01T00:00:00Z"));
        // the controls: the last and first instants that are still four-digit UTC years are dates
        assertThat(Metadata.dateOrNull("9999-12-31T23:59:59Z")).isEqualTo(Instant.parse("9999-12-31T23:59:59Z"));
        assertThat(Metadata.dateOrNull("0000-01-01T01:00:00+01:00")).isEqualTo(Instant.parse("0000-01-01T00:00:00Z"));
        assertThat(Metadata.dateOrNull("2026-02-30")).isNull();
    }

    /** {@code crawlId} is a source field: the pipeline adds it to every crawled page, beside the caller's 32 keys. */
    @Test
    void crawlIdIsASourceFieldThatCountsNotAmongTheCallersKeys() {
        assertThatThrownBy(() -> Metadata.fromCaller(Map.of("crawlId", "x"))).hasMessageContaining("'crawlId' is a source field");
        assertThatThrownBy(() -> Metadata.fromCaller(Map.of("CrawlID", "x"))).hasMessageContaining("in another case a source field");
        Map<String, Object> page = new HashMap<>(keys(32));
        page.putAll(Map.of("crawlId", "c1", "url", "https://example.org/a", "host", "example.org", "title", "A"));
        assertThat(Metadata.normalise(page, true)).hasSize(36).containsEntry("crawlId", "c1");
        assertThat(new EventCodec().fromJson(arrivedWith(page), DocumentArrived.class).metadata()).containsEntry("crawlId", "c1");
        // the control: a 33rd caller key is still too many
        Map<String, Object> tooMany = new HashMap<>(page);
        tooMany.put("k32", "v");
        assertThatThrownBy(() -> Metadata.normalise(tooMany, true)).hasMessageContaining("33 keys; at most 32");
    }

    private static Map<String, Object> keys(int count) {
        Map<String, Object> keys = new HashMap<>();
        for (int i = 0; i < count; i++) {
            keys.put("k" + i, "v");
        }
        return keys;
    }

    /** A crawled URL or a synced path may be longer than a caller's value; a caller's limit stays. */
    @Test
    void sourceFieldsTakeLongerValuesThanCallerKeys() {
        String longUrl = "https://example.org/" + "a".repeat(5000);
        assertThat(Metadata.normalise(Map.of("url", longUrl, "path", "p/".repeat(4096)), true)).containsEntry("url", longUrl);
        assertThat(new EventCodec().fromJson(arrivedWith(Map.of("url", longUrl)), DocumentArrived.class).metadata())
                .containsEntry("url", longUrl);
        assertThat(Metadata.normalise(Map.of("url", "u".repeat(Metadata.MAX_SOURCE_VALUE_LENGTH)), true)).hasSize(1);
        assertThatThrownBy(() -> Metadata.normalise(Map.of("url", "u".repeat(Metadata.MAX_SOURCE_VALUE_LENGTH + 1)), true))
                .hasMessageContaining("at most 8192");
        // the controls: a caller key's value keeps its 1024, in a request and in an event (memory's keys alike)
        assertThatThrownBy(() -> Metadata.normalise(Map.of("team", "x".repeat(1025)), true)).hasMessageContaining("at most 1024");
        assertThatThrownBy(() -> new EventCodec().fromJson(arrivedWith(Map.of("team", longUrl)), DocumentArrived.class))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("at most 1024");
        assertThatThrownBy(() -> new EventCodec().fromJson(arrivedWith(Map.of("tags", List.of(longUrl))), DocumentArrived.class))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("at most 1024");
    }

    /** OpenSearch keeps dates to the millisecond; Neo4j would keep nanoseconds and filters would part them. */
    @Test
    void datesAreKeptToTheMillisecond() {
        assertThat(Metadata.dateOrNull("2026-03-01T10:00:00.123456789Z")).isEqualTo(Instant.parse("2026-03-01T10:00:00.123Z"));
        assertThat(Metadata.dateOrNull("2026-03-01T12:00:00.9999+02:00")).isEqualTo(Instant.parse("2026-03-01T10:00:00.999Z"));
        assertThat(Metadata.fromCaller(Map.of("at", "2026-03-01T10:00:00.0005Z"))).containsEntry("at", Instant.parse("2026-03-01T10:00:00Z"));
        assertThat(Metadata.datesIn(List.of("2026-03-01T10:00:00.123999Z"))).containsExactly(Instant.parse("2026-03-01T10:00:00.123Z"));
        assertThat(Metadata.value("at", Instant.parse("2026-03-01T10:00:00.123999Z"))).isEqualTo(Instant.parse("2026-03-01T10:00:00.123Z"));
        // the control: milliseconds stay
        assertThat(Metadata.dateOrNull("2026-03-01T10:00:00.123Z")).isEqualTo(Instant.parse("2026-03-01T10:00:00.123Z"));
    }

    /** Integers past 2^53 would read back (and match) as a neighbour in the stores, which compare doubles. */
    @Test
    void integersBeyondTwoToTheFiftyThirdAreRefusedWithAdvice() {
        long limit = 1L << 53;
        for (Object big : List.of(limit + 1, -(limit + 1), Long.MAX_VALUE, Long.MIN_VALUE,
                new java.math.BigInteger("12345678901234567890"), new java.math.BigInteger("9".repeat(400)))) {
            assertThatThrownBy(() -> Metadata.fromCaller(Map.of("id", big))).as(big.toString())
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'id' is the integer")
                    .hasMessageContaining("send it as a string");
        }
        String json = arrivedWith(Map.of("id", 1)).replace("\"id\":1", "\"id\":12345678901234567890");
        assertThatThrownBy(() -> new EventCodec().fromJson(json, DocumentArrived.class)).isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("send it as a string");
        // the controls: integers up to 2^53 stay exact longs (1e15 + 1 too), fractions and floats stay doubles
        assertThat(Metadata.fromCaller(Map.of("id", limit, "neg", -limit, "big", 1_000_000_000_000_001L, "small", 7)))
                .containsEntry("id", limit).containsEntry("neg", -limit).containsEntry("big", 1_000_000_000_000_001L)
                .containsEntry("small", 7L);
        assertThat(Metadata.fromCaller(Map.of("year", 2026.0, "score", 4.5, "huge", 1.5e20)))
                .containsEntry("year", 2026L).containsEntry("score", 4.5).containsEntry("huge", 1.5e20);
        assertThat(new EventCodec().fromJson(json.replace("12345678901234567890", "9007199254740992"), DocumentArrived.class).metadata())
                .containsEntry("id", limit);
    }

    /**
     * Caller metadata of exactly {@code bytes} bytes as JSON: keys {@code k0…} with lists of {@code unit} repeated (each
     * key and list well within its own limits), the last item cut to land on the size; unit is one character of 1, 2 or
     * 3 UTF-8 bytes.
     */
    static Map<String, Object> metadataOfBytes(int bytes, String unit) {
        Map<String, Object> metadata = new java.util.LinkedHashMap<>();
        int unitBytes = unit.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        for (int key = 0; jsonBytes(metadata) < bytes; key++) {
            List<String> items = new java.util.ArrayList<>();
            metadata.put("k" + key, items);
            while (items.size() < 8 && jsonBytes(metadata) < bytes) {
                items.add(unit.repeat(1000));
            }
        }
        // trim the last item to the size (its characters are all unitBytes long)
        @SuppressWarnings("unchecked")
        List<String> last = (List<String>) metadata.values().stream().reduce((a, b) -> b).orElseThrow();
        int over = jsonBytes(metadata) - bytes;
        String item = last.remove(last.size() - 1);
        last.add(item.substring(0, item.length() - (over + unitBytes - 1) / unitBytes));
        assertThat(jsonBytes(metadata)).as("built to size").isBetween(bytes - unitBytes + 1, bytes);
        return metadata;
    }

    static int jsonBytes(Map<String, Object> metadata) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsBytes(metadata).length;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The whole of a caller's metadata has a cap (bytes as JSON, not characters), from every way in; just under it passes. */
    @Test
    @SuppressWarnings("unchecked")
    void theTotalOfACallersMetadataIsCappedInBytes() {
        for (String unit : List.of("x", "é", "€")) {
            Map<String, Object> atLimit = metadataOfBytes(Metadata.MAX_TOTAL_BYTES, unit);
            assertThat(Metadata.fromCaller(atLimit)).as("at the limit, " + unit).hasSameSizeAs(atLimit);
            Map<String, Object> over = metadataOfBytes(Metadata.MAX_TOTAL_BYTES + 3, unit);
            assertThatThrownBy(() -> Metadata.fromCaller(over)).as("over, " + unit).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("bytes as JSON").hasMessageContaining("at most 65536 are allowed in all")
                    .hasMessageContaining(Metadata.MAX_TOTAL_BYTES_PROPERTY);
        }
        // 30,000 three-byte characters: under the limit in characters, over it in bytes
        Map<String, Object> wide = metadataOfBytes(90_000, "€");
        assertThat(wide.values().stream().mapToInt(v -> String.join("", (List<String>) v).length()).sum()).isLessThan(Metadata.MAX_TOTAL_BYTES);
        assertThatThrownBy(() -> Metadata.fromCaller(wide)).hasMessageContaining("at most 65536");
        // a producer's (the Kafka event's) source fields do not count: the pipeline bounds each of them itself
        Map<String, Object> withSource = new java.util.LinkedHashMap<>(metadataOfBytes(Metadata.MAX_TOTAL_BYTES - 100, "x"));
        withSource.put("url", "https://example.org/" + "p".repeat(8000));
        withSource.put("title", "t".repeat(8000));
        assertThat(Metadata.fromProducer(withSource)).containsKeys("url", "title");
        withSource.put("team", "p".repeat(200));
        assertThatThrownBy(() -> Metadata.fromProducer(withSource)).hasMessageContaining("at most 65536");
        // the pipeline's own reading back (normalise) is not capped: a lowered cap never breaks stored documents
        assertThat(Metadata.normalise(over(), true)).isNotEmpty();
    }

    private static Map<String, Object> over() {
        return metadataOfBytes(Metadata.MAX_TOTAL_BYTES + 1000, "x");
    }

    /** The cap is set by {@value Metadata#MAX_TOTAL_BYTES_PROPERTY}; a value that is no positive number is said to be wrong. */
    @Test
    void theTotalCapIsConfigurable() {
        Map<String, Object> small = metadataOfBytes(2000, "x");
        String before = System.getProperty(Metadata.MAX_TOTAL_BYTES_PROPERTY);
        try {
            System.setProperty(Metadata.MAX_TOTAL_BYTES_PROPERTY, "1999");
            assertThatThrownBy(() -> Metadata.fromCaller(small)).hasMessageContaining("at most 1999 are allowed");
            System.setProperty(Metadata.MAX_TOTAL_BYTES_PROPERTY, "2000");
            assertThat(Metadata.fromCaller(small)).hasSameSizeAs(small);
            System.setProperty(Metadata.MAX_TOTAL_BYTES_PROPERTY, "lots");
            assertThatThrownBy(() -> Metadata.fromCaller(small)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("must be a positive number of bytes, got 'lots'");
        } finally {
            if (before == null) {
                System.clearProperty(Metadata.MAX_TOTAL_BYTES_PROPERTY);
            } else {
                System.setProperty(Metadata.MAX_TOTAL_BYTES_PROPERTY, before);
            }
        }
    }

    /** The Kafka event over the cap is invalid (a dead letter with the reason); one just under is read. */
    @Test
    void aKafkaEventOverTheTotalCapIsInvalid() {
        String over = arrivedWith(metadataOfBytes(Metadata.MAX_TOTAL_BYTES + 1, "x"));
        assertThatThrownBy(() -> new EventCodec().fromJson(over, DocumentArrived.class)).isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("$.metadata").hasMessageContaining("at most 65536 are allowed in all");
        String under = arrivedWith(metadataOfBytes(Metadata.MAX_TOTAL_BYTES, "x"));
        assertThat(new EventCodec().fromJson(under, DocumentArrived.class).metadata()).isNotEmpty();
    }
}
