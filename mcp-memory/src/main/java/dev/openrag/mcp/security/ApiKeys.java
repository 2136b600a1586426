package dev.openrag.mcp.security;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.openrag.mcp.McpSettings;

/**
 * The configured API keys ({@code openrag.mcp.api-keys=key1=scopeA|scopeB,key2=*}), each with the
 * scopes it may read and change; {@value #ANY_SCOPE} allows every scope. No keys: auth is off.
 */
@ApplicationScoped
public class ApiKeys {

    public static final String ANY_SCOPE = "*";

    private final Map<String, Set<String>> scopesByKey;

    @Inject
    public ApiKeys(McpSettings settings) {
        this(settings.apiKeys().orElse(""));
    }

    /** Keys from a spec in the {@code openrag.mcp.api-keys} format. */
    public ApiKeys(String spec) {
        this.scopesByKey = parse(spec);
    }

    static Map<String, Set<String>> parse(String spec) {
        Map<String, Set<String>> keys = new TreeMap<>();
        for (String entry : spec.split(",")) {
            if (entry.isBlank()) {
                continue;
            }
            int equals = entry.indexOf('=');
            if (equals <= 0 || equals == entry.length() - 1) {
                throw new IllegalArgumentException("openrag.mcp.api-keys: expected key=scope|scope entries separated by ','"
                        + " but an entry has no '=' or an empty side (the key is not repeated here)");
            }
            Set<String> scopes = new LinkedHashSet<>();
            for (String scope : entry.substring(equals + 1).split("\\|")) {
                if (!scope.isBlank()) {
                    scopes.add(scope.strip());
                }
            }
            keys.put(entry.substring(0, equals).strip(), Set.copyOf(scopes));
        }
        return Map.copyOf(keys);
    }

    public boolean enabled() {
        return !scopesByKey.isEmpty();
    }

    /** The scopes of a key, or null for an unknown key. */
    public Set<String> scopesOf(String key) {
        return scopesByKey.get(key);
    }
}
