package dev.openrag.knowledge.access;

import java.util.regex.Pattern;

/** The one rule for memory scope names, shared by the MCP tools and query-api's memory endpoints. */
public final class Scopes {

    private static final Pattern SCOPE = Pattern.compile("[A-Za-z0-9._:@-]{1,128}");

    private Scopes() {
    }

    /** Returns the scope, or throws {@link IllegalArgumentException} saying what is wrong with it. */
    public static String check(String scope) {
        if (scope == null || scope.isBlank()) {
            throw new IllegalArgumentException("'scope' is required and must not be blank");
        }
        if (!SCOPE.matcher(scope).matches()) {
            throw new IllegalArgumentException("invalid scope '" + scope + "': use 1-128 characters A-Z, a-z, 0-9, '.', '_', ':', '@' or '-'");
        }
        return scope;
    }
}
