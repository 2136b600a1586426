package dev.openrag.mcp.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.openrag.knowledge.memory.Scopes;
import io.quarkiverse.mcp.server.ToolCallException;
import io.quarkus.security.identity.SecurityIdentity;

/**
 * Scopes isolate memories: every tool names or reaches one scope, and with API keys configured
 * the caller's key must allow it. A scope the key may not use looks exactly like an empty or
 * unknown one, so nothing about other scopes leaks.
 */
@ApplicationScoped
public class ScopeGuard {

    @Inject
    ApiKeys keys;

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

    /** Whether the caller may see things in a scope (always, when auth is off). */
    public boolean allows(String scope) {
        return !keys.enabled() || identity.hasRole(ApiKeys.ANY_SCOPE) || identity.hasRole(scope);
    }
}
