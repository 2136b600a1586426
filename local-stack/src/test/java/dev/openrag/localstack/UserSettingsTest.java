package dev.openrag.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a user exports for their own install (an admin key, the install's data folder, a real LLM, a topic's partitions,
 * any setting at all) reaches neither the test JVMs nor the engines and apps they start: mvnw drops every variable that
 * configures the apps (.mvn/no-user-settings.sh). .ci/portability runs the tests in the shell of a user whose
 * {@code ./openrag up} has auth on, with settings no list names.
 */
class UserSettingsTest {

    /** The env forms of the apps' config keys (MicroProfile Config: openrag.x.y from OPENRAG_X_Y) and the LLM providers' keys. */
    private static final Pattern SETTING = Pattern.compile("(OPENRAG|QUARKUS|KAFKA|MP)_\\w*|(OPENAI|ANTHROPIC|GEMINI)_API_KEY");

    /** What the build gives the test JVMs itself: the pom's environmentVariables for Surefire and Failsafe. */
    private static final Set<String> SET_BY_THE_BUILD = Set.of("OPENRAG_TEST_HOME", "OPENRAG_CHILD_JVM_OPTIONS");

    @Test
    void noSettingOfTheUsersShellReachesATestJvm() {
        assertThat(settings(System.getenv().keySet()))
                .as("settings of the shell Maven ran in; ./mvnw leaves them out (.mvn/no-user-settings.sh): run the tests with it")
                .isSubsetOf(SET_BY_THE_BUILD);
        // the control: what the build itself sets does arrive
        assertThat(System.getenv("OPENRAG_TEST_HOME")).isNotBlank();
    }

    @Test
    void norAnEngineOrAppTheTestsStart(@TempDir Path home) throws Exception {
        ProcessSupervisor supervisor = new ProcessSupervisor(home, false);
        // started as every engine and app is (ProcessSupervisor), it writes its environment to its log and exits
        ComponentSpec printer = new ComponentSpec("environment", Ports.free(), List.of(),
                List.of("/bin/sh", "-c", "env; exit 3", ComponentSpec.marker("environment")),
                Map.of("OPENRAG_SET_BY_THE_TEST", "arrives"), ComponentSpec.Preparation.NONE, () -> false, Duration.ofSeconds(30));
        assertThatThrownBy(() -> supervisor.start(printer)).isInstanceOf(LocalStackException.class).hasMessageContaining("exited");

        Set<String> names = settings(Files.readAllLines(supervisor.logFile("environment"), StandardCharsets.UTF_8).stream()
                .filter(line -> line.contains("=")).map(line -> line.substring(0, line.indexOf('='))).toList());
        // the control: what the test hands the process does arrive, as does what the build set for the test JVM
        assertThat(names).contains("OPENRAG_SET_BY_THE_TEST", "OPENRAG_TEST_HOME");
        assertThat(names).isSubsetOf(union(SET_BY_THE_BUILD, Set.of("OPENRAG_SET_BY_THE_TEST", EngineMain.WATCH_PID_ENV)));
    }

    private static Set<String> settings(java.util.Collection<String> names) {
        return names.stream().filter(name -> SETTING.matcher(name).matches()).collect(java.util.stream.Collectors.toSet());
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).collect(java.util.stream.Collectors.toSet());
    }
}
