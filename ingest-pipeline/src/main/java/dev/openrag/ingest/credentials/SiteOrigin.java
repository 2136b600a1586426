package dev.openrag.ingest.credentials;

import java.net.IDN;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An origin as a browser compares them: scheme, host and port, exactly. Hosts are normalised the way
 * a browser's URL parser does (lower case, IDN labels as punycode, IPv4 in any of its numeric forms as
 * a dotted quad, IPv6 in one form), default ports are left out; anything else is a different origin. A
 * trailing dot is kept, since {@code good.example.} is another origin than {@code good.example} to a
 * browser. Where a host cannot be parsed with certainty the answer is "not an origin", so a comparison
 * fails closed.
 */
public record SiteOrigin(String scheme, String host, int port) {

    private static final Pattern URL = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*)://([^/?#\\\\]*)([/?#\\\\].*)?", Pattern.DOTALL);
    private static final Pattern DECIMAL = Pattern.compile("[0-9]+");
    private static final Pattern HEX = Pattern.compile("0[xX][0-9A-Fa-f]*");
    private static final int MAX_CHARS = 300;
    /** ß, ς, ZWNJ and ZWJ: UTS 46's deviations, which Java's IDN and a browser's URL parser read differently. */
    private static final String IDNA_DEVIATIONS = "\u00df\u03c2\u200c\u200d";

    /**
     * A credential's site as an admin writes it: {@code scheme://host[:port]}, nothing else (a trailing
     * {@code /} is allowed). Throws an {@link IllegalArgumentException} saying what is wrong.
     */
    public static SiteOrigin site(String site) {
        if (site == null || site.isBlank() || site.length() > MAX_CHARS) {
            throw new IllegalArgumentException("a site must be an origin such as https://example.com or http://host:8080");
        }
        Matcher parts = URL.matcher(site.strip());
        if (!parts.matches()) {
            throw new IllegalArgumentException("'" + site + "' is not an origin: write scheme://host[:port], e.g. https://example.com");
        }
        String rest = parts.group(3);
        if (rest != null && !rest.equals("/")) {
            throw new IllegalArgumentException("'" + site + "' has a path, query or fragment: a site is an origin, scheme://host[:port]");
        }
        String authority = parts.group(2);
        if (authority.contains("@")) {
            throw new IllegalArgumentException("'" + site + "' holds user info ('@'): a site is scheme://host[:port]");
        }
        if (authority.contains("*")) {
            throw new IllegalArgumentException("'" + site + "' has a wildcard: list each origin the credential may be typed into");
        }
        SiteOrigin origin = of(parts.group(1), authority)
                .orElseThrow(() -> new IllegalArgumentException("'" + site + "' is not an http(s) origin with a valid host and port"));
        if (origin.host.endsWith(".")) {
            throw new IllegalArgumentException("'" + site + "' ends its host with a dot: write the host without it");
        }
        return origin;
    }

    /** The origin of an http(s) URL (a login page, the page the browser shows), or empty when it has none. */
    public static Optional<SiteOrigin> ofUrl(String url) {
        if (url == null || url.length() > 8192) {
            return Optional.empty();
        }
        Matcher parts = URL.matcher(url.strip());
        if (!parts.matches()) {
            return Optional.empty();
        }
        String authority = parts.group(2);
        // as a browser reads it: user info ends at the last '@', the host follows
        return of(parts.group(1), authority.substring(authority.lastIndexOf('@') + 1));
    }

    private static Optional<SiteOrigin> of(String rawScheme, String authority) {
        String scheme = rawScheme.toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            return Optional.empty();
        }
        String rawHost;
        String rawPort;
        if (authority.startsWith("[")) {
            int end = authority.indexOf(']');
            if (end < 0) {
                return Optional.empty();
            }
            rawHost = authority.substring(0, end + 1);
            String after = authority.substring(end + 1);
            if (!after.isEmpty() && !after.startsWith(":")) {
                return Optional.empty();
            }
            rawPort = after.isEmpty() ? "" : after.substring(1);
        } else {
            int colon = authority.lastIndexOf(':');
            rawHost = colon < 0 ? authority : authority.substring(0, colon);
            rawPort = colon < 0 ? "" : authority.substring(colon + 1);
        }
        int defaultPort = scheme.equals("http") ? 80 : 443;
        int port;
        if (rawPort.isEmpty()) {
            port = defaultPort;
        } else if (DECIMAL.matcher(rawPort).matches() && rawPort.length() <= 5 && Integer.parseInt(rawPort) <= 65535) {
            port = Integer.parseInt(rawPort);
        } else {
            return Optional.empty();
        }
        return host(rawHost).map(host -> new SiteOrigin(scheme, host, port == defaultPort ? -1 : port));
    }

    /** The host as a browser's URL parser leaves it, or empty where this cannot be told for sure. */
    private static Optional<String> host(String raw) {
        if (raw.isEmpty() || raw.contains("%")) {
            return Optional.empty(); // percent-encoded hosts and IPv6 zones: not worth guessing
        }
        if (raw.startsWith("[")) {
            return ipv6(raw.substring(1, raw.length() - 1));
        }
        boolean trailingDot = raw.endsWith(".") || raw.endsWith("。") || raw.endsWith("．") || raw.endsWith("｡");
        String name = trailingDot ? raw.substring(0, raw.length() - 1) : raw;
        if (name.isEmpty()) {
            return Optional.empty();
        }
        if (name.chars().anyMatch(c -> IDNA_DEVIATIONS.indexOf(c) >= 0)) {
            return Optional.empty(); // Java's IDNA 2003 maps them away ("straße" is "strasse"), a browser keeps them
        }
        String ascii;
        try {
            ascii = IDN.toASCII(name, IDN.USE_STD3_ASCII_RULES).toLowerCase(Locale.ROOT);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        String[] labels = ascii.split("\\.", -1);
        for (String label : labels) {
            if (label.isEmpty()) {
                return Optional.empty();
            }
        }
        String last = labels[labels.length - 1];
        if (DECIMAL.matcher(last).matches() || HEX.matcher(last).matches()) {
            // ends in a number: an IPv4 address in one of its forms (a trailing dot does not change it)
            return ipv4(labels);
        }
        return Optional.of(trailingDot ? ascii + "." : ascii);
    }

    /** The WHATWG IPv4 parser: 1 to 4 parts, each decimal, octal (leading 0) or hex (0x); the last fills the remaining bytes. */
    private static Optional<String> ipv4(String[] parts) {
        if (parts.length > 4) {
            return Optional.empty();
        }
        long[] numbers = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i];
            try {
                if (HEX.matcher(part).matches()) {
                    numbers[i] = part.length() == 2 ? 0 : Long.parseLong(part.substring(2), 16);
                } else if (part.length() > 1 && part.startsWith("0")) {
                    numbers[i] = Long.parseLong(part.substring(1), 8);
                } else {
                    numbers[i] = Long.parseLong(part);
                }
            } catch (NumberFormatException e) {
                return Optional.empty(); // not a number, or too long to be an address
            }
            if (i < parts.length - 1 && numbers[i] > 255) {
                return Optional.empty();
            }
        }
        long last = numbers[parts.length - 1];
        if (last >= 1L << (8 * (5 - parts.length))) {
            return Optional.empty();
        }
        long address = last;
        for (int i = 0; i < parts.length - 1; i++) {
            address += numbers[i] << (8 * (3 - i));
        }
        return Optional.of((address >> 24 & 255) + "." + (address >> 16 & 255) + "." + (address >> 8 & 255) + "." + (address & 255));
    }

    private static Optional<String> ipv6(String literal) {
        if (literal.isEmpty() || !literal.matches("[0-9A-Fa-f:.]+") || !literal.contains(":")) {
            return Optional.empty();
        }
        try {
            InetAddress address = InetAddress.getByName(literal); // a literal: no name is looked up
            return Optional.of(address instanceof Inet4Address ? "[::ffff:" + address.getHostAddress() + "]"
                    : "[" + address.getHostAddress() + "]");
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return scheme + "://" + host + (port < 0 ? "" : ":" + port);
    }
}
