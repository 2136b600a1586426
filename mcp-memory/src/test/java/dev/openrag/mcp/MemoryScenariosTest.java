package dev.openrag.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import dev.openrag.cli.MemoryScenarios;
import dev.openrag.localstack.test.LocalStackTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The agent-memory scenarios of {@code openrag bench memory-scenarios} (at least 60 checks: facts about one subject,
 * compound memories, several authors, updates with and without cues, asOf, code identifiers, paraphrase among 1,000
 * notes, five languages, bare, pinned and expiring memories) through the official MCP client, on real Neo4j and Kafka,
 * with the default settings: every check passes.
 */
@QuarkusTest
@QuarkusTestResource(value = LocalStackTestResource.class, restrictToAnnotatedClass = true)
class MemoryScenariosTest {

    @TestHTTPResource("/")
    URL root;

    @Test
    void everyScenarioCheckPassesWithTheDefaults() {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        MemoryScenarios.Outcome outcome;
        try (McpTestClient mcp = McpTestClient.connect(root.toString().replaceAll("/$", ""), McpTestClient.Transport.STREAMABLE_HTTP, null)) {
            outcome = new MemoryScenarios(mcp::call).run(new PrintStream(printed, true, StandardCharsets.UTF_8));
        }
        String report = printed.toString(StandardCharsets.UTF_8);
        assertThat(outcome.total()).as("checks").isGreaterThanOrEqualTo(60);
        assertThat(report.strip()).endsWith(outcome.line());
        assertThat(outcome.failures()).as(report).isEmpty();
    }
}
