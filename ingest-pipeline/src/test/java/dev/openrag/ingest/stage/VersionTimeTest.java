package dev.openrag.ingest.stage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

import dev.openrag.schemas.DocumentDeleted;
import dev.openrag.schemas.EventEnvelope;

/** The version time a delete takes: its acceptance time, never one later than now, as any producer may write it. */
class VersionTimeTest {

    @Test
    void aDeleteDatedInTheFutureCountsAsNowAndAPastOneKeepsItsTime() {
        long now = System.currentTimeMillis();
        for (long future : new long[] {now + 60_000, now + 365L * 24 * 3600 * 1000, Long.MAX_VALUE}) {
            long before = System.currentTimeMillis();
            long time = StageRunner.versionTime(record(now), deleted(future));
            assertThat(time).as("deletedAt %d", future).isBetween(before, System.currentTimeMillis());
        }
        // the controls: a delete accepted earlier keeps that time (not its record's), whatever its record's time
        assertThat(StageRunner.versionTime(record(now), deleted(now - 5_000))).isEqualTo(now - 5_000);
        assertThat(StageRunner.versionTime(record(now - 60_000), deleted(now - 5_000))).isEqualTo(now - 5_000);
        // a delete without one takes its record's time, which is bounded likewise
        assertThat(StageRunner.versionTime(record(now - 7_000), deleted(null))).isEqualTo(now - 7_000);
        assertThat(StageRunner.versionTime(record(Long.MAX_VALUE), deleted(null))).isLessThanOrEqualTo(System.currentTimeMillis());
    }

    private static DocumentDeleted deleted(Long deletedAt) {
        return new DocumentDeleted(EventEnvelope.CURRENT_SCHEMA_VERSION, "e", "d", "j", "c", deletedAt);
    }

    private static ConsumerRecord<String, String> record(long timestamp) {
        return new ConsumerRecord<>("openrag.documents.deleted", 0, 0, timestamp, TimestampType.CREATE_TIME, -1, -1, "d", "{}",
                new RecordHeaders(), Optional.empty());
    }
}
