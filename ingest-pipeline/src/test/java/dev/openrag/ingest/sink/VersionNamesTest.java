package dev.openrag.ingest.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

import dev.openrag.schemas.ChunksEmbedded;
import dev.openrag.schemas.DocumentParsed;
import dev.openrag.schemas.EventEnvelope;
import dev.openrag.schemas.Source;

/**
 * A document version has one name in every stage and store: its job and the time parsing fixed, carried
 * on its events, whatever timestamps the records of the stages between bear (hosts whose clocks differ
 * stamp them differently). Events written before the time was carried are named by their record's.
 */
class VersionNamesTest {

    private static final Source SOURCE = new Source("upload", "notes://a");

    @Test
    void theParseStagesVersionAndASinksAreNamedAlikeWhateverTheirRecordsTimes() {
        long arrived = 1_700_000_000_000L;
        DocumentParsed parsed = new DocumentParsed(1, "e1", "d1", "j1", "docs", SOURCE, "T", "text/plain", "text", "h",
                null, null, Map.of(), null, null, arrived);
        ChunksEmbedded embedded = new ChunksEmbedded(1, "e2", "d1", "j1", "docs", SOURCE, "T", "h", "m", 1, List.of(), Map.of(),
                null, arrived);
        // the sink's host runs behind the parse host's clock: its record bears an earlier time
        String atParse = MetadataUpdates.version(record(arrived + 5), parsed);
        String atSink = MetadataUpdates.version(record(arrived - 90_000), embedded);
        assertThat(atSink).isEqualTo(atParse).isEqualTo("j1@" + arrived);
    }

    @Test
    void anEventWithoutTheCarriedTimeIsNamedByItsRecord() {
        ChunksEmbedded older = new ChunksEmbedded(1, "e2", "d1", "j1", "docs", SOURCE, "T", "h", "m", 1, List.of(), Map.of(), null);
        assertThat(MetadataUpdates.version(record(1_600_000_000_000L), older)).isEqualTo("j1@1600000000000");
        EventEnvelope laterParsed = new DocumentParsed(1, "e1", "d1", "j2", "docs", SOURCE, "T", "text/plain", "text", "h",
                null, null, Map.of(), null, null, 1_600_000_000_500L);
        assertThat(MetadataUpdates.version(record(1_600_000_000_000L), laterParsed)).isEqualTo("j2@1600000000500");
    }

    private static ConsumerRecord<String, String> record(long timestamp) {
        return new ConsumerRecord<>("t", 0, 0, timestamp, TimestampType.CREATE_TIME, 0, 0, "d1", "{}", new RecordHeaders(),
                java.util.Optional.empty());
    }
}
