package dev.openrag.mcp.security;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.quarkus.runtime.StartupEvent;

/**
 * {@code openrag.mcp.api-keys} was replaced by the key model every app shares. An install that
 * still sets it expects keys to be required: starting with auth silently off would open it, so
 * the app refuses to start and says what to do instead.
 */
@ApplicationScoped
public class RemovedKeySettingCheck {

    void onStart(@Observes StartupEvent started, @ConfigProperty(name = "openrag.mcp.api-keys") Optional<String> legacyKeys) {
        if (legacyKeys.filter(keys -> !keys.isBlank()).isPresent()) {
            throw new IllegalStateException("openrag.mcp.api-keys (OPENRAG_MCP_API_KEYS) is no longer read: API keys are shared by"
                    + " every app now. Set OPENRAG_AUTH_ADMIN_KEY, create keys with './openrag keys create --role write --scopes ...',"
                    + " and remove the old setting (docs/security.md)");
        }
    }
}
