package dev.openrag.mcp.security;

import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;

/**
 * Bearer API keys on the MCP endpoints ({@code /mcp}, {@code /mcp/sse}, {@code /mcp/messages}):
 * when keys are configured a request without a valid one gets 401; a valid key becomes an
 * identity whose roles are the scopes it may use ({@link ScopeGuard} checks them per tool call).
 * Health, metrics and OpenAPI stay open.
 */
@ApplicationScoped
public class ApiKeyAuthenticationMechanism implements HttpAuthenticationMechanism {

    private static final String BEARER = "Bearer ";

    private final ApiKeys keys;

    public ApiKeyAuthenticationMechanism(ApiKeys keys) {
        this.keys = keys;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identityProviderManager) {
        if (!keys.enabled() || !context.normalizedPath().startsWith("/mcp")) {
            return Uni.createFrom().nullItem();
        }
        String header = context.request().getHeader("Authorization");
        if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return Uni.createFrom().failure(new AuthenticationFailedException("missing 'Authorization: Bearer <api key>' header"));
        }
        Set<String> scopes = keys.scopesOf(header.substring(BEARER.length()).strip());
        if (scopes == null) {
            return Uni.createFrom().failure(new AuthenticationFailedException("unknown API key"));
        }
        return Uni.createFrom().item(QuarkusSecurityIdentity.builder()
                .setPrincipal(new QuarkusPrincipal("api-key"))
                .addRoles(scopes)
                .build());
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        return Uni.createFrom().item(new ChallengeData(401, "WWW-Authenticate", "Bearer realm=\"openrag-mcp\""));
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of();
    }
}
