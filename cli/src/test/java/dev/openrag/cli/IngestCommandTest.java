package dev.openrag.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IngestCommandTest {

    @TempDir
    Path dir;

    @Test
    void expandsFilesFoldersRecursivelyAndGlobsSkippingHiddenFiles() throws Exception {
        Files.createDirectories(dir.resolve("docs/deep"));
        Files.createDirectories(dir.resolve("docs/.git"));
        Files.writeString(dir.resolve("docs/a.md"), "a");
        Files.writeString(dir.resolve("docs/deep/b.md"), "b");
        Files.writeString(dir.resolve("docs/deep/c.txt"), "c");
        Files.writeString(dir.resolve("docs/.git/config"), "x");
        Files.writeString(dir.resolve("single.pdf"), "p");

        assertThat(IngestCommand.expand(List.of(dir.resolve("docs").toString())))
                .extracting(p -> dir.relativize(p).toString())
                .containsExactly("docs/a.md", "docs/deep/b.md", "docs/deep/c.txt");
        assertThat(IngestCommand.expand(List.of(dir + "/docs/**.md")))
                .extracting(p -> p.getFileName().toString()).containsExactlyInAnyOrder("a.md", "b.md");
        assertThat(IngestCommand.expand(List.of(dir.resolve("single.pdf").toString()))).hasSize(1);
    }

    @Test
    void aMissingPathIsAClearError() {
        assertThatThrownBy(() -> IngestCommand.expand(List.of(dir.resolve("nope.md").toString())))
                .hasMessageContaining("no such file or folder").hasMessageContaining("nope.md");
    }

    @Test
    void ingestWithoutARunningPipelineSaysHowToStartIt() throws Exception {
        Files.writeString(dir.resolve("a.md"), "# A");
        int port = dev.openrag.localstack.Ports.free();
        int exit = OpenRagCommand.execute("ingest", dir.resolve("a.md").toString(), "--url", "http://127.0.0.1:" + port);
        assertThat(exit).isEqualTo(1);
    }
}
