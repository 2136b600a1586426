package dev.openrag.ingest.dlq;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.openrag.knowledge.runtime.ApiException;
import dev.openrag.schemas.DeadLetter;
import dev.openrag.schemas.EventCodec;
import dev.openrag.schemas.Topics;

/**
 * The dead-letter topic as a list and a way back: letters are read from {@code openrag.ingest.dlq}
 * itself (the topic is the store, so every instance sees the same letters and a restart forgets
 * nothing), and a redrive re-publishes each original to the topic it came from under a new job.
 * A letter stays on the topic after its redrive; the new job tells whether it landed.
 */
@ApplicationScoped
public class DeadLetters {

    /** Topics a dead letter's original may be sent back to: the pipeline's inputs, not status or the DLQ itself. */
    static final Set<String> REDRIVABLE = Set.of(Topics.DOCUMENTS_ARRIVED, Topics.DOCUMENTS_PARSED, Topics.CHUNKS_CHUNKED,
            Topics.CHUNKS_CONTEXTUALIZED, Topics.CHUNKS_EMBEDDED, Topics.GRAPH_EXTRACTED);

    /** Letters kept while reading, newest last: the listing is a window, not an archive. */
    static final int MAX_LETTERS = 10_000;

    /** One dead letter as listed: where it was, why, and the envelope of its original. */
    public record Letter(String id, String documentId, String jobId, String collection, String stage, String reason,
                         String originalTopic, Instant at, int partition, long offset) {
    }

    /** What to list or redrive; null fields match anything. */
    public record Filter(String collection, String stage, String jobId, String documentId) implements Predicate<DeadLetter> {

        public boolean isEmpty() {
            return collection == null && stage == null && jobId == null && documentId == null;
        }

        @Override
        public boolean test(DeadLetter letter) {
            return (collection == null || collection.equals(letter.collection())) && (stage == null || stage.equals(letter.stage()))
                    && (jobId == null || jobId.equals(letter.jobId())) && (documentId == null || documentId.equals(letter.documentId()));
        }
    }

    private record Read(DeadLetter letter, ConsumerRecord<String, String> record) {
    }

    private final EventCodec codec;
    private final String bootstrapServers;
    private final ObjectMapper json = new ObjectMapper();

    public DeadLetters(EventCodec codec, @ConfigProperty(name = "kafka.bootstrap.servers") String bootstrapServers) {
        this.codec = codec;
        this.bootstrapServers = bootstrapServers;
    }

    /** The newest letters matching {@code filter}, newest first, at most {@code limit}. */
    public List<Letter> list(Filter filter, int limit) {
        List<Letter> letters = new ArrayList<>();
        read(filter).descendingIterator().forEachRemaining(read -> {
            if (letters.size() < limit) {
                DeadLetter letter = read.letter();
                letters.add(new Letter(letter.eventId(), letter.documentId(), letter.jobId(), letter.collection(), letter.stage(),
                        letter.reason(), letter.originalTopic(), Instant.ofEpochMilli(read.record().timestamp()),
                        read.record().partition(), read.record().offset()));
            }
        });
        return letters;
    }

    /** One original to send back: to its topic, keyed by its document, with the new job id in it. */
    public record Resend(String topic, String documentId, String collection, String event) {
    }

    /** A redrive's plan: the new job, what to re-send, and letters that cannot be re-sent, with why. */
    public record Redrive(String jobId, List<Resend> resends, List<String> skipped) {
    }

    /**
     * The letters matching {@code filter} (the newest letter per document: a document that failed
     * twice is re-driven once), their originals with {@code jobId} set to a new job.
     */
    public Redrive planRedrive(Filter filter) {
        Map<String, Read> latestPerDocument = new LinkedHashMap<>();
        for (Read read : read(filter)) {
            String key = read.letter().documentId() != null ? read.letter().documentId() : read.letter().eventId();
            latestPerDocument.remove(key);
            latestPerDocument.put(key, read);
        }
        String jobId = "redrive-" + UUID.randomUUID();
        List<Resend> resends = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (Read read : latestPerDocument.values()) {
            DeadLetter letter = read.letter();
            if (letter.originalTopic() == null || !REDRIVABLE.contains(letter.originalTopic()) || letter.documentId() == null) {
                skipped.add(letter.eventId() + ": no original topic or document to send it back to");
                continue;
            }
            try {
                ObjectNode original = (ObjectNode) json.readTree(letter.originalEvent());
                if (!letter.documentId().equals(original.path("documentId").asText())) {
                    skipped.add(letter.eventId() + ": the original is not the document's event (a refused upload?); re-send it at the source");
                    continue;
                }
                original.put("jobId", jobId);
                original.put("eventId", UUID.randomUUID().toString());
                resends.add(new Resend(letter.originalTopic(), letter.documentId(), original.path("collection").asText(),
                        json.writeValueAsString(original)));
            } catch (java.io.IOException | ClassCastException e) {
                skipped.add(letter.eventId() + ": the original is not a JSON event; fix and re-send it at the source");
            }
        }
        return new Redrive(jobId, resends, skipped);
    }

    /** Reads the topic from its start to its current end, keeping the newest {@link #MAX_LETTERS} matches. */
    private Deque<Read> read(Filter filter) {
        Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Integer.toString(16 * 1024 * 1024));
        properties.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000");
        properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        Deque<Read> found = new ArrayDeque<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(properties)) {
            List<TopicPartition> partitions = consumer.partitionsFor(Topics.INGEST_DLQ, Duration.ofSeconds(10)).stream()
                    .map(info -> new TopicPartition(info.topic(), info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(10));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new ApiException(503, "unavailable", "reading the dead-letter topic took longer than 30 s");
                }
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    DeadLetter letter;
                    try {
                        letter = codec.fromJson(record.value(), DeadLetter.class);
                    } catch (RuntimeException e) {
                        continue; // not a dead letter: nothing to list or redrive
                    }
                    if (filter.test(letter)) {
                        found.addLast(new Read(letter, record));
                        if (found.size() > MAX_LETTERS) {
                            found.removeFirst();
                        }
                    }
                }
            }
        }
        return found;
    }
}
