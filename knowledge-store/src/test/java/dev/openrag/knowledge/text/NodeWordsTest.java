package dev.openrag.knowledge.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NodeWordsTest {

    @Test
    void anIdentifierKeepsItsNameAndGainsItsWords() {
        assertThat(NodeWords.entity("GlasshouseWateringPlanner")).isEqualTo("GlasshouseWateringPlanner (glasshouse watering planner)");
        assertThat(NodeWords.entity("pre_exec_all")).isEqualTo("pre_exec_all (pre exec all)");
        assertThat(NodeWords.entity("HTTPClientConfig")).isEqualTo("HTTPClientConfig (http client config)");
        assertThat(NodeWords.entity("kafka-topic")).isEqualTo("kafka-topic (kafka topic)");
    }

    @Test
    void aPlainNameIsLeftAlone() {
        assertThat(NodeWords.entity("executor")).isEqualTo("executor");
        assertThat(NodeWords.entity("  Garden Beds ")).as("differs only in case").isEqualTo("Garden Beds");
    }

    @Test
    void anOperationLeadsWithItsSummary() {
        assertThat(NodeWords.operation("startWatering", "POST", "/beds/{bedId}/watering", "Start watering a bed"))
                .isEqualTo("Start watering a bed. startWatering (start watering): POST /beds/{bedId}/watering");
        assertThat(NodeWords.operation("GET /pets", "GET", "/pets", null)).isEqualTo("GET /pets (get pets): GET /pets");
    }

    @Test
    void hostileLengthsAreClipped() {
        assertThat(NodeWords.entity("a".repeat(5000))).hasSize(400);
        assertThat(NodeWords.operation("x", "GET", "/" + "p".repeat(5000), "s".repeat(5000))).hasSize(400);
    }
}
