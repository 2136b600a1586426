package dev.openrag.query.ask;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.openrag.query.search.SearchResponse;

/** The answer without an LLM: whole prose sentences, never Markdown's tables, code or headings, from several documents. */
class ExtractiveAnswerTest {

    private static SearchResponse.Result hit(String documentId, int chunkIndex, String text) {
        return new SearchResponse.Result(documentId + "#" + chunkIndex, documentId, chunkIndex, documentId, "file:///" + documentId,
                text, null, 1.0, Map.of(), null, null, null, null);
    }

    private static final String README = """
            ## The two commands

            | command | what it does |
            |---|---|
            | `./mvnw verify` | run the tests and the integration tests |

            Run the tests with `./mvnw verify`: unit and integration tests against **real** Kafka, Neo4j and
            OpenSearch processes that the tests start themselves.

            ```bash
            ./mvnw verify   # run the tests
            ```

            - `bash .ci/run` runs exactly the same tests as CI. See [the architecture](docs/architecture.md) for more.
            """;

    @Test
    void quotesAWholeProseSentenceNeverATableRowCodeOrHeadingAndShowsItWithoutMarkdown() {
        List<SearchResponse.Result> sources = List.of(hit("README.md", 0, README));
        List<ExtractiveAnswer.Quote> quotes = ExtractiveAnswer.quotes("how do I run the tests?", sources);

        assertThat(quotes).hasSize(1);
        ExtractiveAnswer.Quote quote = quotes.get(0);
        assertThat(quote.shown()).isEqualTo("Run the tests with ./mvnw verify: unit and integration tests against real Kafka, "
                + "Neo4j and OpenSearch processes that the tests start themselves.");
        assertThat(README.substring(quote.start(), quote.end())).as("the span is the sentence as written")
                .startsWith("Run the tests with `./mvnw verify`").endsWith("start themselves.");
        for (int[] range : ExtractiveAnswer.prose(README)) {
            String sentence = README.substring(range[0], range[1]);
            assertThat(sentence).as("no table row, code, heading or list marker").doesNotStartWith("|").doesNotStartWith("#")
                    .doesNotStartWith("- ").doesNotContain("```").doesNotContain("# run the tests");
        }
        assertThat(ExtractiveAnswer.shown("- `bash .ci/run` runs the tests. See [the architecture](docs/architecture.md).\n"))
                .isEqualTo("bash .ci/run runs the tests. See the architecture.");
        assertThat(ExtractiveAnswer.shown("Set `openrag.search.rrf_k` and *not* __init__ or 5 * 3."))
                .isEqualTo("Set openrag.search.rrf_k and not init or 5 * 3.");
    }

    @Test
    void aSourceWithoutProseLeavesItsPlaceToTheNextOne() {
        List<SearchResponse.Result> sources = List.of(
                hit("benchmarks.md", 3, "| run | tests |\n|---|---|\n| 1 | 47 min |"),
                hit("code.md", 0, "```\n./mvnw verify\n```"),
                hit("README.md", 0, README));
        List<String> answer = ExtractiveAnswer.sentences(ExtractiveAnswer.quotes("how do I run the tests?", sources), List.of());

        assertThat(answer).hasSize(1);
        assertThat(answer.get(0)).startsWith("Run the tests with ./mvnw verify").endsWith("[3]").doesNotContain("|").doesNotContain("`");
        assertThat(ExtractiveAnswer.sentences(ExtractiveAnswer.quotes("how do I run the tests?", sources.subList(0, 2)), List.of()))
                .containsExactly("No passage in this collection matches the question.");
    }

    @Test
    void theSourcesOfAnAnswerComeFromSeveralDocumentsBeforeASecondChunkOfOne() {
        List<SearchResponse.Result> ranked = List.of(hit("benchmarks.md", 7, "a"), hit("benchmarks.md", 8, "b"),
                hit("benchmarks.md", 9, "c"), hit("README.md", 2, "d"), hit("benchmarks.md", 10, "e"), hit("mcp.md", 4, "f"));

        assertThat(ExtractiveAnswer.diverse(ranked, 5)).extracting(SearchResponse.Result::chunkId)
                .containsExactly("benchmarks.md#7", "README.md#2", "mcp.md#4", "benchmarks.md#8", "benchmarks.md#9");
        assertThat(ExtractiveAnswer.diverse(ranked, 2)).extracting(SearchResponse.Result::chunkId)
                .containsExactly("benchmarks.md#7", "README.md#2");
        assertThat(ExtractiveAnswer.diverse(ranked.subList(0, 2), 5)).extracting(SearchResponse.Result::chunkId)
                .as("one document only: its chunks in rank order").containsExactly("benchmarks.md#7", "benchmarks.md#8");
    }

    @Test
    void theSentenceSharingMostWordsWinsAndEachQuoteIsExactlyItsRange() {
        String text = "Kafka stores the events. Consumers in a group share the partitions of a topic. "
                + "Each partition has one consumer in the group.";
        List<ExtractiveAnswer.Quote> quotes = ExtractiveAnswer.quotes("how do consumer groups share partitions?",
                List.of(hit("kafka.md", 0, text), hit("other.md", 0, "Nothing about it here.")));

        assertThat(quotes).extracting(ExtractiveAnswer.Quote::shown)
                .containsExactly("Consumers in a group share the partitions of a topic.", "Nothing about it here.");
        assertThat(text.substring(quotes.get(0).start(), quotes.get(0).end()))
                .isEqualTo("Consumers in a group share the partitions of a topic.");
    }
}
