package dev.openrag.ingest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.ConfigProvider;

import io.restassured.path.json.JsonPath;

/** Waiting for jobs and talking to Kafka directly, as an outside producer or consumer would. */
final class IngestTestSupport {

    private IngestTestSupport() {
    }

    static JsonPath awaitJob(String jobId, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonPath status = null;
        while (System.nanoTime() < deadline) {
            status = given().get("/api/jobs/" + jobId).then().statusCode(200).extract().jsonPath();
            if (!"running".equals(status.getString("state"))) {
                return status;
            }
            sleep(300);
        }
        throw new AssertionError("job " + jobId + " still running after " + timeout + ": " + (status == null ? "" : status.prettify()));
    }

    static JsonPath stats(String collection) {
        return given().get("/api/collections/" + collection + "/stats").then().statusCode(200).extract().jsonPath();
    }

    static String bootstrapServers() {
        return ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class);
    }

    static void produce(String topic, String key, String value) throws Exception {
        Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties)) {
            producer.send(new ProducerRecord<>(topic, key, value)).get();
        }
    }

    /** Writes a record with the given timestamp, as a producer, a replay or a slow stage would deliver it. */
    static org.apache.kafka.clients.producer.RecordMetadata send(String topic, String key, String value, long timestamp) throws Exception {
        Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties)) {
            return producer.send(new ProducerRecord<>(topic, null, timestamp, key, value)).get();
        }
    }

    /** Until the consumer group has committed past the record: its consumer has handled it. */
    static void awaitConsumed(String group, org.apache.kafka.clients.producer.RecordMetadata record, Duration timeout) throws Exception {
        var partition = new org.apache.kafka.common.TopicPartition(record.topic(), record.partition());
        long deadline = System.nanoTime() + timeout.toNanos();
        try (var admin = org.apache.kafka.clients.admin.Admin.create(Map.of(
                org.apache.kafka.clients.admin.AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
            while (true) {
                var committed = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().get(partition);
                if (committed != null && committed.offset() > record.offset()) {
                    return;
                }
                assertThat(System.nanoTime()).as(group + " commits past offset " + record.offset()).isLessThan(deadline);
                sleep(300);
            }
        }
    }

    /** Every record on a topic whose value contains {@code marker}, waiting until at least {@code expected} arrived. */
    static List<String> readUntil(String topic, String marker, int expected, Duration timeout) {
        List<String> found = read(bootstrapServers(), topic, marker, expected, timeout);
        assertThat(found).as("records on " + topic + " containing " + marker).hasSizeGreaterThanOrEqualTo(expected);
        return found;
    }

    /**
     * Every record on a topic whose value contains {@code marker}, read to (at least) the topic's end when called: all
     * that the app's acknowledged sends put there before, with no fixed time waited out.
     */
    static List<String> readAll(String topic, String marker) {
        return readAll(bootstrapServers(), topic, marker);
    }

    /** The same from a given broker, for tests outside a Quarkus app. */
    static List<String> readAll(String bootstrapServers, String topic, String marker) {
        Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        List<String> found = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(properties)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(partition -> new TopicPartition(topic, partition.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, Duration.ofSeconds(30));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (partitions.stream().anyMatch(partition -> consumer.position(partition, Duration.ofSeconds(30)) < ends.get(partition))) {
                assertThat(System.nanoTime()).as("reading " + topic + " to its end " + ends).isLessThan(deadline);
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    if (record.value().contains(marker)) {
                        found.add(record.value());
                    }
                }
            }
        }
        return found;
    }

    private static List<String> read(String bootstrapServers, String topic, String marker, int expected, Duration timeout) {
        Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ConsumerConfig.GROUP_ID_CONFIG, "test-reader-" + System.nanoTime());
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        List<String> found = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(properties)) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + timeout.toNanos();
            while (found.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    if (record.value().contains(marker)) {
                        found.add(record.value());
                    }
                }
            }
        }
        return found;
    }

    static Map<String, Object> textDocument(String collection, String uri, String title, String text) {
        return Map.of("collection", collection, "uri", uri, "title", title, "text", text);
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
