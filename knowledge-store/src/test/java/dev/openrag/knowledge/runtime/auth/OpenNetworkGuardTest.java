package dev.openrag.knowledge.runtime.auth;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Auth off is only for loopback: on any other address the app refuses to start unless told otherwise. */
class OpenNetworkGuardTest {

    @Test
    void authOffOnANonLoopbackAddressRefusesToStart() {
        for (String host : new String[] {"0.0.0.0", "::", "10.1.2.3", "192.168.0.10"}) {
            assertThatThrownBy(() -> OpenNetworkGuard.check(false, false, host)).as(host)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("refusing to start").hasMessageContaining("OPENRAG_AUTH_ADMIN_KEY");
        }
    }

    @Test
    void loopbackAuthOnOrAnExplicitChoiceStart() {
        for (String host : new String[] {"127.0.0.1", "localhost", "::1", "127.0.0.2"}) {
            assertThatCode(() -> OpenNetworkGuard.check(false, false, host)).as(host).doesNotThrowAnyException();
        }
        assertThatCode(() -> OpenNetworkGuard.check(true, false, "0.0.0.0")).doesNotThrowAnyException();
        assertThatCode(() -> OpenNetworkGuard.check(false, true, "0.0.0.0")).doesNotThrowAnyException();
    }
}
