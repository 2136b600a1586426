package dev.openrag.mcp.security;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.openrag.knowledge.access.Role;
import dev.openrag.knowledge.access.Scopes;
import dev.openrag.knowledge.runtime.auth.Access;
import dev.openrag.schemas.CollectionNames;
import io.quarkiverse.mcp.server.ToolCallException;
import io.quarkus.security.credential.TokenCredential;
import io.quarkus.security.identity.SecurityIdentity;

/**
 * The shared key model ({@link Access}) as tool errors: every tool names or reaches a memory scope
 * or a collection, and the caller's key must be granted it; changing anything needs a {@code write}
 * key. A memory in a scope the key may not use looks exactly like an unknown one, so nothing about
 * other scopes leaks. With auth off every caller may do everything.
 */
@ApplicationScoped
public class ScopeGuard {

    @Inject
    Access access;

    @Inject
    SecurityIdentity identity;

    /** Validates a scope argument and checks the caller may use it; returns it. */
    public String require(String scope) {
        try {
            Scopes.check(scope);
        } catch (IllegalArgumentException e) {
            throw new ToolCallException(e.getMessage().startsWith("'") ? "argument " + e.getMessage() : e.getMessage());
        }
        if (!allows(scope)) {
            throw new ToolCallException("this API key may not use scope '" + scope + "'");
        }
        return scope;
    }

    /** {@link #require} for a tool that changes something in the scope: a {@code read} key may not. */
    public String requireWritable(String scope) {
        requireWrite();
        return require(scope);
    }

    /** Whether the caller may see things in a scope (always, when auth is off). */
    public boolean allows(String scope) {
        return access.allowsScope(scope);
    }

    /** Refuses a caller whose key may only read. */
    public void requireWrite() {
        if (!access.grant().role().includes(Role.WRITE)) {
            throw new ToolCallException("this API key has the read role: it may search and read, not change anything");
        }
    }

    /** Validates a collection argument (absent: 'default') and checks the caller's key is granted it. */
    public String collection(String collection) {
        String name;
        try {
            name = CollectionNames.orDefault(collection);
        } catch (IllegalArgumentException e) {
            throw new ToolCallException(e.getMessage());
        }
        if (!access.allowsCollection(name)) {
            throw new ToolCallException("this API key is not granted collection '" + name + "'");
        }
        return name;
    }

    /** The caller's own {@code Authorization} header, passed on to query-api and ingest-pipeline, which check the same key. */
    public Optional<String> authorization() {
        return Optional.ofNullable(identity.getCredential(TokenCredential.class)).map(token -> "Bearer " + token.getToken());
    }
}
