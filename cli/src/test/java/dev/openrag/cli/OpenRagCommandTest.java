package dev.openrag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commands that need no running stack; up/down against real engines are covered in local-stack. */
class OpenRagCommandTest {

    @TempDir
    Path home;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream originalOut;
    private PrintStream originalErr;

    @BeforeEach
    void capture() {
        System.setProperty("openrag.home", home.toString());
        originalOut = System.out;
        originalErr = System.err;
        System.setOut(new PrintStream(out, true));
        System.setErr(new PrintStream(err, true));
    }

    @AfterEach
    void restore() {
        System.setOut(originalOut);
        System.setErr(originalErr);
        System.clearProperty("openrag.home");
    }

    @Test
    void statusListsEveryComponentAsStoppedOnAFreshHome() {
        int exit = OpenRagCommand.execute("status");

        assertThat(exit).isZero();
        assertThat(out.toString()).contains("COMPONENT", "kafka", "neo4j", "opensearch", "query-api", "ingest-pipeline", "mcp-memory");
        assertThat(out.toString().lines().skip(1)).hasSize(6).allSatisfy(line -> assertThat(line).contains("stopped"));
    }

    @Test
    void statusShowsAFailedComponentWithItsLogTailAndExitCode3() throws Exception {
        Files.createDirectories(home.resolve("run"));
        Files.createDirectories(home.resolve("logs"));
        Files.writeString(home.resolve("run/kafka.pid"), "999999999"); // a pid that cannot exist
        Files.writeString(home.resolve("logs/kafka.log"), "starting\nERROR disk full\n");

        int exit = OpenRagCommand.execute("status");

        assertThat(exit).isEqualTo(StatusCommand.SOME_FAILED);
        assertThat(out.toString()).containsPattern("kafka\\s+failed").contains("ERROR disk full");
    }

    @Test
    void downWithNothingRunningSaysSo() {
        assertThat(OpenRagCommand.execute("down")).isZero();
        assertThat(out.toString()).contains("nothing was running");
    }

    @Test
    void logsOfAnUnknownComponentNamesTheKnownOnes() {
        assertThat(OpenRagCommand.execute("logs", "kafak")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown component 'kafak'", "kafka, neo4j, opensearch");
    }

    @Test
    void logsPrintsTheLastLines() throws Exception {
        Files.createDirectories(home.resolve("logs"));
        Files.writeString(home.resolve("logs/neo4j.log"), "one\ntwo\nthree\n");

        assertThat(OpenRagCommand.execute("logs", "neo4j", "-n", "2")).isZero();
        assertThat(out.toString().lines()).containsExactly("two", "three");
    }

    @Test
    void unknownCommandIsAUsageError() {
        assertThat(OpenRagCommand.execute("upp")).isEqualTo(2);
        assertThat(err.toString()).contains("Unmatched argument");
    }
}
