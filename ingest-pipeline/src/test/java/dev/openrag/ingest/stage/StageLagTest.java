package dev.openrag.ingest.stage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;

/** The lag gauges' lifecycle against a global registry that outlives the application, as in a restarted test app. */
class StageLagTest {

    private final SmallRyeConfig config = new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(Map.of(
            "mp.messaging.incoming.arrived-in.topic", "openrag.documents.arrived",
            "mp.messaging.incoming.arrived-in.group.id", "openrag-parse",
            "mp.messaging.incoming.parsed-in.topic", "openrag.documents.parsed",
            "mp.messaging.incoming.parsed-in.group.id", "openrag-chunk",
            "mp.messaging.incoming.chunked-in.topic", "openrag.chunks.chunked",
            "mp.messaging.incoming.chunked-in.group.id", "openrag-contextualize",
            "mp.messaging.incoming.chunked-in.enabled", "false"), "test", 500)).build();

    @Test
    void aRestartedApplicationGetsItsOwnGaugesAndTheOldOnesGoWithTheirBean() {
        CompositeMeterRegistry global = new CompositeMeterRegistry();
        SimpleMeterRegistry first = new SimpleMeterRegistry();
        global.add(first);
        StageLag before = new StageLag(config);
        before.bindTo(global);
        assertThat(first.find("openrag.stage.lag.records").gauges()).extracting(g -> g.getId().getTag("stage"))
                .as("one gauge per enabled stage").containsExactlyInAnyOrder(Stages.PARSE, Stages.CHUNK);

        before.close();
        global.remove(first);
        assertThat(global.find("openrag.stage.lag.records").gauges()).as("nothing left behind in the global registry").isEmpty();

        SimpleMeterRegistry second = new SimpleMeterRegistry();
        global.add(second);
        new StageLag(config).bindTo(global);
        assertThat(second.find("openrag.stage.lag.records").gauges()).hasSize(2)
                .allSatisfy(gauge -> assertThat(gauge.value()).isZero());
        assertThat(second.find("openrag.stage.lag.records").gauges()).map(Gauge::getId).doesNotHaveDuplicates();
    }
}
