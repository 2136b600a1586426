package dev.openrag.ingest.source.crawl;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * {@code GET /api/crawls/{id}}: state (running, scheduled between recrawls, completed, failed,
 * stopped), the pages of the current or last run, failures with reasons, the run's job.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CrawlStatus(String crawlId, String jobId, String state, Pages pages, List<Failure> failures, int runs,
                          String startedAt, String finishedAt, CrawlRequest request) {

    public record Pages(int fetched, int skipped, int failed) {
    }

    public record Failure(String url, String reason) {
    }
}
