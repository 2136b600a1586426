package dev.openrag.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EngineTest {

    @Test
    void aFailedCommandsOwnOutputIsItsTailAfterWhatTheLogHeldBefore(@TempDir Path folder) throws Exception {
        Path log = folder.resolve("kafka.log");
        Files.writeString(log, "=== an earlier start\nold line\n", StandardCharsets.UTF_8);
        long before = Files.size(log);
        assertThat(Engine.outputTail(log, before, 3)).containsExactly("(nothing)");

        StringBuilder output = new StringBuilder();
        for (int line = 1; line <= 5; line++) {
            output.append("line ").append(line).append(" İı\n");
        }
        Files.writeString(log, output, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        assertThat(Engine.outputTail(log, before, 3)).containsExactly("line 3 İı", "line 4 İı", "line 5 İı");
        assertThat(Engine.outputTail(log, before, 10)).hasSize(5).doesNotContain("old line");
    }
}
