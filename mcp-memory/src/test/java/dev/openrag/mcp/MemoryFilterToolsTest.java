package dev.openrag.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import com.fasterxml.jackson.databind.JsonNode;

import dev.openrag.localstack.test.LocalStackTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Issue 70 item 5 through a real MCP client on real Neo4j: memories take caller metadata on every way in, and
 * search_memory and list_memories filter on tags and metadata in document search's form; a bad filter or metadata is
 * a tool error that says where and why.
 */
@QuarkusTest
@WithTestResource(LocalStackTestResource.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MemoryFilterToolsTest {

    @TestHTTPResource("/")
    URL root;

    private McpTestClient mcp;

    @BeforeAll
    void connect() {
        mcp = McpTestClient.connect(root.toString().replaceAll("/$", ""), McpTestClient.Transport.STREAMABLE_HTTP, null);
    }

    @AfterAll
    void disconnect() {
        mcp.close();
    }

    private List<String> ids(JsonNode hits, String field) {
        List<String> ids = new ArrayList<>();
        hits.forEach(hit -> ids.add((field == null ? hit : hit.path(field)).path("id").asText()));
        return ids;
    }

    @Test
    void memoriesCarryMetadataAndSearchAndListingFilterOnItAndOnTags() {
        String scope = "filter-" + UUID.randomUUID().toString().substring(0, 8);
        String rota = mcp.call("add_memory", McpTestClient.args("text", "The payments on-call rota changes every Monday", "scope", scope,
                "tags", List.of("oncall"), "metadata", Map.of("team", "payments", "year", 2026, "since", "2026-01-05")))
                .get("id").asText();
        JsonNode batch = mcp.call("add_memories", McpTestClient.args("scope", scope, "memories", List.of(
                Map.of("id", scope + "-risk", "text", "The risk on-call rota changes every Tuesday", "tags", List.of("oncall"),
                        "metadata", Map.of("team", "risk", "year", 2025)),
                Map.of("id", scope + "-lunch", "text", "The payments team has lunch on Fridays", "tags", List.of("social"),
                        "metadata", Map.of("team", "payments")))));
        assertThat(batch.get("added").asInt()).isEqualTo(2);
        JsonNode stored = mcp.call("get_memory", McpTestClient.args("id", rota));
        assertThat(stored.get("metadata").get("team").asText()).isEqualTo("payments");
        assertThat(stored.get("metadata").get("since").asText()).isEqualTo("2026-01-05T00:00:00Z");
        assertThat(mcp.call("get_memory", McpTestClient.args("id", scope + "-risk")).get("metadata").get("year").asInt()).isEqualTo(2025);

        String question = "when does the on-call rota change?";
        assertThat(ids(mcp.call("search_memory", McpTestClient.args("query", question, "scope", scope)).get("results"), "memory"))
                .as("control: unfiltered").contains(rota, scope + "-risk", scope + "-lunch");
        JsonNode payments = mcp.call("search_memory", McpTestClient.args("query", question, "scope", scope, "filter", Map.of("team", "payments")));
        assertThat(ids(payments.get("results"), "memory")).containsExactlyInAnyOrder(rota, scope + "-lunch");
        assertThat(payments.get("results").get(0).get("memory").get("metadata").get("team").asText()).isEqualTo("payments");
        assertThat(ids(mcp.call("search_memory", McpTestClient.args("query", question, "scope", scope,
                "filter", Map.of("tags", "oncall", "year", Map.of("gte", 2026)))).get("results"), "memory"))
                .containsExactly(rota);
        assertThat(ids(mcp.call("search_memory", McpTestClient.args("query", question, "scope", scope,
                "filter", Map.of("or", List.of(Map.of("tags", "social"), Map.of("team", "risk"))))).get("results"), "memory"))
                .containsExactlyInAnyOrder(scope + "-risk", scope + "-lunch");
        assertThat(ids(mcp.call("list_memories", McpTestClient.args("scope", scope, "filter", Map.of("tags", Map.of("in", List.of("social")))))
                .get("memories"), null)).containsExactly(scope + "-lunch");

        JsonNode updated = mcp.call("update_memory", McpTestClient.args("id", scope + "-lunch", "metadata", Map.of("team", "risk")));
        assertThat(updated.get("metadata").get("team").asText()).isEqualTo("risk");
        assertThat(ids(mcp.call("search_memory", McpTestClient.args("query", question, "scope", scope, "filter", Map.of("team", "risk")))
                .get("results"), "memory")).containsExactlyInAnyOrder(scope + "-risk", scope + "-lunch");
    }

    @Test
    void badFiltersAndMetadataAreToolErrorsSayingWhereAndWhy() {
        String scope = "filter-bad-" + UUID.randomUUID().toString().substring(0, 8);
        mcp.call("add_memory", McpTestClient.args("text", "The backup runs at night", "scope", scope, "metadata", Map.of("team", "ops")));
        assertThat(mcp.callError("search_memory", McpTestClient.args("query", "backup", "scope", scope, "filter", Map.of("team", Map.of("like", "op%")))))
                .contains("argument 'filter': filter.team.like: unknown operator 'like'");
        assertThat(mcp.callError("search_memory", McpTestClient.args("query", "backup", "scope", scope, "filter", Map.of("tags", Map.of("gte", 2)))))
                .contains("filter.tags: tags are strings, they have no range");
        assertThat(mcp.callError("list_memories", McpTestClient.args("scope", scope, "filter", Map.of("year", Map.of("gte", "soon")))))
                .contains("filter.year.gte must be a number or an ISO-8601 date");
        Object deep = Map.of("team", "ops");
        for (int i = 0; i < 8; i++) {
            deep = Map.of("or", List.of(deep));
        }
        assertThat(mcp.callError("search_memory", McpTestClient.args("query", "backup", "scope", scope, "filter", deep)))
                .contains("nests deeper than 8 levels");
        assertThat(mcp.callError("add_memory", McpTestClient.args("text", "x", "scope", scope, "metadata", Map.of("tags", "a"))))
                .contains("argument 'metadata': metadata key 'tags' is reserved");
        for (String tags : List.of("Tags", "TAGS")) {
            assertThat(mcp.callError("add_memory", McpTestClient.args("text", "x", "scope", scope, "metadata", Map.of(tags, "a"))))
                    .contains("argument 'metadata': metadata key '" + tags + "' is in another case reserved");
        }
        Map<String, Object> large = new java.util.LinkedHashMap<>();
        for (int i = 0; i < 9; i++) {
            large.put("k" + i, java.util.Collections.nCopies(8, "x".repeat(1000)));
        }
        assertThat(mcp.callError("add_memory", McpTestClient.args("text", "x", "scope", scope, "metadata", large)))
                .contains("argument 'metadata': metadata takes").contains("at most 65536 are allowed in all");
        assertThat(mcp.callError("add_memories", McpTestClient.args("scope", scope, "memories", List.of(
                Map.of("text", "y", "metadata", Map.of("team", Map.of("nested", true)))))))
                .contains("memories[0].metadata").contains("nested objects are not allowed");
        assertThat(mcp.callError("update_memory", McpTestClient.args("id", "no-such-id", "metadata", Map.of("team", "ops"))))
                .contains("no memory with id 'no-such-id'");
        // controls: the same calls within the rules
        assertThat(mcp.call("search_memory", McpTestClient.args("query", "backup", "scope", scope, "filter", Map.of("team", Map.of("prefix", "op"))))
                .get("results")).hasSize(1);
        assertThat(mcp.call("list_memories", McpTestClient.args("scope", scope, "filter", Map.of("since", Map.of("gte", "2020-01-01"))))
                .get("memories")).isEmpty();
    }
}
