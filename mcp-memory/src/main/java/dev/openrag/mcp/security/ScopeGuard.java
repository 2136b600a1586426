package dev.openrag.mcp.security;

import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.mcp.server.ToolCallException;
import io.quarkus.security.identity.SecurityIdentity;

/**
 * Scopes isolate memories: every tool names or reaches one scope, and with API keys configured
 * the caller's key must allow it. A scope the key may not use looks exactly like an empty or
 * unknown one, so nothing about other scopes leaks.
 */
@ApplicationScoped
public class ScopeGuard {

    private static final Pattern SCOPE = Pattern.compile("[A-Za-z0-9._:@-]{1,128}");

    @Inject
    ApiKeys keys;

    @Inject
    SecurityIdentity identity;

    /** Validates a scope argument and checks the caller may use it; returns it. */
    public String require(String scope) {
        if (scope == null || scope.isBlank()) {
            throw new ToolCallException("argument 'scope' is required and must not be blank");
        }
        if (!SCOPE.matcher(scope).matches()) {
            throw new ToolCallException("invalid scope '" + scope + "': use 1-128 characters A-Z, a-z, 0-9, '.', '_', ':', '@' or '-'");
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
