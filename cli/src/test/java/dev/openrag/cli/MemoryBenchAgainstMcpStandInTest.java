package dev.openrag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code openrag bench memory}: the adds, the searches, then the searches right after an add,
 * against a stand-in for mcp-memory ({@link McpStandIn}) that records which tools were called in
 * which order.
 */
class MemoryBenchAgainstMcpStandInTest {

    private final List<String> calls = Collections.synchronizedList(new ArrayList<>());
    private McpStandIn mcp;

    @BeforeEach
    void start() {
        mcp = new McpStandIn((tool, arguments) -> {
            calls.add(tool);
            return "search_memory".equals(tool) ? Map.of("results", List.of()) : Map.of();
        });
    }

    @AfterEach
    void stop() {
        mcp.close();
    }

    private String[] bench(String... options) {
        List<String> args = new ArrayList<>(List.of("bench", "memory", "--mcp-url", mcp.url()));
        args.addAll(List.of(options));
        return RecordingServer.runWithErrors(args.toArray(String[]::new));
    }

    @Test
    void searchesRightAfterAnAddAreTimedApartAndTheLastLineKeepsItsFields() {
        String[] run = bench("--memories", "3", "--searches", "2", "--after-adds", "2");

        assertThat(run[0]).as(run[2]).isEqualTo("0");
        // 20 warm-up searches, the 3 adds, the 2 searches, then add and search in turn
        assertThat(calls).hasSize(20 + 3 + 2 + 4);
        assertThat(calls.subList(20, 25)).containsExactly("add_memory", "add_memory", "add_memory", "search_memory", "search_memory");
        assertThat(calls.subList(25, 29)).containsExactly("add_memory", "search_memory", "add_memory", "search_memory");
        List<String> lines = run[1].strip().lines().toList();
        assertThat(lines).anyMatch(line -> line.startsWith("search_memory right after an add_memory p50=") && line.endsWith("n=2"));
        assertThat(lines.getLast()).matches("memory add_p50_ms=[0-9.]+ add_p99_ms=[0-9.]+ search_p50_ms=[0-9.]+ "
                + "search_p99_ms=[0-9.]+ memories=3");
    }

    @Test
    void noPairsWhenAskedForNoneAndCountsBelowTheirMinimumAreRefused() {
        String[] none = bench("--memories", "1", "--searches", "1", "--after-adds", "0");
        assertThat(none[0]).as(none[2]).isEqualTo("0");
        assertThat(none[1]).doesNotContain("right after");
        assertThat(calls).hasSize(20 + 1 + 1);

        calls.clear();
        for (String[] bad : List.of(new String[] {"--after-adds", "-1"}, new String[] {"--memories", "0"}, new String[] {"--searches", "0"})) {
            String[] run = bench(bad);
            assertThat(run[0]).as(String.join(" ", bad)).isEqualTo("2");
            assertThat(run[2]).contains("'bench memory' needs --memories and --searches of at least 1 and --after-adds of at least 0");
        }
        assertThat(calls).as("nothing is sent before the options are checked").isEmpty();
    }
}
