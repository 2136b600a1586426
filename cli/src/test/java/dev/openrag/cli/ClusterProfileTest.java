package dev.openrag.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.openrag.localstack.ComponentSpec;
import dev.openrag.localstack.LocalStackException;
import dev.openrag.localstack.StackConfig;

/** What {@code up --cluster} would start, read from the specs (the processes themselves run in ClusterFailoverIT). */
class ClusterProfileTest {

    @TempDir
    Path home;

    @Test
    void theClusterProfileRunsThreeBrokersTwoOpenSearchNodesAndTwoInstancesOfTheStatelessApps() {
        Stack.chooseCluster(home);
        Stack stack = new Stack(new StackConfig(home, 9092, 9093, 7687, 9200, 9300));

        List<String> names = stack.allSpecs().stream().map(ComponentSpec::name).toList();
        assertThat(names).containsExactly("kafka-1", "kafka-2", "kafka-3", "neo4j", "opensearch-1", "opensearch-2",
                "query-api", "ingest-pipeline", "mcp-memory", "query-api-2", "ingest-pipeline-2");
        assertThat(stack.allSpecs()).extracting(ComponentSpec::port)
                .containsExactly(9092, 9094, 9096, 7687, 9200, 9201, 8080, 8081, 8082, 8090, 8091);
        assertThat(stack.config.kafkaBootstrapServers()).isEqualTo("127.0.0.1:9092,127.0.0.1:9094,127.0.0.1:9096");
        ComponentSpec secondIngest = stack.allSpecs().get(10);
        assertThat(secondIngest.env()).containsEntry("OPENRAG_OPENSEARCH_URL", "http://127.0.0.1:9200,http://127.0.0.1:9201")
                .containsEntry("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:9092,127.0.0.1:9094,127.0.0.1:9096")
                .containsEntry("QUARKUS_HTTP_PORT", "8091");
        assertThat(stack.allSpecs().get(4).command()).as("the OpenSearch node joins its peer")
                .contains("opensearch-1", "127.0.0.1:9300,127.0.0.1:9301", "opensearch-1,opensearch-2");
        assertThat(MemoryPlan.describe(stack.allSpecs())).startsWith("memory: 11 processes, max heap 6.8 GiB");
    }

    @Test
    void theProfileIsRememberedByTheHomeAndASingleNodeHomeIsNotTurnedIntoACluster() throws Exception {
        Stack single = new Stack(new StackConfig(home, 9092, 9093, 7687, 9200, 9300));
        assertThat(single.cluster()).isFalse();
        assertThat(single.allSpecs()).extracting(ComponentSpec::name)
                .containsExactly("kafka", "neo4j", "opensearch", "query-api", "ingest-pipeline", "mcp-memory");

        Files.createDirectories(home.resolve("kafka"));
        assertThatThrownBy(() -> Stack.chooseCluster(home)).isInstanceOf(LocalStackException.class)
                .hasMessageContaining("holds a single-node stack").hasMessageContaining("OPENRAG_HOME=");
    }

    @Test
    void heapsAreReadFromEachCommandLine() {
        assertThat(MemoryPlan.maxHeapMiB(List.of("java", "-Xms64m", "-Xmx512m"))).isEqualTo(512);
        assertThat(MemoryPlan.maxHeapMiB(List.of("java", "-Xmx1g"))).isEqualTo(1024);
        assertThat(MemoryPlan.maxHeapMiB(List.of("java", "-jar", "x.jar"))).isZero();
    }
}
