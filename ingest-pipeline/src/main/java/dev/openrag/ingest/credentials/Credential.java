package dev.openrag.ingest.credentials;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A named set of login values an admin stored for crawls ({@code /api/credentials}): which collections'
 * crawls may use it, the {@code sites} (origins) its values may be typed into, and the names of its
 * fields. Its values are sealed at rest and never answered. A credential without sites (stored before
 * sites existed) is {@code unusable} until an admin adds them; {@code reason} says so.
 */
public record Credential(String name, List<String> collections, List<String> sites, List<String> fields, String state,
                         @JsonInclude(JsonInclude.Include.NON_NULL) String reason, String createdAt) {

    public static final String USABLE = "usable";
    public static final String UNUSABLE = "unusable";

    static Credential of(String name, List<String> collections, List<String> sites, List<String> fields, String createdAt) {
        return sites.isEmpty()
                ? new Credential(name, collections, sites, fields, UNUSABLE, noSites(name), createdAt)
                : new Credential(name, collections, sites, fields, USABLE, null, createdAt);
    }

    /** Why a credential without sites is not typed anywhere, and how an admin fixes it. */
    static String noSites(String name) {
        return "credential '" + name + "' names no sites, so it is typed nowhere: an admin adds the origins it belongs to"
                + " (PATCH /api/credentials/" + name + " {\"sites\": [...]}, or openrag credentials update " + name + " --sites ...)";
    }

    /** Why credential {@code name} is not typed into a page of {@code page} (an origin, or a URL without one). */
    public static String notASite(String page, String name, List<String> sites) {
        return page + " is not a site of credential '" + name + "' (its sites: " + String.join(", ", sites) + ")";
    }

    /** Whether a crawl into {@code collection} may use it. */
    public boolean serves(String collection) {
        return collections.contains("*") || collections.contains(collection);
    }

    /** Whether its values may be typed into a page of {@code origin}: one of its sites, exactly. */
    public boolean belongsTo(SiteOrigin origin) {
        return sites.contains(origin.toString());
    }

    public boolean usable() {
        return !sites.isEmpty();
    }
}
