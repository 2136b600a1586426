package dev.openrag.knowledge.runtime.auth;

import java.net.InetAddress;
import java.net.UnknownHostException;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.quarkus.runtime.StartupEvent;

/**
 * Says at start whether auth is on, and refuses to start an app that would answer anyone on the
 * network with everything: auth off on a non-loopback address, unless
 * {@code openrag.auth.allow-open-network=true} says that is meant (a private network behind a proxy).
 */
@ApplicationScoped
public class OpenNetworkGuard {

    private static final Logger LOG = Logger.getLogger(OpenNetworkGuard.class);

    void onStart(@Observes StartupEvent started, AuthSettings settings,
                 @ConfigProperty(name = "quarkus.http.host", defaultValue = "localhost") String host) {
        check(settings.on(), settings.allowOpenNetwork(), host);
        LOG.infof("auth %s (listening on %s)", settings.on() ? "on: API keys required" : "off: every caller may do everything", host);
    }

    /** Throws when auth is off on a non-loopback {@code host} and that was not allowed. */
    static void check(boolean authOn, boolean allowOpenNetwork, String host) {
        if (authOn || isLoopback(host)) {
            return;
        }
        if (allowOpenNetwork) {
            LOG.warnf("auth is off on %s: anyone who reaches this port may read, write and administer everything"
                    + " (openrag.auth.allow-open-network=true)", host);
            return;
        }
        throw new IllegalStateException("refusing to start: auth is off but quarkus.http.host=" + host + " is not a loopback address."
                + " Set OPENRAG_AUTH_ADMIN_KEY (auth on), listen on 127.0.0.1, or set OPENRAG_AUTH_ALLOW_OPEN_NETWORK=true");
    }

    static boolean isLoopback(String host) {
        try {
            return "localhost".equalsIgnoreCase(host) || InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
