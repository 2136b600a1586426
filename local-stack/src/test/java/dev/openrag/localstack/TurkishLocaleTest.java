package dev.openrag.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.openrag.schemas.DocumentDeleted;
import dev.openrag.schemas.EventEnvelope;
import dev.openrag.schemas.EventCodec;
import dev.openrag.schemas.EventType;
import dev.openrag.schemas.Topics;

/**
 * Names that machines read (environment variables, topics, JSON fields, progress lines) come out the same under a
 * Turkish default locale, where "i".toUpperCase() is "İ" and "I".toLowerCase() is "ı", and a far-off time zone.
 */
class TurkishLocaleTest {

    private Locale locale;
    private TimeZone zone;

    @BeforeEach
    void turkishAndChatham() {
        locale = Locale.getDefault();
        zone = TimeZone.getDefault();
        Locale.setDefault(Locale.forLanguageTag("tr-TR"));
        TimeZone.setDefault(TimeZone.getTimeZone("Pacific/Chatham"));
    }

    @AfterEach
    void restore() {
        Locale.setDefault(locale);
        TimeZone.setDefault(zone);
    }

    @Test
    void theDefaultLocaleReallyIsTurkish() {
        // the control: without it every other test here could pass for the wrong reason
        assertThat("ingest_dlq".toUpperCase()).isEqualTo("İNGEST_DLQ");
        assertThat(String.format("%.1f", 16.8)).isEqualTo("16,8");
    }

    @Test
    void everyTopicsPartitionVariableIsAsciiUpperCase() {
        List<String> asked = new ArrayList<>();
        for (String topic : Topics.ALL) {
            KafkaTopics.partitions(topic, variable -> {
                asked.add(variable);
                return null;
            });
        }
        assertThat(asked).allMatch(variable -> variable.matches("[A-Z0-9_]+"), "ASCII upper case")
                .contains("OPENRAG_KAFKA_PARTITIONS_INGEST_DLQ", "OPENRAG_KAFKA_PARTITIONS_CHUNKS_CONTEXTUALIZED",
                        "OPENRAG_KAFKA_PARTITIONS_DOCUMENTS_ARRIVED");
        assertThat(KafkaTopics.partitions(Topics.INGEST_DLQ, Map.of("OPENRAG_KAFKA_PARTITIONS_INGEST_DLQ", "7")::get)).isEqualTo(7);
    }

    @Test
    void eventJsonKeepsItsFieldNamesAndPassesItsSchema() {
        EventCodec codec = new EventCodec();
        JsonNode tree = codec.toTree(new DocumentDeleted(EventEnvelope.CURRENT_SCHEMA_VERSION, "e-İı", "doc-i", "job-I", "docs"));
        assertThat(tree.fieldNames()).toIterable().containsExactlyInAnyOrder("schemaVersion", "eventId", "documentId", "jobId", "collection", "deletedAt");
        assertThat(codec.validate(EventType.DOCUMENT_DELETED, tree)).isEmpty();
        assertThat(codec.fromJson(codec.toJson(new DocumentDeleted(EventEnvelope.CURRENT_SCHEMA_VERSION, "e1", "d1", "j1", "docs")), DocumentDeleted.class).jobId())
                .isEqualTo("j1");
    }

    @Test
    void aProgressLineHasADecimalPointAndPlainDigits() {
        ComponentSpec spec = new ComponentSpec("kafka", 9092, List.of(), List.of(), Map.of(), ComponentSpec.Preparation.NONE,
                () -> true, Duration.ofSeconds(1));
        assertThat(LocalStack.progressLine(spec, Duration.ofMillis(16_800))).isEqualTo("kafka        ready on 127.0.0.1:9092 (16.8 s)");
        assertThat(LocalStack.progressLine(spec, null)).isEqualTo("kafka        already running on 127.0.0.1:9092");
    }

    @Test
    void childJvmsRunInEnglishAndUtc() {
        assertThat(JavaRuntime.commonOptions(null)).contains("-Duser.language=en", "-Duser.country=US", "-Duser.timezone=UTC");
    }
}
