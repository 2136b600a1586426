package dev.openrag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.openrag.localstack.StackConfig;

/** The source roots `up` hands the ingest app are a config list: each folder one item, whatever its name holds. */
class SourceRootsTest {

    @TempDir
    Path home;

    @Test
    void aCommaOrBackslashInAFolderNameStaysInsideItsItem() {
        String before = System.getProperty("openrag.root");
        System.setProperty("openrag.root", home.resolve("Doe, Jane\\ünï").resolve("openrag").toString());
        try {
            String roots = new Stack(StackConfig.onFreePorts(home)).sourceRoots();
            // the list splits only at unescaped commas, as SmallRye Config does: home, temp folder, the checkout's folder
            String[] items = roots.split("(?<!\\\\),");
            assertThat(items).hasSize(3);
            assertThat(items[2]).isEqualTo(Stack.listItem(home.resolve("Doe, Jane\\ünï").toString()))
                    .endsWith("Doe\\, Jane\\\\ünï");
        } finally {
            if (before == null) {
                System.clearProperty("openrag.root");
            } else {
                System.setProperty("openrag.root", before);
            }
        }
        // the control: a plain folder is written as it is
        assertThat(Stack.listItem("/home/jane/notes")).isEqualTo("/home/jane/notes");
    }
}
