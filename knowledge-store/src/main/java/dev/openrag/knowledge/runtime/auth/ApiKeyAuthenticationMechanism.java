package dev.openrag.knowledge.runtime.auth;

import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import dev.openrag.knowledge.access.Grant;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.credential.TokenCredential;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code Authorization: Bearer <key>} on every app. The identity's roles are the key's role and
 * the roles it includes ({@code @RolesAllowed("read")} and so on on the resources) and it carries
 * the {@link Grant} ({@link Access} checks collections and scopes with it). Without a header the
 * caller is anonymous (401 where a role is needed); a wrong or revoked key is a 401 at once. With
 * auth off every caller is {@link Grant#OPEN}.
 */
@ApplicationScoped
public class ApiKeyAuthenticationMechanism implements HttpAuthenticationMechanism {

    static final String GRANT_ATTRIBUTE = "openrag.grant";
    private static final String BEARER = "Bearer ";

    private final Authenticator authenticator;

    public ApiKeyAuthenticationMechanism(Authenticator authenticator) {
        this.authenticator = authenticator;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identityProviderManager) {
        if (!authenticator.enabled()) {
            return Uni.createFrom().item(identity(Grant.OPEN, null));
        }
        String header = context.request().getHeader("Authorization");
        if (header == null) {
            return Uni.createFrom().nullItem();
        }
        if (!header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return Uni.createFrom().failure(new AuthenticationFailedException("expected 'Authorization: Bearer <api key>'"));
        }
        String secret = header.substring(BEARER.length()).strip();
        // the key lookup blocks on Neo4j: the identity provider runs it the Quarkus way, off the event loop
        return identityProviderManager.authenticate(HttpSecurityUtils.setRoutingContextAttribute(
                new TokenAuthenticationRequest(new TokenCredential(secret, "bearer")), context));
    }

    /** {@code secret} kept as the identity's token: an app calling another on the caller's behalf passes it on. */
    static SecurityIdentity identity(Grant grant, String secret) {
        var identity = QuarkusSecurityIdentity.builder()
                .setPrincipal(new QuarkusPrincipal(grant.keyId()))
                .addRoles(grant.roleIds())
                .addAttribute(GRANT_ATTRIBUTE, grant);
        if (secret != null) {
            identity.addCredential(new TokenCredential(secret, "bearer"));
        }
        return identity.build();
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        return Uni.createFrom().item(new ChallengeData(401, "WWW-Authenticate", "Bearer realm=\"openrag\""));
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of(TokenAuthenticationRequest.class);
    }
}
