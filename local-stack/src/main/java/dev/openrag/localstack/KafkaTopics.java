package dev.openrag.localstack;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;

import dev.openrag.schemas.Topics;

/** Creates the topics of ARCHITECTURE §3 (idempotent: existing topics are left as they are). */
public final class KafkaTopics {

    /** Partitions per topic: documents are keyed by id, so this bounds each stage's parallelism. */
    public static final int DEFAULT_PARTITIONS = 4;
    /** Whole documents travel inline; 16 MiB leaves room for base64 of the default max upload. */
    public static final int MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

    private KafkaTopics() {
    }

    /** @return the topics that were missing and got created */
    public static List<String> ensure(String bootstrapServers) {
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        try (Admin admin = Admin.create(properties)) {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> missing = Topics.ALL.stream()
                    .filter(topic -> !existing.contains(topic))
                    .map(topic -> new NewTopic(topic, DEFAULT_PARTITIONS, (short) 1)
                            .configs(Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(MAX_MESSAGE_BYTES))))
                    .toList();
            if (!missing.isEmpty()) {
                admin.createTopics(missing).all().get(60, TimeUnit.SECONDS);
            }
            return missing.stream().map(NewTopic::name).toList();
        } catch (ExecutionException e) {
            throw new LocalStackException("creating Kafka topics on " + bootstrapServers + " failed: " + e.getCause().getMessage(), e);
        } catch (Exception e) {
            throw new LocalStackException("creating Kafka topics on " + bootstrapServers + " failed: " + e, e);
        }
    }
}
