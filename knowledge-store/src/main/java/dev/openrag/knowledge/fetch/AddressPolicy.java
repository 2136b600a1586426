package dev.openrag.knowledge.fetch;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Which hosts the server may fetch from on someone's behalf (server-side request forgery guard).
 * A URL's host is resolved first and refused when any of its addresses is loopback, link-local
 * (cloud metadata at 169.254.169.254), private (RFC 1918, IPv6 unique-local), shared (100.64/10),
 * multicast or unspecified (0.0.0.0/8, ::), IPv4-mapped and IPv4-compatible IPv6 forms included,
 * unless an allow-listed range ({@code openrag.fetch.allow-private}, CIDRs) holds it. Fetchers call
 * {@link #check} before every request, redirects included.
 *
 * <p>Known limit: the HTTP client resolves the host again when it connects, so a DNS server that
 * answers differently within that instant (rebinding) is not caught here; run the apps behind an
 * egress proxy or firewall where that matters.
 */
public final class AddressPolicy {

    /** A fetch the policy refuses; the message names the URL, the address and the rule. */
    public static final class RefusedException extends RuntimeException {

        private final boolean unresolved;

        public RefusedException(String message) {
            this(message, false);
        }

        RefusedException(String message, boolean unresolved) {
            super(message);
            this.unresolved = unresolved;
        }

        /** The host did not resolve: nothing to refuse yet, the fetch would fail on its own. */
        public boolean unresolved() {
            return unresolved;
        }
    }

    /** Resolves a host name to its addresses (replaceable in tests by a stub resolver). */
    @FunctionalInterface
    public interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    private record Cidr(byte[] network, int prefix, String text) {

        static Cidr parse(String text) {
            String[] parts = text.strip().split("/");
            try {
                byte[] network = InetAddress.getByName(parts[0]).getAddress();
                int prefix = parts.length == 2 ? Integer.parseInt(parts[1]) : network.length * 8;
                if (parts.length > 2 || prefix < 0 || prefix > network.length * 8) {
                    throw new IllegalArgumentException("bad prefix");
                }
                return new Cidr(network, prefix, text.strip());
            } catch (UnknownHostException | IllegalArgumentException e) {
                throw new IllegalArgumentException("openrag.fetch.allow-private: '" + text + "' is not a CIDR range such as 10.0.0.0/8");
            }
        }

        boolean contains(byte[] address) {
            if (address.length != network.length) {
                return false;
            }
            for (int bit = 0; bit < prefix; bit++) {
                int mask = 0x80 >> (bit % 8);
                if ((address[bit / 8] & mask) != (network[bit / 8] & mask)) {
                    return false;
                }
            }
            return true;
        }
    }

    private final List<Cidr> allowed;
    private final Resolver resolver;

    /** @param allowPrivate CIDR ranges that may be fetched although they are not public (empty: none) */
    public AddressPolicy(List<String> allowPrivate, Resolver resolver) {
        List<Cidr> ranges = new ArrayList<>();
        allowPrivate.stream().filter(range -> !range.isBlank()).forEach(range -> ranges.add(Cidr.parse(range)));
        this.allowed = List.copyOf(ranges);
        this.resolver = resolver;
    }

    public static AddressPolicy of(List<String> allowPrivate) {
        return new AddressPolicy(allowPrivate, InetAddress::getAllByName);
    }

    /**
     * Throws {@link RefusedException} unless {@code uri} is http(s) and every address of its host may be fetched.
     *
     * @return the checked addresses: a caller that connects to one of them, rather than resolving the host again,
     *         is safe from DNS rebinding
     */
    public InetAddress[] check(URI uri) {
        if (uri.getScheme() == null || !List.of("http", "https").contains(uri.getScheme().toLowerCase(Locale.ROOT))) {
            throw new RefusedException("refusing to fetch " + uri + ": only http and https URLs are fetched");
        }
        String host = uri.getHost();
        if (host == null || host.isBlank()) {
            throw new RefusedException("refusing to fetch " + uri + ": the URL has no host");
        }
        InetAddress[] addresses;
        try {
            addresses = resolver.resolve(host.startsWith("[") ? host.substring(1, host.length() - 1) : host);
        } catch (UnknownHostException e) {
            throw new RefusedException("refusing to fetch " + uri + ": host " + host + " does not resolve", true);
        }
        for (InetAddress address : addresses) {
            Optional<String> rule = forbidden(address);
            if (rule.isPresent() && allowed.stream().noneMatch(range -> range.contains(address.getAddress()))) {
                throw new RefusedException("refusing to fetch " + uri + ": " + host + " resolves to " + address.getHostAddress()
                        + ", a " + rule.get() + " address; the server fetches only public addresses unless "
                        + "openrag.fetch.allow-private lists the range");
            }
        }
        return addresses;
    }

    /** The class of a non-public address, or empty for a public one. */
    static Optional<String> forbidden(InetAddress address) {
        InetAddress effective = embeddedIpv4(address).orElse(address);
        byte[] bytes = effective.getAddress();
        if (effective.isAnyLocalAddress() || effective instanceof Inet4Address && bytes[0] == 0) {
            return Optional.of("unspecified");
        }
        if (effective.isLoopbackAddress()) {
            return Optional.of("loopback");
        }
        if (effective.isLinkLocalAddress()) {
            return Optional.of("link-local");
        }
        if (effective.isSiteLocalAddress() || effective instanceof Inet6Address && (bytes[0] & 0xfe) == 0xfc) {
            return Optional.of("private");
        }
        if (effective instanceof Inet4Address && (bytes[0] & 0xff) == 100 && (bytes[1] & 0xc0) == 64) {
            return Optional.of("shared (carrier-grade NAT)");
        }
        if (effective.isMulticastAddress()) {
            return Optional.of("multicast");
        }
        return Optional.empty();
    }

    /** The IPv4 address inside an IPv4-compatible IPv6 address (::a.b.c.d); Java turns IPv4-mapped ones into IPv4 itself. */
    private static Optional<InetAddress> embeddedIpv4(InetAddress address) {
        if (!(address instanceof Inet6Address)) {
            return Optional.empty();
        }
        byte[] bytes = address.getAddress();
        for (int i = 0; i < 12; i++) {
            if (bytes[i] != 0 && !(i >= 10 && bytes[i] == (byte) 0xff)) {
                return Optional.empty();
            }
        }
        if (bytes[12] == 0 && bytes[13] == 0 && bytes[14] == 0 && (bytes[15] == 0 || bytes[15] == 1)) {
            return Optional.empty(); // :: and ::1 themselves
        }
        try {
            return Optional.of(InetAddress.getByAddress(new byte[] {bytes[12], bytes[13], bytes[14], bytes[15]}));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }
}
