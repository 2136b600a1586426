package dev.openrag.knowledge.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

class DocumentFiltersTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static DocumentFilter parse(String json) throws Exception {
        return DocumentFilters.parse(JSON.readTree(json));
    }

    private static void refused(String json, String message) {
        assertThatThrownBy(() -> parse(json)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
    }

    @Test
    void everyOperatorParsesToItsCondition() throws Exception {
        assertThat(parse("{\"team\": \"payments\"}")).isEqualTo(new DocumentFilter.Equals("team", "payments"));
        assertThat(parse("{\"year\": 2026}")).isEqualTo(new DocumentFilter.Equals("year", 2026L));
        assertThat(parse("{\"team\": {\"in\": [\"a\", 2]}}")).isEqualTo(new DocumentFilter.In("team", List.of("a", 2L)));
        assertThat(parse("{\"team\": {\"not\": \"a\"}}")).isEqualTo(new DocumentFilter.NotEquals("team", "a"));
        assertThat(parse("{\"owner\": {\"exists\": false}}")).isEqualTo(new DocumentFilter.Exists("owner", false));
        assertThat(parse("{\"path\": {\"prefix\": \"docs/\"}}")).isEqualTo(new DocumentFilter.Prefix("path", "docs/"));
        assertThat(parse("{\"year\": {\"gte\": 2025, \"lt\": 2027.5}}"))
                .isEqualTo(new DocumentFilter.Range("year", 2025L, null, null, 2027.5));
        assertThat(parse("{\"modified\": {\"gt\": \"2026-01-01\"}}"))
                .isEqualTo(new DocumentFilter.Range("modified", null, Instant.parse("2026-01-01T00:00:00Z"), null, null));
        assertThat(parse("{\"a\": \"x\", \"or\": [{\"b\": \"y\"}, {\"c\": {\"exists\": true}}]}")).isEqualTo(new DocumentFilter.All(List.of(
                new DocumentFilter.Equals("a", "x"),
                new DocumentFilter.Any(List.of(new DocumentFilter.Equals("b", "y"), new DocumentFilter.Exists("c", true))))));
        assertThat(parse("{}")).isEqualTo(new DocumentFilter.All(List.of()));
        assertThat(DocumentFilters.parse(null)).isNull();
    }

    @Test
    void malformedFiltersNameThePlaceAndTheRule() {
        refused("{\"team\": {\"regex\": \".*\"}}", "filter.team.regex: unknown operator 'regex'");
        refused("{\"year\": {\"gte\": \"last year\"}}", "filter.year.gte must be a number or an ISO-8601 date");
        refused("{\"year\": {\"gte\": 1, \"lt\": \"2027-01-01\"}}", "mixes number and date bounds");
        refused("{\"team\": [\"a\"]}", "use {\"in\": [...]}");
        refused("{\"team\": {\"in\": []}}", "non-empty array");
        refused("{\"team\": {\"exists\": 1}}", "true or false");
        refused("{\"and\": {}}", "filter.and must be a non-empty array");
        refused("{\"or\": [1]}", "filter.or[0] must be a JSON object");
        refused("\"x\"", "filter must be a JSON object");
        refused("{\"a.b\": 1}", "'a.b' is not a plain name");
        refused("{\"$where\": 1}", "not a plain name");
        refused("{\"in\": 1}", "is a filter operator");
        refused("{\"team\": true}", "got a boolean");
        refused("{\"and\": [{\"and\": [{\"and\": [{\"and\": [{\"and\": [{\"and\": [{\"and\": [{\"and\": [{\"a\": 1}]}]}]}]}]}]}]}]}",
                "deeper than 8");
    }

    @Test
    void tooManyConditionsAreRefused() throws Exception {
        StringBuilder json = new StringBuilder("{");
        for (int i = 0; i < 65; i++) {
            json.append(i == 0 ? "" : ",").append("\"k").append(i).append("\": 1");
        }
        refused(json.append("}").toString(), "more than 64 conditions");
        JsonNode sixtyFour = JSON.readTree(json.toString().replace(",\"k64\": 1", ""));
        assertThat(DocumentFilters.parse(sixtyFour)).isInstanceOf(DocumentFilter.All.class);
    }
    /**
     * An empty object inside and/or names no condition, so none of the limits counted it: a body of
     * many of them grew the stores' queries (a bool of that many clauses, a Cypher OR of that many
     * terms) without bound. Refused, with the control: {} alone is still "no filter".
     */
    @Test
    void emptyObjectsInsideCombinationsAreRefusedSoNoFilterGrowsWithoutBound() throws Exception {
        StringBuilder many = new StringBuilder("{\"or\": [{}");
        for (int i = 1; i < 100_000; i++) {
            many.append(", {}");
        }
        refused(many.append("]}").toString(), "filter.or[0] names no condition");
        refused("{\"and\": [{\"a\": 1}, {}]}", "filter.and[1] names no condition");
        refused("{\"or\": [{\"and\": [{}]}]}", "filter.or[0].and[0] names no condition");
        // controls
        assertThat(parse("{}")).isEqualTo(new DocumentFilter.All(List.of()));
        assertThat(parse("{\"or\": [{\"a\": 1}, {\"and\": [{\"b\": \"x\"}]}]}")).isEqualTo(new DocumentFilter.Any(List.of(
                new DocumentFilter.Equals("a", 1L), new DocumentFilter.All(List.of(new DocumentFilter.Equals("b", "x"))))));
    }

    /** Cases the issue did not name: or inside and, not with a list, dates with offsets, metacharacters in a prefix. */
    @Test
    void combinedOperatorsOffsetsAndMetacharactersAreReadLiterally() throws Exception {
        assertThat(parse("{\"and\": [{\"or\": [{\"a\": 1}, {\"b\": 2}]}, {\"c\": {\"not\": \"x\", \"exists\": true}}]}"))
                .isEqualTo(new DocumentFilter.All(List.of(
                        new DocumentFilter.Any(List.of(new DocumentFilter.Equals("a", 1L), new DocumentFilter.Equals("b", 2L))),
                        new DocumentFilter.All(List.of(new DocumentFilter.NotEquals("c", "x"), new DocumentFilter.Exists("c", true))))));
        refused("{\"team\": {\"not\": [\"a\", \"b\"]}}", "filter.team.not must be a string or a number, got an array");
        // one instant however it is written: an offset, a lower-case t, minutes only
        Instant midnight = Instant.parse("2026-01-01T00:00:00Z");
        for (String written : List.of("2026-01-01T02:00:00+02:00", "2025-12-31T19:00:00-05:00", "2026-01-01t00:00:00z", "2026-01-01T00:00Z")) {
            assertThat(parse("{\"modified\": {\"gte\": \"" + written + "\"}}")).as(written)
                    .isEqualTo(new DocumentFilter.Range("modified", midnight, null, null, null));
        }
        // a date-time without an offset names no instant: refused, not guessed in the server's zone
        refused("{\"modified\": {\"gte\": \"2026-01-01T00:00:00\"}}", "must be a number or an ISO-8601 date");
        for (String prefix : List.of("docs/.*", "a*b?c", "x\\\\y", "(?i)DOCS", "' OR 1=1 //", "\u00fcber/\u65e5\u672c/")) {
            String json = JSON.writeValueAsString(java.util.Map.of("path", java.util.Map.of("prefix", prefix)));
            assertThat(parse(json)).as(prefix).isEqualTo(new DocumentFilter.Prefix("path", prefix));
        }
    }
}
