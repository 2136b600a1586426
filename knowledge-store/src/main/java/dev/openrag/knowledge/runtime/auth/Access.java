package dev.openrag.knowledge.runtime.auth;

import java.util.Collection;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.openrag.knowledge.access.Grant;
import dev.openrag.knowledge.access.Scopes;
import dev.openrag.knowledge.runtime.ApiException;
import dev.openrag.schemas.CollectionNames;
import io.quarkus.security.UnauthorizedException;
import io.quarkus.security.identity.SecurityIdentity;

/**
 * The per-request checks resources make beyond their role: which collections and memory scopes
 * the caller's key reaches. A collection or scope the key is not granted is a 403 naming it (the
 * caller knows what it asked for; nothing about the collection's content is revealed).
 */
@ApplicationScoped
public class Access {

    @Inject
    SecurityIdentity identity;

    @Inject
    Authenticator authenticator;

    /** The caller's grant: {@link Grant#OPEN} with auth off; 401 for an anonymous caller with auth on. */
    public Grant grant() {
        Grant grant = identity.getAttribute(ApiKeyAuthenticationMechanism.GRANT_ATTRIBUTE);
        if (grant != null) {
            return grant;
        }
        if (!authenticator.enabled()) {
            return Grant.OPEN;
        }
        throw new UnauthorizedException("missing 'Authorization: Bearer <api key>' header");
    }

    /** The presented key's grant: null for an anonymous caller with auth on, {@link Grant#OPEN} with auth off. */
    public Grant grantIfAny() {
        Grant grant = identity.getAttribute(ApiKeyAuthenticationMechanism.GRANT_ATTRIBUTE);
        return grant != null || authenticator.enabled() ? grant : Grant.OPEN;
    }

    /**
     * The collection a request names (absent: {@code default}): 400 for an invalid name, 403 when
     * the caller's key is not granted it.
     */
    public String collection(String requested) {
        String collection;
        try {
            collection = CollectionNames.orDefault(requested);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        if (!grant().allowsCollection(collection)) {
            throw forbidden("this API key is not granted collection '" + collection + "'");
        }
        return collection;
    }

    /** A memory scope a request names: 400 for an invalid one, 403 when the caller's key is not granted it. */
    public String scope(String requested) {
        String scope;
        try {
            scope = Scopes.check(requested);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        if (!grant().allowsScope(scope)) {
            throw forbidden("this API key is not granted memory scope '" + scope + "'");
        }
        return scope;
    }

    public boolean allowsScope(String scope) {
        return grant().allowsScope(scope);
    }

    public boolean allowsCollection(String collection) {
        return grant().allowsCollection(collection);
    }

    /**
     * The memory scopes a request may read: the ones it names, each checked (403 otherwise), or,
     * when it names none, null for "every scope" if the key has them all, else the key's scopes
     * (an empty list: none).
     */
    public List<String> scopes(Collection<String> requested) {
        Grant grant = grant();
        if (requested == null || requested.isEmpty()) {
            return grant.allowsAllScopes() ? null : List.copyOf(grant.scopes());
        }
        for (String scope : requested) {
            if (!grant.allowsScope(scope)) {
                throw forbidden("this API key is not granted memory scope '" + scope + "'");
            }
        }
        return List.copyOf(requested);
    }

    public static ApiException forbidden(String message) {
        return new ApiException(403, "forbidden", message);
    }
}
