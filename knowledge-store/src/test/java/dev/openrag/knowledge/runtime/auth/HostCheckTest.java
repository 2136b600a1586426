package dev.openrag.knowledge.runtime.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Which Host headers are answered: the loopback names, the listening address, the configured names; nothing a rebinding page sends. */
class HostCheckTest {

    @Test
    void loopbackNamesAreAlwaysAnsweredForeignNamesNever() {
        HostCheck check = new HostCheck(List.of(), "127.0.0.1");
        assertThat(List.of("localhost", "localhost:8080", "LOCALHOST.", "127.0.0.1:8081", "[::1]:8082", "[::1]"))
                .allMatch(check::allows);
        assertThat(List.of("attacker.example", "attacker.example:8080", "localhost.attacker.example", "127.0.0.1.nip.io",
                "evil-localhost", "10.0.0.5", "", "[::2]")).noneMatch(check::allows);
    }

    @Test
    void configuredNamesAndSuffixesAndTheListeningAddressAreAnswered() {
        HostCheck check = new HostCheck(List.of("query-api", " Ingest-Pipeline ", "*.openrag.example"), "10.1.2.3");
        assertThat(List.of("query-api:8080", "ingest-pipeline", "docs.openrag.example", "a.b.openrag.example:443", "10.1.2.3:8080"))
                .allMatch(check::allows);
        assertThat(List.of("openrag.example", "query-api.attacker.example", "xopenrag.example", "10.1.2.4"))
                .noneMatch(check::allows);
        assertThat(new HostCheck(List.of(), "0.0.0.0").allows("0.0.0.0")).as("a wildcard address is no name to answer to").isFalse();
        assertThat(new HostCheck(List.of(), "::1").allows("[::1]:8080")).isTrue();
    }

    @Test
    void writesAreAnsweredFromLocalAllowedOrSameHostOriginsOnly() {
        HostCheck check = new HostCheck(List.of("*.openrag.example"), "127.0.0.1");
        assertThat(List.of("http://localhost:8080", "http://127.0.0.1:5173", "https://docs.openrag.example", "http://[::1]:8080"))
                .allMatch(origin -> check.allowsOrigin(origin, "localhost:8081"));
        assertThat(check.allowsOrigin("http://intranet-host:8080", "intranet-host:8081")).as("same host").isTrue();
        assertThat(List.of("https://attacker.example", "http://localhost.attacker.example", "null", "file://", "chrome-extension://abc",
                "not a url", "https://openrag.example")).noneMatch(origin -> check.allowsOrigin(origin, "localhost:8081"));
    }
}
