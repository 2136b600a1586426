package dev.openrag.ingest.source.crawl;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which links a crawl follows: http(s) only, normalised (lower-case host, no default port, no
 * fragment, dot segments resolved) so each page is fetched once, within the seed hosts when
 * {@code sameHostOnly}, matching {@code include} (if any) and no {@code exclude} pattern.
 */
final class UrlRules {

    private final Set<String> seedHosts;
    private final boolean sameHostOnly;
    private final List<Pattern> include;
    private final List<Pattern> exclude;

    UrlRules(Set<String> seedHosts, boolean sameHostOnly, List<Pattern> include, List<Pattern> exclude) {
        this.seedHosts = seedHosts;
        this.sameHostOnly = sameHostOnly;
        this.include = include;
        this.exclude = exclude;
    }

    /** The normalised form of an http(s) URL, or empty for anything else. */
    static Optional<String> normalize(String url) {
        try {
            URI uri = new URI(url.strip()).normalize();
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
                return Optional.empty();
            }
            int port = uri.getPort() == 80 && scheme.equals("http") || uri.getPort() == 443 && scheme.equals("https") ? -1 : uri.getPort();
            String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
            return Optional.of(new URI(scheme, null, uri.getHost().toLowerCase(Locale.ROOT), port, null, null, null)
                    + path + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery()));
        } catch (URISyntaxException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    static String host(String normalizedUrl) {
        URI uri = URI.create(normalizedUrl);
        return uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort());
    }

    /** Why a normalised URL is not followed, or empty when it is. */
    Optional<String> refusal(String url) {
        if (sameHostOnly && !seedHosts.contains(host(url))) {
            return Optional.of("outside the seed hosts");
        }
        if (!include.isEmpty() && include.stream().noneMatch(p -> p.matcher(url).matches())) {
            return Optional.of("matches no include pattern");
        }
        if (exclude.stream().anyMatch(p -> p.matcher(url).matches())) {
            return Optional.of("matches an exclude pattern");
        }
        return Optional.empty();
    }
}
