package dev.openrag.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;

import dev.openrag.localstack.LocalStackException;

/** Imports a pre-chunked corpus through the real pipeline and waits for its job (eval, bench). */
final class CorpusImport {

    private CorpusImport() {
    }

    static void run(String ingestUrl, Path corpus, String collection) throws IOException, InterruptedException {
        System.out.println("importing " + corpus + " into collection '" + collection + "' through the pipeline ...");
        ApiClient ingest = new ApiClient(ingestUrl);
        JsonNode accepted = ingest.postJson("/api/corpus?collection=" + collection, Files.readString(corpus));
        JsonNode status = JobProgress.follow(ingest, accepted.path("jobId").asText(), System.out);
        if (!"completed".equals(status.path("state").asText())) {
            throw new LocalStackException("the import ended " + status.path("state").asText() + ": " + status.path("failures"));
        }
        Thread.sleep(1500); // OpenSearch makes the last writes searchable within its 1 s refresh interval
    }
}
