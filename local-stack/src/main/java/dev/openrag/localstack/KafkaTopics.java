package dev.openrag.localstack;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.ToIntFunction;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;

import dev.openrag.schemas.Topics;

/**
 * Creates the topics of ARCHITECTURE §3 (idempotent), with the status and dead-letter topics kept
 * for good ({@link #KEPT_FOREVER}). Partitions bound each stage's parallelism across instances
 * (one consumer per partition in a group): {@code OPENRAG_KAFKA_PARTITIONS} sets them for every
 * topic, {@code OPENRAG_KAFKA_PARTITIONS_<TOPIC>} for one ({@code ..._CHUNKS_CONTEXTUALIZED} for
 * {@code openrag.chunks.contextualized}). An existing topic with fewer partitions grows to the
 * number asked; Kafka cannot shrink one, so a smaller number is left as it is (docs/scaling.md).
 */
public final class KafkaTopics {

    /** Partitions per topic: documents are keyed by id, so this bounds each stage's parallelism. */
    public static final int DEFAULT_PARTITIONS = 4;
    /** Whole documents travel inline; 16 MiB leaves room for base64 of the default max upload. */
    public static final int MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

    /**
     * Job history (the status topic, from which every app rebuilds its jobs) and dead letters are
     * kept for good: the broker's default retention (7 days) would silently forget them.
     */
    public static final List<String> KEPT_FOREVER = List.of(Topics.INGEST_STATUS, Topics.INGEST_DLQ);

    private KafkaTopics() {
    }

    private static Map<String, String> configs(String topic, int brokers) {
        Map<String, String> configs = new java.util.HashMap<>(Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(MAX_MESSAGE_BYTES),
                TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, Integer.toString(minInSyncReplicas(brokers))));
        if (KEPT_FOREVER.contains(topic)) {
            configs.put(TopicConfig.RETENTION_MS_CONFIG, "-1");
            configs.put(TopicConfig.RETENTION_BYTES_CONFIG, "-1");
        }
        return configs;
    }

    /** The partitions asked for a topic by the environment (see the class comment). */
    public static int partitions(String topic, Function<String, String> environment) {
        String own = "OPENRAG_KAFKA_PARTITIONS_" + topic.replaceFirst("^openrag\\.", "").replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
        for (String variable : List.of(own, "OPENRAG_KAFKA_PARTITIONS")) {
            String value = environment.apply(variable);
            if (value != null && !value.isBlank()) {
                try {
                    int partitions = Integer.parseInt(value.strip());
                    if (partitions >= 1) {
                        return partitions;
                    }
                } catch (NumberFormatException notANumber) {
                    // falls through to the error below
                }
                throw new LocalStackException(variable + " must be a number of partitions (1 or more), got '" + value + "'");
            }
        }
        return DEFAULT_PARTITIONS;
    }

    /** Replicas of every topic: one per broker, at most three. */
    public static int replication(int brokers) {
        return Math.min(3, brokers);
    }

    /** Replicas that must have a write before it is acknowledged ({@code acks=all}): two of three, so one broker may be lost. */
    public static int minInSyncReplicas(int brokers) {
        return replication(brokers) >= 3 ? 2 : 1;
    }

    /** @return the topics that were missing and got created */
    public static List<String> ensure(String bootstrapServers) {
        return ensure(bootstrapServers, 1);
    }

    /** The same on a cluster of {@code brokers} brokers: replicated as {@link #replication} says. */
    public static List<String> ensure(String bootstrapServers, int brokers) {
        return ensure(bootstrapServers, Topics.ALL, topic -> partitions(topic, System::getenv), brokers);
    }

    /** The same for any topics, with their partitions, on one broker. */
    public static List<String> ensure(String bootstrapServers, List<String> topics, ToIntFunction<String> partitions) {
        return ensure(bootstrapServers, topics, partitions, 1);
    }

    private static List<String> ensure(String bootstrapServers, List<String> topics, ToIntFunction<String> partitions, int brokers) {
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        try (Admin admin = Admin.create(properties)) {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> missing = topics.stream()
                    .filter(topic -> !existing.contains(topic))
                    .map(topic -> new NewTopic(topic, partitions.applyAsInt(topic), (short) replication(brokers))
                            .configs(configs(topic, brokers)))
                    .toList();
            if (!missing.isEmpty()) {
                admin.createTopics(missing).all().get(60, TimeUnit.SECONDS);
            }
            Map<String, NewPartitions> grow = new java.util.HashMap<>();
            List<String> present = topics.stream().filter(existing::contains).toList();
            if (!present.isEmpty()) {
                admin.describeTopics(present).allTopicNames().get(30, TimeUnit.SECONDS).forEach((topic, description) -> {
                    if (description.partitions().size() < partitions.applyAsInt(topic)) {
                        grow.put(topic, NewPartitions.increaseTo(partitions.applyAsInt(topic)));
                    }
                });
            }
            if (!grow.isEmpty()) {
                admin.createPartitions(grow).all().get(60, TimeUnit.SECONDS);
            }
            // topics created before these settings existed get them too
            Map<ConfigResource, java.util.Collection<AlterConfigOp>> keep = new java.util.HashMap<>();
            for (String topic : KEPT_FOREVER) {
                if (existing.contains(topic) && topics.contains(topic)) {
                    keep.put(new ConfigResource(ConfigResource.Type.TOPIC, topic), List.of(
                            new AlterConfigOp(new ConfigEntry(TopicConfig.RETENTION_MS_CONFIG, "-1"), AlterConfigOp.OpType.SET),
                            new AlterConfigOp(new ConfigEntry(TopicConfig.RETENTION_BYTES_CONFIG, "-1"), AlterConfigOp.OpType.SET)));
                }
            }
            if (!keep.isEmpty()) {
                admin.incrementalAlterConfigs(keep).all().get(60, TimeUnit.SECONDS);
            }
            return missing.stream().map(NewTopic::name).toList();
        } catch (ExecutionException e) {
            throw new LocalStackException("creating Kafka topics on " + bootstrapServers + " failed: " + e.getCause().getMessage(), e);
        } catch (Exception e) {
            throw new LocalStackException("creating Kafka topics on " + bootstrapServers + " failed: " + e, e);
        }
    }
}
