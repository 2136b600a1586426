package dev.openrag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code openrag sync} against a JDK HTTP server that records what it is sent and answers as ingest-pipeline's
 * {@code /api/sources} does (SourceSyncTest covers the real endpoints): the source it registers, the run it asks for,
 * the job it follows, and the summary line it ends with.
 */
class SyncCommandAgainstRecordingServerTest {

    private RecordingServer server;
    private volatile String run = """
            {"runId":"r1","state":"completed","added":2,"changed":1,"deleted":1,"unchanged":3,"jobId":"j1",
             "refused":[{"path":"blob.bin","reason":"unsupported document type (unrecognised binary content)"}]}""";
    private volatile RecordingServer.Answer created = new RecordingServer.Answer(201,
            "{\"id\":\"s1\",\"type\":\"folder\",\"location\":\"/docs\",\"collection\":\"notes\"}");

    /** The source's last run: another run than the one asked for (runs wait in order), or the same. */
    private volatile String lastRun = run;
    private final java.util.concurrent.atomic.AtomicInteger polls = new java.util.concurrent.atomic.AtomicInteger();
    private volatile int queuedPolls;

    private volatile RecordingServer.Answer runAnswer = new RecordingServer.Answer(202, "{\"sourceId\":\"s1\",\"runId\":\"r1\"}");

    @TempDir
    Path folder;

    @BeforeEach
    void start() throws Exception {
        server = new RecordingServer()
                .answer("/api/sources/s1/run", () -> runAnswer)
                .answer("/api/sources/s1/runs/r1", () -> new RecordingServer.Answer(200, polls.getAndIncrement() < queuedPolls
                        ? "{\"runId\":\"r1\",\"state\":\"queued\",\"added\":0,\"changed\":0,\"deleted\":0,\"unchanged\":0}" : run))
                .answer("/api/sources/s1", () -> new RecordingServer.Answer(200, "{\"id\":\"s1\",\"lastRun\":" + lastRun + "}"))
                .answer("/api/sources", () -> created)
                .answer("/api/jobs/j1", () -> new RecordingServer.Answer(200,
                        "{\"jobId\":\"j1\",\"state\":\"completed\",\"documents\":{\"total\":3,\"done\":3,\"failed\":0},\"stages\":{}}"));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aFolderIsRegisteredRunAndSummedUpInTheLastLine() throws Exception {
        String[] result = RecordingServer.runWithErrors("sync", folder.toString(), "--collection", "notes", "--include", "*.md",
                "--url", server.url());
        assertThat(server.requests.get(0)).startsWith("POST /api/sources ").contains("\"type\":\"folder\"")
                .contains("\"location\":\"" + folder.toAbsolutePath() + "\"").contains("\"collection\":\"notes\"")
                .contains("\"include\":[\"*.md\"]").contains("\"watch\":false");
        assertThat(server.requests.get(1)).startsWith("POST /api/sources/s1/run ");
        assertThat(server.requests).anyMatch(request -> request.startsWith("GET /api/jobs/j1"));
        assertThat(result[1]).contains("refused blob.bin: unsupported document type");
        assertThat(result[1].strip().lines().reduce((first, last) -> last).orElseThrow())
                .isEqualTo("sync source=s1 added=2 changed=1 deleted=1 unchanged=3");
        assertThat(result[0]).as("a refused file makes the exit code 1, as ingest's failures do").isEqualTo("1");
    }

    @Test
    void metaOptionsGoToTheSourceAsItsMetadataTypedAndABadOneIsAMessageThatSendsNothing() {
        RecordingServer.runWithErrors("sync", folder.toString(), "--meta", "team=payments", "--meta", "tier=2",
                "--meta", "reviewed=2026-03-01", "--meta", "tag=a", "--meta", "tag=b", "--url", server.url());
        assertThat(server.requests.get(0)).startsWith("POST /api/sources ")
                .contains("\"metadata\":{\"team\":\"payments\",\"tier\":2,\"reviewed\":\"2026-03-01\",\"tag\":[\"a\",\"b\"]}");
        int sent = server.requests.size();

        String[] bad = RecordingServer.runWithErrors("sync", folder.toString(), "--meta", "team", "--url", server.url());
        assertThat(bad[0]).isEqualTo("1");
        assertThat(bad[2]).contains("--meta takes KEY=VALUE, got 'team'");
        assertThat(server.requests).as("nothing sent for a malformed option").hasSize(sent);

        RecordingServer.runWithErrors("sync", folder.toString(), "--url", server.url());
        assertThat(server.requests.get(sent)).as("control: no option, no metadata field").doesNotContain("\"metadata\"");
    }

    /**
     * Metadata past this machine's default cap goes to the server, whose own setting decides: taken where the server
     * allows more, and where it refuses, its 400 (with its configured number) is what the command says.
     */
    @Test
    void theServerDecidesTheMetadataCap() {
        List<String> args = new java.util.ArrayList<>(List.of("sync", folder.toString(), "--url", server.url()));
        for (int key = 0; key < 9; key++) {
            for (int item = 0; item < 8; item++) {
                args.addAll(List.of("--meta", "k" + key + "=" + (char) ('a' + item) + "x".repeat(999)));
            }
        }
        String[] taken = RecordingServer.runWithErrors(args.toArray(String[]::new));
        assertThat(server.requests.get(0)).startsWith("POST /api/sources ").contains("\"k8\":[\"a");
        assertThat(taken[1].strip().lines().reduce((first, last) -> last).orElseThrow())
                .isEqualTo("sync source=s1 added=2 changed=1 deleted=1 unchanged=3");

        created = new RecordingServer.Answer(400, "{\"error\":\"bad_request\",\"message\":\"field 'metadata': metadata takes "
                + "72280 bytes as JSON (9 keys with their values); at most 32768 are allowed in all (openrag.metadata.max-bytes)\"}");
        int sent = server.requests.size();
        String[] refused = RecordingServer.runWithErrors(args.toArray(String[]::new));
        assertThat(refused[0]).isEqualTo("1");
        assertThat(refused[2]).contains("at most 32768 are allowed in all (openrag.metadata.max-bytes)");
        assertThat(server.requests).as("the refused registration, and no run after it").hasSize(sent + 1);
    }

    @Test
    void theCommandFollowsItsOwnRunWhileItWaitsBehindAnother() {
        lastRun = """
                {"runId":"r0","state":"completed","added":9,"changed":9,"deleted":9,"unchanged":9,"refused":[]}""";
        queuedPolls = 2;
        String[] result = RecordingServer.runWithErrors("sync", folder.toString(), "--url", server.url());
        assertThat(server.requests.stream().filter(request -> request.startsWith("GET /api/sources/s1/runs/r1")).count())
                .as("polled while queued, then once ended").isEqualTo(3);
        assertThat(result[1].strip().lines().reduce((first, last) -> last).orElseThrow())
                .as("its own run's counts, not the last run's").isEqualTo("sync source=s1 added=2 changed=1 deleted=1 unchanged=3");
    }

    @Test
    void aGitCheckoutIsSyncedAsGitAndABlockedRunSaysWhatToDo() throws Exception {
        Files.createDirectories(folder.resolve(".git"));
        run = """
                {"runId":"r1","state":"blocked","added":0,"changed":0,"deleted":0,"unchanged":1,"refused":[],
                 "error":"this run would delete 2 of the source's 3 documents ...: run again with --allow-mass-delete"}""";
        String[] result = RecordingServer.runWithErrors("sync", folder.toString(), "--branch", "main", "--allow-mass-delete",
                "--url", server.url());
        assertThat(server.requests.get(0)).contains("\"type\":\"git\"").contains("\"branch\":\"main\"");
        assertThat(server.requests.get(1)).startsWith("POST /api/sources/s1/run?allowMassDelete=true");
        assertThat(result[1]).contains("blocked: this run would delete 2").endsWith("sync source=s1 added=0 changed=0 deleted=0 unchanged=1\n");
        assertThat(result[0]).isEqualTo("1");
    }

    @Test
    void aDryRunShowsWhatASyncWouldDo() {
        runAnswer = new RecordingServer.Answer(200,
                "{\"runId\":\"d1\",\"state\":\"dry-run\",\"added\":1,\"changed\":0,\"deleted\":5,\"unchanged\":2,\"refused\":[]}");
        String[] result = RecordingServer.runWithErrors("sync", folder.toString(), "--dry-run", "--url", server.url());
        assertThat(server.requests.get(1)).startsWith("POST /api/sources/s1/run?dryRun=true");
        assertThat(result[1]).contains("dry run: nothing was changed").endsWith("sync source=s1 added=1 changed=0 deleted=5 unchanged=2\n");
        assertThat(result[0]).isEqualTo("0");
    }

    @Test
    void aRefusedSourceIsAClearErrorAndNothingRuns() {
        created = new RecordingServer.Answer(403, "{\"error\":\"forbidden\",\"message\":\"folder '/etc' is outside the folders this "
                + "server may sync (openrag.sources.allowed-roots)\"}");
        String[] result = RecordingServer.runWithErrors("sync", "/etc", "--url", server.url());
        assertThat(result[2]).contains("outside the folders this server may sync");
        assertThat(result[0]).isNotEqualTo("0");
        assertThat(server.requests).singleElement().asString().startsWith("POST /api/sources ");
    }
}
