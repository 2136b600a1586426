package dev.openrag.ingest.source.crawl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.openrag.schemas.DocumentArrived;
import dev.openrag.schemas.EventCodec;
import dev.openrag.schemas.EventEnvelope;
import dev.openrag.schemas.InvalidEventException;
import dev.openrag.schemas.Metadata;
import dev.openrag.schemas.Source;

/**
 * A crawled page's metadata as its event carries it, read back as the pipeline reads every event: the
 * crawl's own keys, as many as a crawl request may have, and the source fields the crawler adds.
 */
class PageMetadataTest {

    private final EventCodec codec = new EventCodec();

    @Test
    void aCrawlWithThirtyTwoKeysPublishesPagesThePipelineTakes() {
        Map<String, Object> crawl = keys(Metadata.MAX_KEYS);
        Metadata.fromCaller(crawl); // what POST /api/crawls accepts
        Map<String, Object> page = Crawl.pageMetadata(crawl, "crawl-1", "https://Example.org/a");
        assertThat(page).containsEntry("crawlId", "crawl-1").containsEntry("url", "https://Example.org/a")
                .containsEntry("host", "example.org").containsAllEntriesOf(crawl);
        assertThat(readBack(page)).isEqualTo(page);
        // the control: a request with one key more is refused before any page is fetched
        assertThatThrownBy(() -> Metadata.fromCaller(keys(Metadata.MAX_KEYS + 1))).hasMessageContaining("at most 32");
    }

    @Test
    void aLongUrlIsKeptWholeUpToTheSourceFieldLimitAndClippedPastIt() {
        String longUrl = "https://example.org/" + "a".repeat(3000);
        assertThat(readBack(Crawl.pageMetadata(Map.of("team", "web"), "c", longUrl))).containsEntry("url", longUrl);
        String tooLong = "https://example.org/?q=" + "\uD83D\uDE00".repeat(Metadata.MAX_SOURCE_VALUE_LENGTH);
        Map<String, Object> page = Crawl.pageMetadata(Map.of(), "c", tooLong);
        String url = (String) page.get("url");
        assertThat(url.length()).isBetween(Metadata.MAX_SOURCE_VALUE_LENGTH - 1, Metadata.MAX_SOURCE_VALUE_LENGTH);
        assertThat(tooLong).startsWith(url);
        assertThat(Character.isHighSurrogate(url.charAt(url.length() - 1))).as("no half of a pair left at the end").isFalse();
        assertThat(readBack(page)).containsEntry("url", url);
    }

    private Map<String, Object> readBack(Map<String, Object> metadata) {
        DocumentArrived arrived = new DocumentArrived(EventEnvelope.CURRENT_SCHEMA_VERSION, "e", "d", "j", "c",
                new Source("crawler", "https://example.org/a"), "A", "text/markdown", "# A", DocumentArrived.TEXT, null, metadata);
        try {
            return codec.fromJson(codec.toJson(arrived), DocumentArrived.class).metadata();
        } catch (InvalidEventException e) {
            throw new AssertionError("the page would be dead-lettered: " + e.getMessage(), e);
        }
    }

    private static Map<String, Object> keys(int count) {
        Map<String, Object> keys = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            keys.put("key" + i, "value" + i);
        }
        return keys;
    }
}
