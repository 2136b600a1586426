package dev.openrag.knowledge.access;

import java.util.Arrays;
import java.util.Collection;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What one caller may reach: a role, the collections and the memory scopes it is granted
 * ({@value #ANY} grants all of them). An admin key reaches every collection and scope.
 *
 * @param keyId the key's id (never its secret), for logs and audit
 */
public record Grant(String keyId, Role role, Set<String> collections, Set<String> scopes) {

    public static final String ANY = "*";

    /** The caller of an install with auth off: everything, as before keys existed. */
    public static final Grant OPEN = new Grant("open", Role.ADMIN, Set.of(ANY), Set.of(ANY));

    public Grant {
        collections = Set.copyOf(collections);
        scopes = Set.copyOf(scopes);
    }

    public boolean allowsCollection(String collection) {
        return role == Role.ADMIN || collections.contains(ANY) || collections.contains(collection);
    }

    public boolean allowsScope(String scope) {
        return role == Role.ADMIN || scopes.contains(ANY) || scopes.contains(scope);
    }

    public boolean allowsAllScopes() {
        return role == Role.ADMIN || scopes.contains(ANY);
    }

    public boolean allowsAllCollections() {
        return role == Role.ADMIN || collections.contains(ANY);
    }

    /** The security roles this grant carries: its own and every role it includes. */
    public Set<String> roleIds() {
        return Arrays.stream(Role.values()).filter(role::includes).map(Role::id).collect(Collectors.toUnmodifiableSet());
    }

    /** The given names split on commas, blanks dropped (CLI and config lists). */
    public static Set<String> names(Collection<String> values) {
        return values.stream().flatMap(v -> Arrays.stream(v.split(","))).map(String::strip)
                .filter(s -> !s.isEmpty()).collect(Collectors.toUnmodifiableSet());
    }
}
