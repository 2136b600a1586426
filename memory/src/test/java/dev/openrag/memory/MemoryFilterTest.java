package dev.openrag.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.openrag.knowledge.filter.DocumentFilter;

/** The memory rules on metadata and filters: documents' rules, with tags a list of strings and the only reserved key. */
class MemoryFilterTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static DocumentFilter parse(String json) throws Exception {
        JsonNode node = JSON.readTree(json);
        return MemoryFilter.parse(node);
    }

    @Test
    void tagsAreFilteredAsStringsAndMetadataAsDocumentsAre() throws Exception {
        assertThat(parse("{\"tags\": \"travel\"}")).isEqualTo(new DocumentFilter.Equals("tags", "travel"));
        assertThat(parse("{\"tags\": {\"in\": [\"a\", \"b\"]}, \"year\": {\"gte\": 2025}}")).isInstanceOf(DocumentFilter.All.class);
        assertThat(parse("{\"tags\": {\"exists\": false}}")).isEqualTo(new DocumentFilter.Exists("tags", false));
        assertThat(parse("{\"tags\": {\"prefix\": \"proj-\"}}")).isEqualTo(new DocumentFilter.Prefix("tags", "proj-"));
        assertThat(parse("null")).isNull();
    }

    @Test
    void badFiltersNameThePlaceAndTheRule() throws Exception {
        assertThatThrownBy(() -> parse("{\"team\": {\"like\": \"pay%\"}}")).hasMessage(
                "filter.team.like: unknown operator 'like'; use in, not, exists, gte, gt, lte, lt, prefix");
        assertThatThrownBy(() -> parse("{\"tags\": {\"gte\": 3}}")).hasMessageContaining("filter.tags: tags are strings, they have no range");
        assertThatThrownBy(() -> parse("{\"tags\": 7}")).hasMessageContaining("filter.tags: tags are strings, got a number");
        assertThatThrownBy(() -> parse("{\"tags\": {\"in\": [\"ok\", 2]}}")).hasMessageContaining("filter.tags.in: tags are strings");
        assertThatThrownBy(() -> parse("{\"tags\": {\"not\": 2}}")).hasMessageContaining("filter.tags.not: tags are strings");
        assertThatThrownBy(() -> parse("{\"year\": {\"gte\": \"soon\"}}")).hasMessageContaining("filter.year.gte must be a number or an ISO-8601 date");
        assertThatThrownBy(() -> parse("{\"tags\": [\"a\"]}")).hasMessageContaining("for one of several values use {\"in\": [...]}");
        String deep = "{\"a\": 1}";
        for (int i = 0; i < 7; i++) { // the top level and 7 more: the deepest allowed
            deep = "{\"or\": [" + deep + "]}";
        }
        String tooDeep = "{\"or\": [" + deep + "]}";
        assertThatThrownBy(() -> parse(tooDeep)).hasMessageContaining("nests deeper than 8 levels");
        StringBuilder many = new StringBuilder("{");
        for (int i = 0; i < 65; i++) {
            many.append(i == 0 ? "" : ",").append("\"k").append(i).append("\": 1");
        }
        String tooMany = many.append("}").toString();
        assertThatThrownBy(() -> parse(tooMany)).hasMessage("filter has more than 64 conditions");
        // controls: the same shapes, within the rules
        assertThat(parse("{\"team\": {\"prefix\": \"pay\"}}")).isNotNull();
        assertThat(parse("{\"rank\": {\"gte\": 3}}")).isNotNull();
        assertThat(parse("{\"tags\": {\"in\": [\"ok\", \"2\"]}}")).isNotNull();
        assertThat(parse(deep)).isNotNull();
    }

    @Test
    void metadataFollowsTheDocumentRulesWithTagsReserved() {
        assertThat(MemoryFilter.metadata(Map.of("team", "payments", "year", 2026.0, "due", "2026-03-01", "labels", List.of("a"))))
                .containsEntry("team", "payments").containsEntry("year", 2026L).containsEntry("due", "2026-03-01T00:00:00Z")
                .containsEntry("labels", List.of("a"));
        // a memory has no pipeline: a document's source field name is the caller's own here
        assertThat(MemoryFilter.metadata(Map.of("path", "notes/a.md"))).containsEntry("path", "notes/a.md");
        assertThat(MemoryFilter.metadata(null)).isEmpty();
        assertThatThrownBy(() -> MemoryFilter.metadata(Map.of("tags", "x"))).hasMessageContaining("metadata key 'tags' is reserved");
        assertThatThrownBy(() -> MemoryFilter.metadata(Map.of("in", "x"))).hasMessageContaining("is a filter operator");
        assertThatThrownBy(() -> MemoryFilter.metadata(Map.of("a.b", "x"))).hasMessageContaining("is not a plain name");
        assertThatThrownBy(() -> MemoryFilter.metadata(Map.of("team", Map.of("x", 1)))).hasMessageContaining("nested objects are not allowed");
        assertThatThrownBy(() -> MemoryFilter.metadata(Map.of("team", "x".repeat(1025)))).hasMessageContaining("at most 1024");
        Map<String, Object> tooMany = new java.util.HashMap<>();
        for (int i = 0; i < 33; i++) {
            tooMany.put("k" + i, i);
        }
        assertThatThrownBy(() -> MemoryFilter.metadata(tooMany)).hasMessageContaining("at most 32");
    }

    /** {@code tags} is reserved in every case, whatever the default locale; names that only contain it are the caller's. */
    @Test
    void tagsIsReservedInAnyCase() {
        java.util.Locale before = java.util.Locale.getDefault();
        try {
            for (java.util.Locale locale : List.of(java.util.Locale.ROOT, java.util.Locale.forLanguageTag("tr-TR"))) {
                java.util.Locale.setDefault(locale);
                for (String key : List.of("Tags", "TAGS", "tAgS", "tagS")) {
                    assertThatThrownBy(() -> MemoryFilter.metadata(Map.of(key, "x", "team", "a"))).as(key + " in " + locale)
                            .isInstanceOf(IllegalArgumentException.class)
                            .hasMessageContaining("metadata key '" + key + "' is in another case reserved");
                }
                // controls: names that contain or resemble it are the caller's own
                assertThat(MemoryFilter.metadata(Map.of("tag", "a", "tagset", "b", "hashtags", "c", "TITLE", "d")))
                        .containsKeys("tag", "tagset", "hashtags", "TITLE");
            }
        } finally {
            java.util.Locale.setDefault(before);
        }
    }

    /** A memory's metadata has the documents' total cap, every key counted (a memory has no source fields). */
    @Test
    void aMemorysMetadataHasTheTotalCap() {
        Map<String, Object> under = new java.util.LinkedHashMap<>();
        for (int i = 0; i < 8; i++) {
            under.put("k" + i, java.util.Collections.nCopies(8, "x".repeat(1000)));
        }
        assertThat(MemoryFilter.metadata(under)).hasSize(8); // about 64,100 bytes: under
        Map<String, Object> over = new java.util.LinkedHashMap<>(under);
        over.put("path", "p".repeat(1024));
        over.put("title", "t".repeat(1024));
        assertThatThrownBy(() -> MemoryFilter.metadata(over)).hasMessageContaining("at most 65536 are allowed in all");
    }
}
