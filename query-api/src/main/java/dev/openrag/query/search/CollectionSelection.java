package dev.openrag.query.search;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import dev.openrag.knowledge.access.Grant;
import dev.openrag.knowledge.port.KnowledgeBrowser;
import dev.openrag.knowledge.runtime.ApiException;
import dev.openrag.knowledge.runtime.auth.Access;
import dev.openrag.schemas.CollectionNames;

/**
 * Which collections a search or an answer covers: {@code collection} (one, default {@code default}),
 * or {@code collections}, a list of names or {@value Grant#ANY} for every collection that has
 * something ingested and that the caller's key is granted. A named collection the key lacks is a
 * 403 naming every such one; an invalid name a 400; {@code *} with a key granted no collection a 403.
 */
@ApplicationScoped
public class CollectionSelection {

    /** More collections than this in one search would be as many searches at once: named, not guessed, past it. */
    public static final int MAX_COLLECTIONS = 32;

    private final Access access;
    private final KnowledgeBrowser browser;

    public CollectionSelection(Access access, KnowledgeBrowser browser) {
        this.access = access;
        this.browser = browser;
    }

    /** The checked collections, in the order given (duplicates dropped); one for a request that names {@code collection} only. */
    public List<String> resolve(String collection, List<String> collections) {
        if (collections == null) {
            return List.of(access.collection(collection));
        }
        if (collection != null && !collection.isBlank()) {
            throw ApiException.badRequest("give 'collection' or 'collections', not both");
        }
        if (collections.isEmpty()) {
            throw ApiException.badRequest("field 'collections' must name at least one collection, or be \"*\" for every granted one");
        }
        if (collections.contains(Grant.ANY)) {
            if (collections.size() > 1) {
                throw ApiException.badRequest("field 'collections': \"*\" stands alone, it already means every granted collection");
            }
            return everyGranted();
        }
        Set<String> named = new LinkedHashSet<>();
        for (String name : collections) {
            if (name == null || !CollectionNames.isValid(name)) {
                throw ApiException.badRequest("field 'collections': invalid collection name '" + abbreviated(name)
                        + "': use 1-64 characters a-z, 0-9, '_' or '-', starting with a letter or digit");
            }
            named.add(name);
        }
        if (named.size() > MAX_COLLECTIONS) {
            throw ApiException.badRequest("field 'collections' names " + named.size() + " collections; at most " + MAX_COLLECTIONS);
        }
        List<String> refused = named.stream().filter(name -> !access.allowsCollection(name)).toList();
        if (!refused.isEmpty()) {
            throw Access.forbidden("this API key is not granted collection" + (refused.size() > 1 ? "s " : " ")
                    + String.join(", ", refused.stream().map(name -> "'" + name + "'").toList()));
        }
        return List.copyOf(named);
    }

    private List<String> everyGranted() {
        Grant grant = access.grant();
        if (!grant.allowsAllCollections() && grant.collections().isEmpty()) {
            throw Access.forbidden("this API key is granted no collection, so \"*\" reaches none");
        }
        List<String> granted = new ArrayList<>();
        browser.collections().forEach(summary -> {
            if (grant.allowsCollection(summary.name())) {
                granted.add(summary.name());
            }
        });
        if (granted.size() > MAX_COLLECTIONS) {
            throw ApiException.badRequest("\"*\" reaches " + granted.size() + " collections; name at most " + MAX_COLLECTIONS
                    + " in 'collections'");
        }
        return granted;
    }

    private static String abbreviated(String name) {
        return name == null ? "null" : name.length() > 70 ? name.substring(0, 70) + "…" : name;
    }
}
