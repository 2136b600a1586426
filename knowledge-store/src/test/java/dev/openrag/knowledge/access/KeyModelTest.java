package dev.openrag.knowledge.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;

import org.junit.jupiter.api.Test;

/** Roles include the ones below them; a grant reaches its collections and scopes, admin everything. */
class KeyModelTest {

    @Test
    void rolesIncludeTheOnesBelow() {
        assertThat(new Grant("k", Role.READ, Set.of(), Set.of()).roleIds()).containsExactly("read");
        assertThat(new Grant("k", Role.WRITE, Set.of(), Set.of()).roleIds()).containsExactlyInAnyOrder("read", "write");
        assertThat(Grant.OPEN.roleIds()).containsExactlyInAnyOrder("read", "write", "admin");
        assertThat(Role.of(" Write ")).isEqualTo(Role.WRITE);
        assertThatThrownBy(() -> Role.of("root")).hasMessageContaining("read, write or admin");
        assertThatThrownBy(() -> Role.of(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aGrantReachesItsCollectionsAndScopesOnly() {
        Grant docs = new Grant("k", Role.WRITE, Set.of("docs"), Set.of("team"));
        assertThat(docs.allowsCollection("docs")).isTrue();
        assertThat(docs.allowsCollection("finance")).isFalse();
        assertThat(docs.allowsCollection("*")).isFalse(); // a collection named like the wildcard is not all of them
        assertThat(docs.allowsScope("team")).isTrue();
        assertThat(docs.allowsScope("other")).isFalse();
        assertThat(docs.allowsAllScopes()).isFalse();

        Grant everything = new Grant("k", Role.READ, Set.of(Grant.ANY), Set.of(Grant.ANY));
        assertThat(everything.allowsCollection("finance")).isTrue();
        assertThat(everything.allowsAllScopes()).isTrue();
        Grant admin = new Grant("k", Role.ADMIN, Set.of(), Set.of());
        assertThat(admin.allowsCollection("finance")).isTrue();
        assertThat(admin.allowsScope("any")).isTrue();
    }

    @Test
    void secretsAreRandomPrefixedAndStoredAsTheirHash() {
        String one = KeySecrets.newSecret();
        String two = KeySecrets.newSecret();
        assertThat(one).startsWith(KeySecrets.PREFIX).hasSizeGreaterThan(40).isNotEqualTo(two);
        assertThat(KeySecrets.hash(one)).hasSize(64).isEqualTo(KeySecrets.hash(one)).isNotEqualTo(KeySecrets.hash(two))
                .doesNotContain(one);
        assertThat(KeySecrets.same(one, one)).isTrue();
        assertThat(KeySecrets.same(one, two)).isFalse();
    }
}
