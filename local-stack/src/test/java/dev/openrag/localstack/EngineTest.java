package dev.openrag.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Properties;

import org.apache.kafka.common.utils.Utils;

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

    @Test
    void kafkaReadsItsPropertiesBackExactlyWhateverLettersThePathHas(@TempDir Path folder) throws Exception {
        // Kafka loads server.properties as ISO-8859-1: a UTF-8 "ü" would name another data folder
        String data = folder.resolve("openrag ünï İı 数据\\x").resolve("kafka").resolve("data").toString();
        Path properties = folder.resolve("server.properties");
        Files.writeString(properties, Engine.propertiesText("log.dirs=" + data + "\nnode.id=1\n"), StandardCharsets.US_ASCII);
        Properties read = Utils.loadProps(properties.toString());
        assertThat(read.getProperty("log.dirs")).isEqualTo(data);
        assertThat(read.getProperty("node.id")).isEqualTo("1");
        // the control: the same text written as UTF-8 without escapes does come back changed
        Files.writeString(properties, "log.dirs=" + data + "\n", StandardCharsets.UTF_8);
        assertThat(Utils.loadProps(properties.toString()).getProperty("log.dirs")).isNotEqualTo(data);
    }

    @Test
    void onlyATestStacksKafkaDropsADeadBrokerOrConsumerSooner(@TempDir Path folder) throws Exception {
        StackConfig installation = new StackConfig(folder.resolve("installation"), 9092, 9093, 7687, 9200, 9300);
        StackConfig tests = StackConfig.onFreePorts(folder.resolve("tests"));
        assertThat(installation.forTests()).isFalse();
        assertThat(installation.cluster().forTests()).as("the cluster profile of an installation").isFalse();
        assertThat(StackConfig.clusterOnFreePorts(folder.resolve("cluster")).forTests()).isTrue();

        Properties installed = kafkaProperties(installation, folder);
        assertThat(installed).as("Kafka's own defaults").doesNotContainKeys("broker.session.timeout.ms", "group.min.session.timeout.ms");
        assertThat(installed.getProperty("node.id")).isEqualTo("1");
        Properties tested = kafkaProperties(tests, folder);
        assertThat(tested.getProperty("broker.session.timeout.ms")).isEqualTo("3000");
        assertThat(Integer.parseInt(tested.getProperty("broker.heartbeat.interval.ms"))).isLessThan(3000);
        assertThat(tested.getProperty("group.min.session.timeout.ms")).isEqualTo("3000");
    }

    /** The server.properties that starting {@code config}'s Kafka writes (its storage formatted already: no tool runs). */
    private static Properties kafkaProperties(StackConfig config, Path folder) throws Exception {
        Path data = Files.createDirectories(config.home().resolve("kafka").resolve("data"));
        Files.writeString(data.resolve("meta.properties"), "");
        Engine.KAFKA.spec(config).prepare().run(Files.createTempFile(folder, "kafka", ".log"));
        return Utils.loadProps(config.home().resolve("kafka").resolve("server.properties").toString());
    }

    @Test
    void anEnginesFolderWithACommaIsRefusedBeforeAnythingStarts(@TempDir Path folder) {
        // Kafka, OpenSearch and Log4j would read "clones, old" as two folders
        assertThatThrownBy(() -> LocalStack.requireNoComma(folder.resolve("clones, old").resolve(".openrag")))
                .isInstanceOf(LocalStackException.class).hasMessageContaining("comma").hasMessageContaining("clones, old");
        // the control: spaces and letters past ASCII are fine
        LocalStack.requireNoComma(folder.resolve("openrag ünï İı").resolve(".openrag"));
    }
}
