package dev.openrag.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogTailTest {

    @TempDir
    Path folder;

    @Test
    void aByteThatIsNotUtf8ShowsAsAReplacementCharacterAndTheLinesStay() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes("before\n".getBytes(StandardCharsets.UTF_8));
        bytes.writeBytes("Stra\u00dfe ge\u00f6ffnet\n".getBytes(StandardCharsets.ISO_8859_1));
        bytes.writeBytes("after \u0130\u0131\n".getBytes(StandardCharsets.UTF_8));
        Path log = Files.write(folder.resolve("latin.log"), bytes.toByteArray());

        assertThat(LogTail.since(log, 0, 5)).containsExactly("before", "Stra\uFFFDe ge\uFFFDffnet", "after \u0130\u0131");
    }

    @Test
    void onlyTheLinesFromTheOffsetOnAndOfALongLogOnlyWholeLinesAtItsEnd() throws Exception {
        Path log = folder.resolve("long.log");
        Files.writeString(log, "an earlier run\n");
        long start = Files.size(log);
        StringBuilder lines = new StringBuilder();
        for (int line = 1; lines.length() < 3 * LogTail.WINDOW_BYTES; line++) {
            lines.append("line ").append(line).append(" of this run\n");
        }
        Files.writeString(log, lines, java.nio.file.StandardOpenOption.APPEND);
        String[] written = lines.toString().split("\n");

        assertThat(LogTail.since(log, start, 3)).containsExactly(written[written.length - 3], written[written.length - 2],
                written[written.length - 1]);
        assertThat(LogTail.since(log, start, Integer.MAX_VALUE)).as("whole lines only, however the window falls")
                .allMatch(line -> line.matches("line \\d+ of this run"));
        assertThat(LogTail.since(log, Files.size(log), 3)).isEmpty();
        Files.writeString(log, "three\nlines\nhere\n", java.nio.file.StandardOpenOption.TRUNCATE_EXISTING);
        assertThat(LogTail.since(log, "three\n".length(), 5)).containsExactly("lines", "here");
    }

    @Test
    void sinceTheLastStartLineOrAllWhenThereIsNone() throws Exception {
        Path log = Files.writeString(folder.resolve("starts.log"),
                "=== starting kafka at one\nfirst run\n=== starting kafka at two\nsecond run\nits error\n");
        assertThat(LogTail.sinceLast(log, "=== starting kafka at ", 10))
                .containsExactly("=== starting kafka at two", "second run", "its error");
        // a line that only contains the start line is not one
        Files.writeString(log, "echo '=== starting kafka at three'\n", java.nio.file.StandardOpenOption.APPEND);
        assertThat(LogTail.sinceLast(log, "=== starting kafka at ", 10)).first().isEqualTo("=== starting kafka at two");
        // the control: a log without a start line (written by an older version) shows its last lines
        Path older = Files.writeString(folder.resolve("older.log"), "a\nb\nc\n");
        assertThat(LogTail.sinceLast(older, "=== starting kafka at ", 2)).containsExactly("b", "c");
    }
}
