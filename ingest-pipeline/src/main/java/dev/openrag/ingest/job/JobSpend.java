package dev.openrag.ingest.job;

import java.util.Optional;

/** What a job has spent on LLM calls so far, as its status events reported it. */
public interface JobSpend {

    /** Empty while the job has spent nothing (or is unknown here). */
    Optional<JobStatus.Usage> spent(String jobId);
}
