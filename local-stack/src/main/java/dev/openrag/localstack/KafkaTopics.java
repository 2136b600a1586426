package dev.openrag.localstack;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;

import dev.openrag.schemas.Topics;

/**
 * Creates the topics of ARCHITECTURE §3 (idempotent: existing topics keep their partitions), with
 * the status and dead-letter topics kept for good ({@link #KEPT_FOREVER}).
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

    private static Map<String, String> configs(String topic) {
        Map<String, String> configs = new java.util.HashMap<>(Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(MAX_MESSAGE_BYTES)));
        if (KEPT_FOREVER.contains(topic)) {
            configs.put(TopicConfig.RETENTION_MS_CONFIG, "-1");
            configs.put(TopicConfig.RETENTION_BYTES_CONFIG, "-1");
        }
        return configs;
    }

    /** @return the topics that were missing and got created */
    public static List<String> ensure(String bootstrapServers) {
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        try (Admin admin = Admin.create(properties)) {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> missing = Topics.ALL.stream()
                    .filter(topic -> !existing.contains(topic))
                    .map(topic -> new NewTopic(topic, DEFAULT_PARTITIONS, (short) 1).configs(configs(topic)))
                    .toList();
            if (!missing.isEmpty()) {
                admin.createTopics(missing).all().get(60, TimeUnit.SECONDS);
            }
            // topics created before these settings existed get them too
            Map<ConfigResource, java.util.Collection<AlterConfigOp>> keep = new java.util.HashMap<>();
            for (String topic : KEPT_FOREVER) {
                if (existing.contains(topic)) {
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
