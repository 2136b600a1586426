package dev.openrag.knowledge.runtime.auth;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.smallrye.mutiny.Uni;

/** Looks a bearer key up (configured admin key or Neo4j) on a worker thread; unknown or revoked: 401. */
@ApplicationScoped
public class ApiKeyIdentityProvider implements IdentityProvider<TokenAuthenticationRequest> {

    private final Authenticator authenticator;

    public ApiKeyIdentityProvider(Authenticator authenticator) {
        this.authenticator = authenticator;
    }

    @Override
    public Class<TokenAuthenticationRequest> getRequestType() {
        return TokenAuthenticationRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(TokenAuthenticationRequest request, AuthenticationRequestContext context) {
        String secret = request.getToken().getToken();
        return context.runBlocking(() -> authenticator.grantOf(secret)
                .map(grant -> ApiKeyAuthenticationMechanism.identity(grant, secret))
                .orElseThrow(() -> new AuthenticationFailedException("unknown or revoked API key")));
    }
}
