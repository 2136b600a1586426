package dev.openrag.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Lifecycle edge cases: port conflicts, double starts, engines that die. Uses a real Neo4j. */
class ProcessSupervisorTest {

    @TempDir
    Path home;

    @Test
    void portAlreadyTakenIsNamedInTheError() throws Exception {
        try (ServerSocket squatter = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            StackConfig config = new StackConfig(home, Ports.free(), Ports.free(), squatter.getLocalPort(), Ports.free(), Ports.free());
            LocalStack stack = new LocalStack(config, false);

            assertThatThrownBy(() -> stack.start(List.of(Engine.NEO4J), line -> { }))
                    .isInstanceOf(LocalStackException.class)
                    .hasMessageContaining("neo4j cannot start: port " + squatter.getLocalPort() + " is already in use");
            assertThat(stack.status(Engine.NEO4J).state()).isEqualTo(ComponentStatus.State.STOPPED);
        }
    }

    @Test
    void startingTwiceKeepsOneProcessAndAKilledEngineShowsAsFailedWithItsLog() throws Exception {
        LocalStack stack = new LocalStack(StackConfig.onFreePorts(home), false);
        try {
            stack.start(List.of(Engine.NEO4J), line -> { });
            ComponentStatus first = stack.status(Engine.NEO4J);
            assertThat(first.state()).isEqualTo(ComponentStatus.State.RUNNING);

            stack.start(List.of(Engine.NEO4J), line -> { });
            assertThat(stack.status(Engine.NEO4J).pid()).as("no second process").isEqualTo(first.pid());
            assertThat(ProcessHandle.allProcesses().filter(p -> fullCommandLine(p).contains(ComponentSpec.marker("neo4j"))
                    && fullCommandLine(p).contains(home.toString())))
                    .hasSize(1);

            ProcessHandle process = ProcessHandle.of(first.pid()).orElseThrow();
            new ProcessBuilder("kill", "-9", Long.toString(first.pid())).start().waitFor();
            process.onExit().get();

            ComponentStatus dead = stack.status(Engine.NEO4J);
            assertThat(dead.state()).isEqualTo(ComponentStatus.State.FAILED);
            assertThat(dead.logTail()).isNotEmpty().anySatisfy(line -> assertThat(line).contains("bolt listening"));
        } finally {
            stack.stop(List.of(Engine.NEO4J));
        }
        assertThat(stack.status(Engine.NEO4J).state()).isEqualTo(ComponentStatus.State.STOPPED);
    }

    /** ProcessHandle.Info truncates long command lines (ours carry a long class path): read /proc. */
    private static String fullCommandLine(ProcessHandle process) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(process.pid()), "cmdline")).replace('\0', ' ');
        } catch (java.io.IOException e) {
            return "";
        }
    }

    @Test
    void aComponentThatExitsDuringStartUpReportsItsLogTail() {
        ProcessSupervisor supervisor = new ProcessSupervisor(home, false);
        ComponentSpec broken = new ComponentSpec("broken", Ports.free(), List.of(),
                List.of(JavaRuntime.javaBinary(), ComponentSpec.marker("broken"), "-cp", "/nonexistent", "no.such.Main"),
                java.util.Map.of(), ComponentSpec.Preparation.NONE, () -> false, Duration.ofSeconds(30));

        assertThatThrownBy(() -> supervisor.start(broken))
                .isInstanceOf(LocalStackException.class)
                .hasMessageContaining("broken exited during start-up")
                .hasMessageContaining("no.such.Main");
        assertThat(supervisor.status(broken).state()).isEqualTo(ComponentStatus.State.FAILED);
        assertThat(Files.exists(home.resolve("logs/broken.log"))).isTrue();
    }
}
