package dev.openrag.ingest.credentials;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Origins compared as a browser compares them: the neighbours of a site (another scheme, port,
 * subdomain, a user-info trick, a trailing dot, another name for the same address) are other
 * origins, and the spellings a browser reads as the same origin are the same.
 */
class SiteOriginTest {

    private static final SiteOrigin GOOD = SiteOrigin.site("https://good.example");

    @ParameterizedTest
    @CsvSource({
            "https://good.example, https://good.example",
            "HTTPS://Good.EXAMPLE/, https://good.example",
            "https://good.example:443, https://good.example",
            "http://good.example:80, http://good.example",
            "http://good.example:8080, http://good.example:8080",
            "https://bücher.example, https://xn--bcher-kva.example",
            "https://BÜCHER.example, https://xn--bcher-kva.example",
            "https://xn--bcher-kva.example, https://xn--bcher-kva.example",
            "http://127.0.0.1:9000, http://127.0.0.1:9000",
            "http://0x7f.0.0.1, http://127.0.0.1",
            "http://2130706433, http://127.0.0.1",
            "http://0177.0.0.01, http://127.0.0.1",
            "http://[::1]:8080, http://[0:0:0:0:0:0:0:1]:8080",
            "http://[0:0::1], http://[0:0:0:0:0:0:0:1]",
    })
    void aSiteIsNormalisedToTheOriginABrowserSees(String written, String normalised) {
        assertThat(SiteOrigin.site(written)).hasToString(normalised);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "good.example", "ftp://good.example", "https://good.example/login", "https://good.example/?a=1",
            "https://good.example#top", "https://user@good.example", "https://good.example@evil.example", "https://*.good.example",
            "https://good.example.", "https://good.example:0x50", "https://good.example:70000", "https://good..example",
            "https://good%2eexample", "https://", "https://[::1", "https://exa mple.com", "http://256.0.0.1", "http://1.2.3.4.5",
            "javascript://good.example"})
    void aSiteThatIsNotExactlyAnOriginIsRefusedWithTheReason(String written) {
        assertThatThrownBy(() -> SiteOrigin.site(written)).isInstanceOf(IllegalArgumentException.class)
                .satisfies(e -> assertThat(e.getMessage()).isNotBlank());
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "http://good.example/login",                  // another scheme
            "https://good.example:8443/login",            // another port
            "https://login.good.example/",                // a subdomain
            "https://good.example.evil.example/",         // a suffix
            "https://good.example@evil.example/login",    // user info: the host is evil.example
            "https://good.example:443@evil.example/",
            "https://evil.example\\@good.example/",       // a backslash ends the host, as in a browser
            "https://good.example./login",                // a trailing dot is another origin to a browser
            "https://good.examp1e/",
            "https://xn--good-example/",
            "about:blank",
            "data:text/html,<form>",
            "chrome-error://chromewebdata/",
    })
    void theNeighboursOfASiteAreOtherOrigins(String url) {
        assertThat(SiteOrigin.ofUrl(url)).as(url).isNotEqualTo(Optional.of(GOOD));
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://good.example/login", "https://GOOD.example:443/a/b?c=d#e", "HTTPS://good.EXAMPLE", "https://x@good.example/"})
    void theSameOriginWrittenOtherwiseIsTheSite(String url) {
        assertThat(SiteOrigin.ofUrl(url)).as(url).contains(GOOD);
    }

    /**
     * Java's IDN (IDNA2003) maps ß, ς and the zero-width joiners away ("straße" is "strasse"); a browser (UTS 46,
     * non-transitional) keeps them: https://straße.example is xn--strae-oqa.example, another host. Such a host is not
     * read as the other one, and not accepted as a site. The control: other Unicode hosts are read as a browser does.
     */
    @Test
    void aHostThatJavaAndABrowserSpellDifferentlyIsNoOrigin() {
        SiteOrigin strasse = SiteOrigin.site("https://strasse.example");
        for (String url : List.of("https://straße.example/login", "https://STRASSE.exampleß/", "https://ς.example/", "https://good\u200d.example/",
                "https://good\u200c.example/")) {
            assertThat(SiteOrigin.ofUrl(url)).as(url).isEmpty();
        }
        assertThat(SiteOrigin.ofUrl("https://xn--strae-oqa.example/")).as("as the browser shows it").isNotEqualTo(Optional.of(strasse));
        assertThatThrownBy(() -> SiteOrigin.site("https://straße.example")).isInstanceOf(IllegalArgumentException.class);
        assertThat(SiteOrigin.ofUrl("https://bücher.example/")).contains(SiteOrigin.site("https://xn--bcher-kva.example"));
        assertThat(SiteOrigin.site("https://xn--strae-oqa.example")).hasToString("https://xn--strae-oqa.example");
    }

    @Test
    void anIpLiteralIsNotTheNameThatResolvesToIt() {
        SiteOrigin local = SiteOrigin.site("http://localhost:8080");
        assertThat(SiteOrigin.ofUrl("http://127.0.0.1:8080/")).isNotEqualTo(Optional.of(local));
        assertThat(SiteOrigin.ofUrl("http://localhost:8080/x")).contains(local);
        SiteOrigin ip = SiteOrigin.site("http://127.0.0.1:8080");
        assertThat(SiteOrigin.ofUrl("http://127.1:8080/")).as("127.1 is 127.0.0.1 to a browser").contains(ip);
        assertThat(SiteOrigin.ofUrl("http://127.0.0.1.:8080/")).as("an IPv4 address with a trailing dot is the address").contains(ip);
        assertThat(SiteOrigin.ofUrl("http://127.0.0.010:8080/")).as("010 is octal: 127.0.0.8").isNotEqualTo(Optional.of(ip));
        assertThat(SiteOrigin.ofUrl("http://[::ffff:127.0.0.1]:8080/")).isNotEqualTo(Optional.of(ip));
    }
}
