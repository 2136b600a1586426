package dev.openrag.localstack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * How to run one component (an engine or an app) as a local process.
 *
 * @param name       short name used for the pid file, the log file and in messages ("kafka")
 * @param port       the port users talk to
 * @param otherPorts further ports it binds (controller, transport), checked before start
 * @param command    the full command line; a java command carries {@code -Dopenrag.component=NAME}
 * @param env        extra environment variables
 * @param prepare    runs before the first start of a fresh data directory (e.g. Kafka's storage format)
 * @param health     real readiness probe
 * @param niceness   how much lower than normal its CPU priority is (0: normal; see {@link CpuPriority})
 */
public record ComponentSpec(
        String name,
        int port,
        List<Integer> otherPorts,
        List<String> command,
        Map<String, String> env,
        Preparation prepare,
        HealthCheck health,
        Duration startTimeout,
        int niceness) {

    public ComponentSpec(String name, int port, List<Integer> otherPorts, List<String> command, Map<String, String> env,
                         Preparation prepare, HealthCheck health, Duration startTimeout) {
        this(name, port, otherPorts, command, env, prepare, health, startTimeout, 0);
    }

    /** The same component run at a lower CPU priority. */
    public ComponentSpec withNiceness(int lower) {
        return new ComponentSpec(name, port, otherPorts, command, env, prepare, health, startTimeout, lower);
    }

    /** Work done before launching, given the component's log file to append its output to. */
    @FunctionalInterface
    public interface Preparation {
        void run(Path logFile) throws Exception;

        Preparation NONE = logFile -> { };
    }

    /** Marker put on every java command line, so a pid can be recognised as ours. */
    public static String marker(String name) {
        return "-Dopenrag.component=" + name;
    }

    public List<Integer> allPorts() {
        return java.util.stream.Stream.concat(java.util.stream.Stream.of(port), otherPorts.stream()).toList();
    }
}
