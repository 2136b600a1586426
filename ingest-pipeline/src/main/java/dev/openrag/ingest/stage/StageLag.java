package dev.openrag.ingest.stage;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.quarkus.scheduler.Scheduled;

/**
 * {@code openrag_stage_lag_records{stage}}: each stage's lag as its consumer group sees it, the records
 * of its input topic not yet committed, summed over the partitions. It is read from the broker (the
 * group's committed offsets against the topic's end offsets), so every instance reports the same and
 * a stage waiting on a stopped engine shows its lag rising. Refreshed every
 * {@code openrag.ingest.lag-refresh} (5 s) with a bounded admin call; a refresh that fails keeps the
 * last figures (the broker's own outage shows on readiness).
 */
@ApplicationScoped
public class StageLag implements MeterBinder {

    private static final Logger LOG = Logger.getLogger(StageLag.class);

    /** Stage → the channel it consumes (its topic and group come from that channel's settings). */
    static final Map<String, String> CHANNELS = channels();

    private final Map<String, Long> lag = new ConcurrentHashMap<>();
    private final Map<String, String[]> groups = new LinkedHashMap<>();
    private final String bootstrapServers;
    private final List<Meter> meters = new CopyOnWriteArrayList<>();
    private volatile MeterRegistry registry;
    private volatile Admin admin;

    public StageLag(Config config) {
        this.bootstrapServers = config.getOptionalValue("kafka.bootstrap.servers", String.class).orElse("127.0.0.1:9092");
        CHANNELS.forEach((stage, channel) -> {
            boolean enabled = config.getOptionalValue("mp.messaging.incoming." + channel + ".enabled", Boolean.class).orElse(true);
            Optional<String> topic = config.getOptionalValue("mp.messaging.incoming." + channel + ".topic", String.class);
            Optional<String> group = config.getOptionalValue("mp.messaging.incoming." + channel + ".group.id", String.class);
            if (enabled && topic.isPresent() && group.isPresent()) {
                groups.put(stage, new String[] {topic.get(), group.get()});
            }
        });
    }

    private static Map<String, String> channels() {
        Map<String, String> channels = new LinkedHashMap<>();
        channels.put(Stages.PARSE, "arrived-in");
        channels.put(Stages.CHUNK, "parsed-in");
        channels.put(Stages.CONTEXTUALIZE, "chunked-in");
        channels.put(Stages.EMBED, "contextualized-embed");
        channels.put(Stages.EXTRACT_GRAPH, "contextualized-graph");
        channels.put(Stages.SINK_TEXT, "chunked-text");
        channels.put(Stages.SINK_OPENSEARCH, "embedded-opensearch");
        channels.put(Stages.SINK_NEO4J, "embedded-neo4j");
        channels.put(Stages.SINK_GRAPH, "graph-neo4j");
        channels.put(Stages.SINK_QDRANT, "embedded-qdrant");
        return java.util.Collections.unmodifiableMap(channels); // flow order, for listings
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        this.registry = registry;
        groups.keySet().forEach(stage -> meters.add(Gauge.builder("openrag.stage.lag.records", lag, values -> values.getOrDefault(stage, 0L))
                .tag("stage", stage)
                .description("Records of the stage's input topic its consumer group has not committed yet, all partitions")
                .strongReference(true)
                .register(registry)));
        LOG.debugf("stage lag gauges registered for %s", groups.keySet());
    }

    /** The stages' lag as last read (stage → records), in flow order; empty before the first refresh. */
    public Map<String, Long> lag() {
        Map<String, Long> ordered = new LinkedHashMap<>();
        groups.keySet().forEach(stage -> {
            Long records = lag.get(stage);
            if (records != null) {
                ordered.put(stage, records);
            }
        });
        return ordered;
    }

    @Scheduled(every = "${openrag.ingest.lag-refresh:5s}", delay = 2, delayUnit = TimeUnit.SECONDS,
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void refresh() {
        try {
            Admin client = admin();
            for (var entry : groups.entrySet()) {
                String topic = entry.getValue()[0];
                TopicDescription description = client.describeTopics(List.of(topic)).allTopicNames()
                        .get(5, TimeUnit.SECONDS).get(topic);
                Map<TopicPartition, OffsetSpec> latest = new LinkedHashMap<>();
                description.partitions().forEach(p -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
                var ends = client.listOffsets(latest).all().get(5, TimeUnit.SECONDS);
                Map<TopicPartition, OffsetAndMetadata> committed = client.listConsumerGroupOffsets(entry.getValue()[1])
                        .partitionsToOffsetAndMetadata().get(5, TimeUnit.SECONDS);
                long records = 0;
                for (var end : ends.entrySet()) {
                    OffsetAndMetadata done = committed.get(end.getKey());
                    records += Math.max(0, end.getValue().offset() - (done == null ? 0 : done.offset()));
                }
                lag.put(entry.getKey(), records);
            }
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.debugf("stage lag not refreshed: %s", e.getMessage());
        }
    }

    private Admin admin() {
        if (admin == null) {
            synchronized (this) {
                if (admin == null) {
                    admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                            AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000,
                            AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5000));
                }
            }
        }
        return admin;
    }

    /**
     * Removes the gauges with the bean. Quarkus binds them to Micrometer's global registry, which outlives
     * an application restarted in the same JVM (tests): a gauge left there would keep the old bean's
     * figures and make the next bean's registration a no-op.
     */
    @PreDestroy
    void close() {
        if (registry != null) {
            meters.forEach(registry::remove);
        }
        if (admin != null) {
            admin.close(Duration.ofSeconds(2));
        }
    }
}
