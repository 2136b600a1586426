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

    /**
     * The env forms of the apps' config keys (MicroProfile Config: openrag.x.y from OPENRAG_X_Y, in any case), the tracing
     * exporter's and SmallRye's own, and the LLM providers' keys.
     */
    private static final Pattern SETTING = Pattern.compile("(OPENRAG|QUARKUS|KAFKA|MP|OTEL|SMALLRYE)_\\w*|(OPENAI|ANTHROPIC|GEMINI)_API_KEY",
            Pattern.CASE_INSENSITIVE);

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

    @Test
    void aLocaleInTheUsersLateJavaOptionsDoesNotBeatTheEnglishAChildRunsIn(@TempDir Path home) throws Exception {
        // the JVM reads _JAVA_OPTIONS after its command line: Turkish there broke Kafka's storage format ("CLASSİC")
        Map<String, String> turkish = Map.of("_JAVA_OPTIONS", "-Duser.language=tr -Duser.country=TR");
        List<String> java = new java.util.ArrayList<>(List.of(JavaRuntime.javaBinary()));
        java.addAll(JavaRuntime.commonOptions());
        java.addAll(List.of("-XshowSettings:properties", "-version"));

        // the control: launched plainly, the late options win over the command line
        ProcessBuilder plain = new ProcessBuilder(java).redirectErrorStream(true);
        plain.environment().putAll(turkish);
        Process process = plain.start();
        String plainSettings = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor();
        assertThat(plainSettings).contains("user.language = tr");

        ProcessSupervisor supervisor = new ProcessSupervisor(home, false);
        // started as every engine is: the child prints its settings and exits
        List<String> command = new java.util.ArrayList<>(List.of("/bin/sh", "-c", "\"$@\"; exit 3", ComponentSpec.marker("settings")));
        command.addAll(java);
        ComponentSpec printer = new ComponentSpec("settings", Ports.free(), List.of(), command, turkish, ComponentSpec.Preparation.NONE,
                () -> false, Duration.ofSeconds(60));
        assertThatThrownBy(() -> supervisor.start(printer)).isInstanceOf(LocalStackException.class).hasMessageContaining("exited");
        String settings = Files.readString(supervisor.logFile("settings"), StandardCharsets.UTF_8);
        assertThat(settings).contains("user.language = en").contains("user.country = US").doesNotContain("user.language = tr");
    }

    private static Set<String> settings(java.util.Collection<String> names) {
        return names.stream().filter(name -> SETTING.matcher(name).matches()).collect(java.util.stream.Collectors.toSet());
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).collect(java.util.stream.Collectors.toSet());
    }
}
