package dev.openrag.knowledge.runtime.auth;

import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * {@code openrag.auth.*}, the same in every app. Auth is on when {@code enabled} says so or, when
 * it is unset, as soon as an admin key is configured; off, every caller may do everything, which
 * is only allowed on a loopback address unless {@code allow-open-network} says otherwise.
 */
@ConfigMapping(prefix = "openrag.auth")
public interface AuthSettings {

    /** Unset: on exactly when {@link #adminKey()} is set. */
    Optional<Boolean> enabled();

    /** A bootstrap admin key (env {@code OPENRAG_AUTH_ADMIN_KEY}), compared in constant time, never stored. */
    Optional<String> adminKey();

    /** Lets an app with auth off listen on a non-loopback address (a deliberate choice, logged). */
    @WithDefault("false")
    boolean allowOpenNetwork();

    default boolean on() {
        return enabled().orElse(adminKey().filter(key -> !key.isBlank()).isPresent());
    }
}
