package dev.openrag.ingest;

import static dev.openrag.ingest.IngestTestSupport.awaitJob;
import static dev.openrag.ingest.IngestTestSupport.textDocument;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import jakarta.inject.Inject;

import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;

import dev.openrag.ingest.source.sync.JGitDefaults;
import dev.openrag.knowledge.port.LexicalIndex;
import dev.openrag.knowledge.port.ScoredChunk;
import dev.openrag.localstack.test.LocalStackTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/**
 * Sources kept in sync (issue 62) on real Kafka, Neo4j and OpenSearch: folders and local git repositories, edits,
 * deletions, renames, re-runs, the mass-delete guard, watching, two collections of one folder, a run that died half
 * way, and bad sources.
 */
@QuarkusTest
@WithTestResource(LocalStackTestResource.class)
class SourceSyncTest {

    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(120);

    @Inject
    LexicalIndex lexical;

    @Inject
    Driver driver;

    Path folder;

    @BeforeEach
    void folder() throws IOException {
        JGitDefaults.use(); // the repositories made here, as the app reads them: not through the machine's git settings
        folder = Files.createTempDirectory("openrag-sync-");
    }

    @AfterEach
    void removeFolder() throws IOException {
        if (Files.exists(folder)) {
            try (Stream<Path> walk = Files.walk(folder)) {
                walk.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    @Test
    void aCollectionStaysEqualToItsFolderThroughEditsDeletionsAdditionsAndRenames() throws Exception {
        String collection = "sync-folder";
        write("guide.md", "# Guide\nThe aardwolfguide word lives here.");
        write("notes/old.md", "# Old\nThe bongoold word lives here.");
        write("notes/moved.md", "# Moved\nThe caracalmoved word lives here.");
        write("plain.txt", "The dikdikplain word lives here.");
        write("empty.md", "");
        Files.write(folder.resolve("blob.bin"), new byte[] {0, 1, 2, 3, (byte) 0xff, 0, 7, 9});
        Files.createSymbolicLink(folder.resolve("link.md"), Path.of("/etc/hostname"));
        write(".hidden/secret.md", "The hiddenokapi word never syncs.");
        String upload = awaitJob(given().contentType(ContentType.JSON)
                .body(textDocument(collection, "uploads/kept.md", "Kept", "The uploadedemu word stays."))
                .post("/api/documents").then().statusCode(202).extract().path("jobId"), RUN_TIMEOUT).getString("state");
        assertThat(upload).isEqualTo("completed");

        String id = create(Map.of("type", "folder", "location", folder.toString(), "collection", collection));
        JsonPath first = runAndWait(id, false);
        assertThat(counts(first)).containsExactly(4, 0, 0, 0);
        assertThat(first.getList("refused.path", String.class)).containsExactlyInAnyOrder("empty.md", "blob.bin", "link.md");
        assertThat(first.getString("refused.find { it.path == 'link.md' }.reason")).contains("symbolic link");
        assertThat(first.getString("refused.find { it.path == 'empty.md' }.reason")).contains("empty file");
        for (String word : List.of("aardwolfguide", "bongoold", "caracalmoved", "dikdikplain")) {
            assertThat(documentsWith(collection, word)).as(word).hasSize(1);
        }
        assertThat(documentsWith(collection, "hiddenokapi")).isEmpty();

        write("guide.md", "# Guide\nThe elandguide word replaced the old one.");
        Files.delete(folder.resolve("notes/old.md"));
        Files.move(folder.resolve("notes/moved.md"), folder.resolve("renamed.md"));
        write("added.md", "# Added\nThe fossaadded word arrives.");
        JsonPath dry = given().queryParam("dryRun", true).post("/api/sources/" + id + "/run").then().statusCode(200).extract().jsonPath();
        assertThat(dry.getString("state")).isEqualTo("dry-run");
        assertThat(counts(dry)).as("what the run will do").containsExactly(2, 1, 2, 1);
        assertThat(documentsWith(collection, "bongoold")).as("a dry run changes nothing").hasSize(1);
        JsonPath second = runAndWait(id, false);
        assertThat(counts(second)).as("added (the new file and the rename's new path), changed, deleted, unchanged")
                .containsExactly(2, 1, 2, 1);
        assertThat(documentsWith(collection, "aardwolfguide")).as("the edited file's old words are gone").isEmpty();
        assertThat(documentsWith(collection, "elandguide")).hasSize(1);
        assertThat(documentsWith(collection, "bongoold")).as("the deleted file is gone").isEmpty();
        assertThat(documentsWith(collection, "caracalmoved")).as("the renamed file, once, under its new path").hasSize(1)
                .allSatisfy(uri -> assertThat(uri).endsWith("/renamed.md"));
        assertThat(documentsWith(collection, "fossaadded")).hasSize(1);
        assertThat(documentsWith(collection, "uploadedemu")).as("the uploaded document is not the source's").hasSize(1);

        JsonPath third = runAndWait(id, false);
        assertThat(counts(third)).containsExactly(0, 0, 0, 4);
        assertThat(third.getString("jobId")).as("nothing to do: no job").isNull();
        assertThat(chunkDocuments(collection)).as("documents in Neo4j: the folder's four and the upload").isEqualTo(5);

        JsonPath shown = given().get("/api/sources/" + id).then().statusCode(200).extract().jsonPath();
        assertThat(shown.getInt("documents")).isEqualTo(4);
        assertThat(given().get("/api/sources").then().statusCode(200).extract().jsonPath().getList("id")).contains(id);
        assertThat(create(Map.of("type", "folder", "location", folder.toString(), "collection", collection)))
                .as("the same folder and collection is the same source").isEqualTo(id);
    }

    @Test
    void aRunThatWouldDeleteMostOfTheSourceStopsUntilAskedAndARunThatDiedHalfWayDuplicatesNothing() throws Exception {
        String collection = "sync-guard";
        write("a.md", "The gerenuka word.");
        write("b.md", "The gerenukb word.");
        write("c.md", "The gerenukc word.");
        String id = create(Map.of("type", "folder", "location", folder.toString(), "collection", collection));
        assertThat(counts(runAndWait(id, false))).containsExactly(3, 0, 0, 0);

        // a run that died after publishing two documents but before recording them: the next run publishes them again
        driver.executableQuery("MATCH (f:SyncedFile {sourceId: $id}) WHERE f.path IN ['a.md', 'b.md'] DELETE f")
                .withParameters(Map.of("id", id)).execute();
        assertThat(counts(runAndWait(id, false))).containsExactly(2, 0, 0, 1);
        assertThat(documentsWith(collection, "gerenuka")).as("the same document again, not a second one").hasSize(1);
        assertThat(chunkDocuments(collection)).isEqualTo(3);

        Files.delete(folder.resolve("a.md"));
        Files.delete(folder.resolve("b.md"));
        JsonPath blocked = runAndWait(id, false);
        assertThat(blocked.getString("state")).isEqualTo("blocked");
        assertThat(blocked.getString("error")).contains("would delete 2 of the source's 3 documents").contains("--allow-mass-delete");
        assertThat(documentsWith(collection, "gerenuka")).as("nothing deleted").hasSize(1);

        JsonPath allowed = runAndWait(id, true);
        assertThat(allowed.getString("state")).isEqualTo("completed");
        assertThat(counts(allowed)).containsExactly(0, 0, 2, 1);
        assertThat(documentsWith(collection, "gerenuka")).isEmpty();
        assertThat(documentsWith(collection, "gerenukc")).hasSize(1);

        // a folder that is gone: the run fails with the reason, and the documents stay
        Path moved = folder.resolveSibling(folder.getFileName() + "-away");
        Files.move(folder, moved);
        try {
            JsonPath missing = runAndWait(id, false);
            assertThat(missing.getString("state")).isEqualTo("failed");
            assertThat(missing.getString("error")).contains("does not exist");
            assertThat(documentsWith(collection, "gerenukc")).hasSize(1);
        } finally {
            Files.move(moved, folder);
        }
        given().queryParam("deleteDocuments", true).delete("/api/sources/" + id).then().statusCode(200);
        given().get("/api/sources/" + id).then().statusCode(404);
        awaitNoDocumentsWith(collection, "gerenukc");
    }

    @Test
    void aWatchedFolderSyncsWithinSecondsAndTwoCollectionsKeepTheirOwnCopies() throws Exception {
        write("first.md", "The hartebeestfirst word.");
        String watched = create(Map.of("type", "folder", "location", folder.toString(), "collection", "sync-watch", "watch", true));
        String other = create(Map.of("type", "folder", "location", folder.toString(), "collection", "sync-other"));
        assertThat(other).isNotEqualTo(watched);
        runAndWait(watched, false);
        runAndWait(other, false);
        assertThat(documentsWith("sync-watch", "hartebeestfirst")).hasSize(1);
        assertThat(documentsWith("sync-other", "hartebeestfirst")).hasSize(1);

        long started = System.nanoTime();
        write("second.md", "The impalasecond word.");
        awaitDocumentsWith("sync-watch", "impalasecond", Duration.ofSeconds(20));
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(20));
        assertThat(documentsWith("sync-other", "impalasecond")).as("the other collection syncs when it is run").isEmpty();

        Files.delete(folder.resolve("first.md"));
        awaitNoDocumentsWith("sync-watch", "hartebeestfirst");
        assertThat(documentsWith("sync-other", "hartebeestfirst")).as("one source's deletion is not the other's").hasSize(1);

        // the watched folder goes (an unmounted drive, a moved folder): an error on the source, never a deletion
        Path away = folder.resolveSibling(folder.getFileName() + "-unmounted");
        Files.move(folder, away);
        try {
            JsonPath gone = awaitRun(watched, run -> "failed".equals(run.getString("state")));
            assertThat(gone.getString("error")).contains("does not exist");
            assertThat(documentsWith("sync-watch", "impalasecond")).as("its documents stay").hasSize(1);
        } finally {
            Files.move(away, folder);
        }
        JsonPath back = awaitRun(watched, run -> "completed".equals(run.getString("state")));
        assertThat(counts(back)).as("synced again when it is back, nothing changed").containsExactly(0, 0, 0, 1);
        given().contentType(ContentType.JSON)
                .body(Map.of("type", "folder", "location", folder.toString(), "collection", "sync-watch", "watch", false))
                .post("/api/sources").then().statusCode(201).body("watch", org.hamcrest.Matchers.is(false));
    }

    @Test
    void aGitRepositoryIsSyncedFromItsCommitsAndBranches() throws Exception {
        String collection = "sync-git";
        try (Git git = Git.init().setDirectory(folder.toFile()).setInitialBranch("main").call()) {
            write("README.md", "# Repo\nThe jackalreadme word.");
            write("src/Gone.java", "/** The kudugone word. */\nclass Gone {}\n");
            write("src/Moved.java", "/** The lechwemoved word. */\nclass Moved {}\n");
            commit(git, "first");
            git.branchCreate().setName("release").call();

            String id = create(Map.of("type", "git", "location", folder.toString(), "collection", collection));
            JsonPath first = runAndWait(id, false);
            assertThat(counts(first)).containsExactly(3, 0, 0, 0);
            assertThat(first.getString("commit")).matches("[0-9a-f]{40}");

            git.rm().addFilepattern("src/Gone.java").call();
            Files.move(folder.resolve("src/Moved.java"), folder.resolve("src/Renamed.java"));
            git.rm().addFilepattern("src/Moved.java").call();
            write("README.md", "# Repo\nThe mongoosereadme word.");
            commit(git, "second");
            write("uncommitted.md", "The nyalauncommitted word.");
            JsonPath second = runAndWait(id, false);
            assertThat(counts(second)).containsExactly(1, 1, 2, 0);
            assertThat(second.getString("commit")).isNotEqualTo(first.getString("commit"));
            assertThat(documentsWith(collection, "kudugone")).as("the file the commit deleted is gone").isEmpty();
            assertThat(documentsWith(collection, "lechwemoved")).hasSize(1).allSatisfy(uri -> assertThat(uri).endsWith("/src/Renamed.java"));
            assertThat(documentsWith(collection, "jackalreadme")).isEmpty();
            assertThat(documentsWith(collection, "nyalauncommitted")).as("only what is committed").isEmpty();

            String release = create(Map.of("type", "git", "location", folder.toString(), "collection", "sync-git-release",
                    "branch", "release"));
            assertThat(counts(runAndWait(release, false))).containsExactly(3, 0, 0, 0);
            assertThat(documentsWith("sync-git-release", "kudugone")).as("the branch as it was").hasSize(1);
            String unknown = create(Map.of("type", "git", "location", folder.toString(), "collection", "sync-git-none",
                    "branch", "no-such-branch"));
            JsonPath failed = runAndWait(unknown, false);
            assertThat(failed.getString("state")).isEqualTo("failed");
            assertThat(failed.getString("error")).contains("no branch 'no-such-branch'").contains("main").contains("release");
        }
    }

    @Test
    void badSourcesAreClearErrorsThatCreateNothing() throws IOException {
        Map<String, Object> base = Map.of("type", "folder", "location", folder.toString(), "collection", "sync-bad");
        bad(with(base, "type", "ftp"), 400, "'folder' or 'git'");
        bad(with(base, "location", folder.resolve("missing").toString()), 400, "does not exist");
        bad(with(base, "location", "relative/docs"), 400, "absolute path");
        bad(with(base, "location", "/etc"), 403, "outside the folders this server may sync");
        // the tests' data folder (their key file's folder) is an allowed root too: refused as the data folder, wherever the checkout is
        bad(with(base, "location", Path.of("target").toAbsolutePath().toString()), 400, "data folder");
        bad(with(base, "location", Files.createDirectories(Path.of("target", "sources", "inside")).toAbsolutePath().toString()), 400,
                "data folder");
        for (String hidden : List.of(".ssh", ".git", "notes/.private/keys", ".Trash-1000")) {
            Files.createDirectories(folder.resolve(hidden));
            bad(with(base, "location", folder.resolve(hidden).toString()), 400, "hidden");
        }
        Files.createDirectories(folder.resolve("ssh.d"));
        bad(with(base, "collection", "Bad Name!"), 400, "collection");
        bad(with(base, "include", List.of("[unclosed")), 400, "invalid glob");
        bad(with(base, "schedule", "every tuesday"), 400, "invalid 'schedule'");
        bad(with(base, "branch", "main"), 400, "git sources only");
        bad(with(with(base, "type", "git"), "watch", true), 400, "folder sources only");
        bad(with(base, "type", "git"), 400, "is not a git repository");
        bad(with(with(base, "type", "git"), "location", "https://127.0.0.2/repo.git"), 400, "refused by the fetch rules");
        bad(with(with(base, "type", "git"), "location", "ssh://example.org/repo.git"), 400, "https://");
        bad(with(with(base, "type", "git"), "location", "https://user:pw@example.org/repo.git"), 400, "credentials");
        bad(with(with(base, "type", "git"), "location", "https://no-such-host.invalid/repo.git"), 400, "unreachable");
        // a repository in an allowed folder whose objects/info/alternates borrows objects from outside the allowed roots
        Path borrowing = Files.createTempDirectory("sync-borrowing").resolve("repo.git");
        try (Git ignored = Git.init().setBare(true).setDirectory(borrowing.toFile()).call()) {
            Files.writeString(borrowing.resolve("objects/info/alternates"), Path.of("target").toAbsolutePath() + "\n");
        } catch (org.eclipse.jgit.api.errors.GitAPIException e) {
            throw new IllegalStateException(e);
        }
        bad(Map.of("type", "git", "location", borrowing.toString(), "collection", "sync-bad"), 403,
                "outside the folders this server may sync");
        given().contentType(ContentType.JSON).body("{").post("/api/sources").then().statusCode(400);
        assertThat(given().get("/api/sources").then().statusCode(200).extract().jsonPath().getList("collection"))
                .doesNotContain("sync-bad");
        // the control: a visible folder beside the hidden ones is a source
        String control = create(with(with(base, "location", folder.resolve("ssh.d").toString()), "collection", "sync-bad-control"));
        given().queryParam("deleteDocuments", true).delete("/api/sources/" + control).then().statusCode(200);
        given().get("/api/sources/no-such-source").then().statusCode(404);
        given().post("/api/sources/no-such-source/run").then().statusCode(404);
        given().delete("/api/sources/no-such-source").then().statusCode(404);
    }

    @Test
    void aHugeFileIsRefusedWithItsSizeWhileTheOtherFilesSyncAndTheNextRunStarts() throws Exception {
        String collection = "sync-huge";
        long threeGiB = 3L * 1024 * 1024 * 1024;
        try (java.io.RandomAccessFile sparse = new java.io.RandomAccessFile(folder.resolve("huge.log").toFile(), "rw")) {
            sparse.setLength(threeGiB); // sparse: no byte is written
        }
        write("small.md", "# Small\nThe oryxsmall word.");
        write("deep/other.txt", "The quaggaother word.");
        String id = create(Map.of("type", "folder", "location", folder.toString(), "collection", collection));

        JsonPath first = runAndWait(id, false);
        assertThat(first.getString("state")).isEqualTo("completed");
        assertThat(counts(first)).containsExactly(2, 0, 0, 0);
        assertThat(first.getString("refused.find { it.path == 'huge.log' }.reason")).contains(threeGiB + " bytes")
                .contains("104857600").contains("openrag.sources.max-file-bytes");
        assertThat(documentsWith(collection, "oryxsmall")).hasSize(1);
        assertThat(documentsWith(collection, "quaggaother")).hasSize(1);

        write("added.md", "The rheaadded word.");
        JsonPath next = runAndWait(id, false);
        assertThat(next.getString("state")).as("the next run starts and ends").isEqualTo("completed");
        assertThat(counts(next)).containsExactly(1, 0, 0, 2);
        given().get("/q/health/live").then().statusCode(200);
    }

    @Test
    void runsAskedForDuringARunWaitInOrderWithTheirOwnOptionsAndEveryIdEnds() throws Exception {
        String collection = "sync-queue";
        for (int i = 0; i < 40; i++) {
            write("page-" + i + ".md", "# Page " + i + "\nThe serowqueue" + i + " word.");
        }
        String id = create(Map.of("type", "folder", "location", folder.toString(), "collection", collection));
        assertThat(counts(runAndWait(id, false))).containsExactly(40, 0, 0, 0);
        for (int i = 0; i < 30; i++) {
            Files.delete(folder.resolve("page-" + i + ".md"));
        }
        String refused = ask(id, false);
        String allowed = ask(id, true);
        String after = ask(id, false);
        assertThat(Set.of(refused, allowed, after)).hasSize(3);

        JsonPath first = awaitRunById(id, refused);
        JsonPath second = awaitRunById(id, allowed);
        JsonPath third = awaitRunById(id, after);
        assertThat(first.getString("state")).as("its own allowMassDelete=false").isEqualTo("blocked");
        assertThat(first.getBoolean("allowMassDelete")).isFalse();
        assertThat(second.getString("state")).as("its own allowMassDelete=true").isEqualTo("completed");
        assertThat(second.getBoolean("allowMassDelete")).isTrue();
        assertThat(counts(second)).containsExactly(0, 0, 30, 10);
        assertThat(third.getString("state")).isEqualTo("completed");
        assertThat(counts(third)).as("after the deletions: nothing left to do").containsExactly(0, 0, 0, 10);
        assertThat(Instant.parse(second.getString("startedAt"))).isAfterOrEqualTo(Instant.parse(first.getString("finishedAt")));
        assertThat(Instant.parse(third.getString("startedAt"))).isAfterOrEqualTo(Instant.parse(second.getString("finishedAt")));
        given().get("/api/sources/" + id + "/runs/no-such-run").then().statusCode(404).body("message",
                org.hamcrest.Matchers.containsString("no recent run"));
    }

    @Test
    void aSourceDeletedAndMadeAgainReplacesItsDocumentsAndDeletingStopsItsRun() throws Exception {
        String collection = "sync-again";
        write("one.md", "The sitatungaone word.");
        write("two/two.md", "The springboktwo word.");
        String first = create(Map.of("type", "folder", "location", folder.toString(), "collection", collection));
        assertThat(counts(runAndWait(first, false))).containsExactly(2, 0, 0, 0);
        given().delete("/api/sources/" + first).then().statusCode(200); // its documents are kept

        write("one.md", "The sitatungaone word, edited while no source kept the folder.");
        String again = create(Map.of("type", "folder", "location", folder.toString(), "collection", collection));
        assertThat(again).isNotEqualTo(first);
        assertThat(counts(runAndWait(again, false))).containsExactly(2, 0, 0, 0);
        assertThat(documentsWith(collection, "sitatungaone")).as("replaced, not duplicated").hasSize(1);
        assertThat(documentsWith(collection, "springboktwo")).hasSize(1);
        awaitChunkDocuments(collection, 2);
        assertThat(chunkDocuments(collection)).as("the folder's two documents, once").isEqualTo(2);

        // a source whose folder the operator's roots no longer cover stops with the reason (here: its record points out of them)
        driver.executableQuery("MATCH (s:SyncSource {id: $id}) SET s.location = '/etc'").withParameters(Map.of("id", again)).execute();
        JsonPath stopped = runAndWait(again, false);
        assertThat(stopped.getString("state")).isEqualTo("failed");
        assertThat(stopped.getString("error")).containsAnyOf("outside the folders this server may sync", "symbolic link");
        assertThat(documentsWith(collection, "sitatungaone")).as("nothing changed").hasSize(1);
        driver.executableQuery("MATCH (s:SyncSource {id: $id}) SET s.location = $location")
                .withParameters(Map.of("id", again, "location", folder.toRealPath().toString())).execute();

        // deleting a source during its run stops the run; its documents and records all go, none is left behind
        for (int i = 0; i < 60; i++) {
            write("many/page-" + i + ".md", "The takinmany" + i + " word.");
        }
        ask(again, false);
        given().queryParam("deleteDocuments", true).delete("/api/sources/" + again).then().statusCode(200);
        given().get("/api/sources/" + again).then().statusCode(404);
        awaitNoDocumentsWith(collection, "sitatungaone");
        awaitChunkDocuments(collection, 0);
        IngestTestSupport.sleep(2000); // a run that went on would publish or record more by now
        assertThat(chunkDocuments(collection)).as("no document of the deleted source is left").isZero();
        assertThat(driver.executableQuery("MATCH (f:SyncedFile {sourceId: $id}) RETURN count(f) AS n").withParameters(Map.of("id", again))
                .execute().records().get(0).get("n").asLong()).as("no record of it either").isZero();
    }

    @Test
    void everyCollectionsSourcesAreListedAndShownWhenTheyExist() throws Exception {
        write("listed.md", "The urialisted word.");
        String alpha = create(Map.of("type", "folder", "location", folder.toString(), "collection", "sync-list-alpha"));
        String beta = create(Map.of("type", "folder", "location", folder.toString(), "collection", "sync-list-beta"));
        JsonPath all = given().get("/api/sources").then().statusCode(200).extract().jsonPath();
        assertThat(all.getList("id", String.class)).contains(alpha, beta);
        assertThat(all.getString("find { it.id == '" + alpha + "' }.collection")).isEqualTo("sync-list-alpha");
        assertThat(all.getString("find { it.id == '" + beta + "' }.collection")).isEqualTo("sync-list-beta");
        assertThat(counts(runAndWait(beta, false))).containsExactly(1, 0, 0, 0);
        assertThat(given().get("/api/sources/" + beta + "/runs").then().statusCode(200).extract().jsonPath().getList("state"))
                .containsExactly("completed");
        assertThat(given().get("/api/sources/" + alpha + "/runs").then().statusCode(200).extract().jsonPath().getList("state")).isEmpty();
        assertThat(documentsWith("sync-list-alpha", "urialisted")).as("each collection syncs when it is run").isEmpty();
        given().get("/api/sources/no-such-source/runs").then().statusCode(404);
    }

    private static String ask(String id, boolean allowMassDelete) {
        return given().queryParam("allowMassDelete", allowMassDelete).post("/api/sources/" + id + "/run")
                .then().statusCode(202).extract().path("runId");
    }

    /** Waits until the run with this id (as the API answered it) ended. */
    private static JsonPath awaitRunById(String id, String runId) {
        long deadline = System.nanoTime() + RUN_TIMEOUT.toNanos();
        JsonPath run;
        do {
            run = given().get("/api/sources/" + id + "/runs/" + runId).then().statusCode(200).extract().jsonPath();
            if (!List.of("queued", "running").contains(run.getString("state"))) {
                return run;
            }
            IngestTestSupport.sleep(200);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("run " + runId + " did not end: " + run.prettify());
    }

    private void awaitChunkDocuments(String collection, long expected) {
        long deadline = System.nanoTime() + RUN_TIMEOUT.toNanos();
        while (chunkDocuments(collection) != expected) {
            assertThat(System.nanoTime()).as(expected + " documents in " + collection).isLessThan(deadline);
            IngestTestSupport.sleep(250);
        }
    }

    private static Map<String, Object> with(Map<String, Object> base, String key, Object value) {
        Map<String, Object> changed = new HashMap<>(base);
        changed.put(key, value);
        return changed;
    }

    private static void bad(Map<String, Object> request, int status, String message) {
        given().contentType(ContentType.JSON).body(request).post("/api/sources").then().statusCode(status)
                .body("message", org.hamcrest.Matchers.containsString(message));
    }

    private void write(String path, String text) throws IOException {
        Path file = folder.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    private static void commit(Git git, String message) throws Exception {
        git.add().addFilepattern(".").call();
        git.commit().setMessage(message).setAuthor("Test", "test@example.org").setCommitter("Test", "test@example.org")
                .setSign(false).call();
    }

    private static String create(Map<String, Object> request) {
        return given().contentType(ContentType.JSON).body(request).post("/api/sources").then().statusCode(201)
                .extract().path("id");
    }

    /** Runs a source and waits until that run ended; its job finished too when it has one. */
    private static JsonPath runAndWait(String id, boolean allowMassDelete) {
        return awaitRunById(id, ask(id, allowMassDelete));
    }

    /** Waits until the source's last run is one {@code wanted} accepts (runs made by its watch). */
    private static JsonPath awaitRun(String id, java.util.function.Predicate<JsonPath> wanted) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        JsonPath run;
        do {
            IngestTestSupport.sleep(200);
            run = given().get("/api/sources/" + id).then().statusCode(200).extract().jsonPath().setRootPath("lastRun");
            assertThat(System.nanoTime()).as("the watch's run: " + run.prettify()).isLessThan(deadline);
        } while (!wanted.test(run));
        return run;
    }

    private static List<Integer> counts(JsonPath run) {
        return List.of(run.getInt("added"), run.getInt("changed"), run.getInt("deleted"), run.getInt("unchanged"));
    }

    /** The source URIs of the documents whose chunks hold {@code word} (BM25 in OpenSearch). */
    private Set<String> documentsWith(String collection, String word) {
        return lexical.search(collection, word, 20).stream().map(ScoredChunk::chunk)
                .filter(chunk -> chunk.text().contains(word)).map(chunk -> chunk.sourceUri()).collect(Collectors.toSet());
    }

    private long chunkDocuments(String collection) {
        return driver.executableQuery("MATCH (d:Document {collection: $c}) RETURN count(d) AS n").withParameters(Map.of("c", collection))
                .execute().records().get(0).get("n").asLong();
    }

    private void awaitDocumentsWith(String collection, String word, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (documentsWith(collection, word).isEmpty()) {
            assertThat(System.nanoTime()).as(word + " searchable in " + collection + " within " + timeout).isLessThan(deadline);
            IngestTestSupport.sleep(250);
        }
    }

    private void awaitNoDocumentsWith(String collection, String word) {
        long deadline = System.nanoTime() + RUN_TIMEOUT.toNanos();
        while (!documentsWith(collection, word).isEmpty()) {
            assertThat(System.nanoTime()).as(word + " gone from " + collection).isLessThan(deadline);
            IngestTestSupport.sleep(250);
        }
    }
}
