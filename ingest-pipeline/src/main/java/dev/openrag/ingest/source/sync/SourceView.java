package dev.openrag.ingest.source.sync;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

/** A source as {@code GET /api/sources} shows it: its request, its documents and its last run. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SourceView(String id, String type, String location, String collection, List<String> include, List<String> exclude,
                         String branch, String schedule, boolean watch, int documents, String lastCommit, Instant createdAt,
                         SyncRun lastRun, java.util.Map<String, Object> metadata) {
}
