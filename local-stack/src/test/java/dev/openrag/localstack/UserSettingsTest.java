package dev.openrag.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * What a user exports for their own install (an admin key, the install's data folder, a real LLM) does not reach the test
 * JVMs, nor the engines and apps they start: the build leaves them out (openrag.test.user-settings in the parent pom).
 * .ci/portability runs the tests with such settings exported, as the shell of a user whose {@code ./openrag up} has auth on.
 */
class UserSettingsTest {

    @Test
    void anInstallsKeysAndFoldersAreNotInheritedByTheTests() {
        for (String variable : List.of("OPENRAG_AUTH_ADMIN_KEY", "OPENRAG_API_KEY", "OPENRAG_SECRETS_KEY", "OPENRAG_SOURCES_ALLOWED_ROOTS",
                "OPENRAG_CHAT_PROVIDER")) {
            assertThat(System.getenv(variable)).as(variable).isNull();
        }
        // the control: what the build itself sets does arrive
        assertThat(System.getenv("OPENRAG_TEST_HOME")).isNotBlank();
    }
}
