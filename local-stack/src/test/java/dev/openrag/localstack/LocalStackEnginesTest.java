package dev.openrag.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.Record;

import dev.openrag.localstack.test.LocalStackExtension.WithEngines;
import dev.openrag.schemas.Topics;

/** The three real engines started by local-stack do real work. */
@WithEngines
class LocalStackEnginesTest {

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void topicPartitionsComeFromTheEnvironmentGrowButNeverShrink(StackConfig config) throws Exception {
        String topic = "test.partitions." + System.nanoTime();
        assertThat(KafkaTopics.ensure(config.kafkaBootstrapServers(), List.of(topic), t -> 2)).containsExactly(topic);
        assertThat(KafkaTopics.ensure(config.kafkaBootstrapServers(), List.of(topic), t -> 6)).as("grown, not created").isEmpty();
        KafkaTopics.ensure(config.kafkaBootstrapServers(), List.of(topic), t -> 3);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", config.kafkaBootstrapServers()))) {
            assertThat(admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions())
                    .as("grew to 6, and a smaller number later does not shrink it").hasSize(6);
        }

        Map<String, String> environment = Map.of("OPENRAG_KAFKA_PARTITIONS", "8", "OPENRAG_KAFKA_PARTITIONS_CHUNKS_CONTEXTUALIZED", "12");
        assertThat(KafkaTopics.partitions(Topics.CHUNKS_CONTEXTUALIZED, environment::get)).isEqualTo(12);
        assertThat(KafkaTopics.partitions(Topics.DOCUMENTS_ARRIVED, environment::get)).isEqualTo(8);
        assertThat(KafkaTopics.partitions(Topics.DOCUMENTS_ARRIVED, variable -> null)).isEqualTo(KafkaTopics.DEFAULT_PARTITIONS);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> KafkaTopics.partitions(Topics.INGEST_DLQ,
                        Map.of("OPENRAG_KAFKA_PARTITIONS_INGEST_DLQ", "0")::get))
                .hasMessage("OPENRAG_KAFKA_PARTITIONS_INGEST_DLQ must be a number of partitions (1 or more), got '0'");
    }

    @Test
    void kafkaHasEveryTopicAndCarriesMessagesInOrder(StackConfig config) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", config.kafkaBootstrapServers()))) {
            Set<String> names = admin.listTopics().names().get(10, TimeUnit.SECONDS);
            assertThat(names).containsAll(Topics.ALL);
            assertThat(admin.describeTopics(List.of(Topics.DOCUMENTS_ARRIVED)).allTopicNames().get()
                    .get(Topics.DOCUMENTS_ARRIVED).partitions()).hasSize(KafkaTopics.DEFAULT_PARTITIONS);
        }
        assertThat(KafkaTopics.ensure(config.kafkaBootstrapServers())).as("second ensure creates nothing").isEmpty();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", config.kafkaBootstrapServers()))) {
            for (String topic : List.of(Topics.INGEST_STATUS, Topics.INGEST_DLQ)) {
                var resource = new org.apache.kafka.common.config.ConfigResource(org.apache.kafka.common.config.ConfigResource.Type.TOPIC, topic);
                var configs = admin.describeConfigs(List.of(resource)).all().get(10, TimeUnit.SECONDS).get(resource);
                assertThat(configs.get("retention.ms").value()).as(topic + " keeps job history and dead letters for good").isEqualTo("-1");
            }
        }

        Properties producerProps = new Properties();
        producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, config.kafkaBootstrapServers());
        producerProps.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        producerProps.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps)) {
            for (int i = 0; i < 3; i++) {
                producer.send(new ProducerRecord<>(Topics.INGEST_STATUS, "doc-1", "event-" + i)).get();
            }
        }

        Properties consumerProps = new Properties();
        consumerProps.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.kafkaBootstrapServers());
        consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, "local-stack-test");
        consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumerProps.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        consumerProps.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerProps)) {
            consumer.subscribe(List.of(Topics.INGEST_STATUS));
            List<String> values = new java.util.ArrayList<>();
            long deadline = System.currentTimeMillis() + 30_000;
            while (values.size() < 3 && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    values.add(record.value());
                }
            }
            assertThat(values).containsExactly("event-0", "event-1", "event-2");
        }
    }

    @Test
    void neo4jAnswersCypherWithAVectorIndexQuery(StackConfig config) {
        try (Driver driver = GraphDatabase.driver(config.neo4jUri(), AuthTokens.none());
             var session = driver.session()) {
            session.run("CREATE VECTOR INDEX probe_vectors IF NOT EXISTS FOR (n:Probe) ON n.embedding "
                    + "OPTIONS {indexConfig: {`vector.dimensions`: 3, `vector.similarity_function`: 'cosine'}}").consume();
            session.run("UNWIND $rows AS row CREATE (p:Probe {name: row.name}) "
                            + "WITH p, row CALL db.create.setNodeVectorProperty(p, 'embedding', row.vector)",
                    Map.of("rows", List.of(
                            Map.of("name", "east", "vector", List.of(1.0, 0.0, 0.0)),
                            Map.of("name", "north", "vector", List.of(0.0, 1.0, 0.0)),
                            Map.of("name", "north-east", "vector", List.of(0.7, 0.7, 0.0))))).consume();
            session.run("CALL db.awaitIndexes(60)").consume();

            List<Record> hits = session.run("CALL db.index.vector.queryNodes('probe_vectors', 2, $query) "
                    + "YIELD node, score RETURN node.name AS name, score", Map.of("query", List.of(0.9, 0.1, 0.0))).list();

            assertThat(hits).extracting(r -> r.get("name").asString()).containsExactly("east", "north-east");
            assertThat(hits.get(0).get("score").asDouble()).isGreaterThan(hits.get(1).get("score").asDouble());
        }
    }

    @Test
    void openSearchRanksByBm25WithTheEnglishAnalyzer(StackConfig config) throws Exception {
        String index = config.openSearchUrl() + "/probe-bm25";
        send("PUT", index, """
                {"mappings": {"properties": {"text": {"type": "text", "analyzer": "english"}}}}""");
        send("PUT", index + "/_doc/1?refresh=true", "{\"text\": \"The consumers are running in parallel\"}");
        send("PUT", index + "/_doc/2?refresh=true", "{\"text\": \"A graph of entities and relations\"}");

        String hits = send("POST", index + "/_search", "{\"query\": {\"match\": {\"text\": \"consumer runs\"}}}");

        assertThat(hits).contains("\"_id\":\"1\"").doesNotContain("\"_id\":\"2\"");
    }

    private String send(String method, String url, String json) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(method + " " + url + ": " + response.body()).isBetween(200, 299);
        return response.body();
    }
}
