package dev.openrag.ingest.source.crawl;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.openrag.ingest.credentials.Credential;
import dev.openrag.ingest.credentials.SiteOrigin;

/**
 * What a login types: each field's value by CSS selector, in order, and the sites of the credentials
 * it names. A login that names a credential types nothing (literals included) into a page whose
 * origin is not a site of every credential it names; one that names none types anywhere.
 */
record LoginTyping(Map<String, String> values, Map<String, List<String>> sitesByCredential) {

    /**
     * Why nothing may be typed into a frame showing {@code url} (the page the browser is on, after
     * redirects and scripts' navigations), or empty when it may.
     */
    Optional<String> refusal(String url) {
        if (sitesByCredential.isEmpty()) {
            return Optional.empty();
        }
        Optional<SiteOrigin> origin = SiteOrigin.ofUrl(url);
        for (Map.Entry<String, List<String>> credential : sitesByCredential.entrySet()) {
            if (origin.isEmpty() || !credential.getValue().contains(origin.get().toString())) {
                String page = origin.map(SiteOrigin::toString).orElse("a page without a web origin (" + abbreviated(url) + ")");
                return Optional.of(Credential.notASite(page, credential.getKey(), credential.getValue()));
            }
        }
        return Optional.empty();
    }

    private static String abbreviated(String url) {
        return url.length() > 80 ? url.substring(0, 80) + "…" : url;
    }

    @Override
    public String toString() {
        return "LoginTyping[fields=" + values.keySet() + ", sites=" + sitesByCredential + "]"; // never a value
    }
}
