package dev.openrag.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
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

    @Test
    void aComponentStartedAtALowerPriorityRunsNicedAndItsOwnSessionsGroupToo() throws Exception {
        Path sleeper = Files.writeString(home.resolve("Sleep.java"),
                "class Sleep { public static void main(String[] args) throws Exception { Thread.sleep(120_000); } }");
        for (boolean detached : List.of(true, false)) {
            String name = detached ? "niced-detached" : "niced-attached";
            ProcessSupervisor supervisor = new ProcessSupervisor(home, detached);
            ComponentSpec spec = new ComponentSpec(name, Ports.free(), List.of(),
                    List.of(JavaRuntime.javaBinary(), ComponentSpec.marker(name), sleeper.toString()),
                    java.util.Map.of(), ComponentSpec.Preparation.NONE, () -> true, Duration.ofSeconds(30)).withNiceness(7);
            String ownGroup = Files.readString(Path.of("/proc/self/autogroup"));
            // nice(1) lowers from where the caller is: a suite run under `nice -n 10` sees 17
            String ownStat = Files.readString(Path.of("/proc/self/stat"));
            int ownNice = Integer.parseInt(ownStat.substring(ownStat.lastIndexOf(')') + 2).split(" ")[16]);
            try {
                supervisor.start(spec);
                long pid = supervisor.status(spec).pid();
                Path comm = Path.of("/proc", Long.toString(pid), "comm");
                for (int attempt = 0; attempt < 100 && !Files.readString(comm).strip().equals("java"); attempt++) {
                    Thread.sleep(50); // until setsid and nice have exec'd java (their command lines name it already)
                }
                assertThat(Files.readString(comm).strip()).isEqualTo("java");
                String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");

                assertThat(fields[16]).as(name + "'s nice value").isEqualTo(Integer.toString(Math.min(19, ownNice + 7)));
                assertThat(CpuPriority.session(pid)).as("a session of its own only when detached")
                        .matches(session -> (session.getAsLong() == pid) == detached);
                Path autogroup = Path.of("/proc", Long.toString(pid), "autogroup");
                if (detached && Files.exists(autogroup)) {
                    assertThat(Files.readString(autogroup)).as("its session's group, lowered").endsWith("nice 7\n");
                }
                assertThat(Files.readString(Path.of("/proc/self/autogroup"))).as("the caller's group is left alone").isEqualTo(ownGroup);
            } finally {
                supervisor.stop(name, Duration.ofSeconds(5));
            }
        }
        assertThat(CpuPriority.commandPrefix(0)).isEmpty();
        assertThat(CpuPriority.lowerOwnSessionGroup(ProcessHandle.current().pid(), 0)).as("0: nothing to do").isFalse();
        assertThat(CpuPriority.session(Long.MAX_VALUE)).as("no such process").isEmpty();
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
    void aFailedStartShowsOnlyItsOwnLinesWhateverCharsetTheyAreIn() throws Exception {
        ProcessSupervisor supervisor = new ProcessSupervisor(home, false);
        // the log is appended to: an earlier start's lines are there already, fewer than a tail's worth
        Files.writeString(supervisor.logFile("latin"), "=== starting latin at an earlier time\nan earlier run's line\n".repeat(3),
                StandardCharsets.UTF_8);
        // "café" in ISO-8859-1, as a process in a Latin-1 locale writes it: not UTF-8
        ComponentSpec latin = new ComponentSpec("latin", Ports.free(), List.of(),
                List.of("/bin/sh", "-c", "printf 'caf\\351 ouvert\\n'; echo this start failed; exit 3", ComponentSpec.marker("latin")),
                java.util.Map.of(), ComponentSpec.Preparation.NONE, () -> false, Duration.ofSeconds(30));

        assertThatThrownBy(() -> supervisor.start(latin))
                .isInstanceOf(LocalStackException.class)
                .hasMessageContaining("latin exited during start-up")
                .hasMessageContaining("caf\uFFFD ouvert")
                .hasMessageContaining("this start failed")
                .hasMessageNotContaining("an earlier run's line");
        // a status (another JVM's `openrag status`) has only the log: the latest start's lines, the same way
        assertThat(supervisor.status(latin).logTail())
                .contains("caf\uFFFD ouvert", "this start failed")
                .doesNotContain("an earlier run's line");
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
