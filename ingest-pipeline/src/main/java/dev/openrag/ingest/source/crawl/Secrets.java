package dev.openrag.ingest.source.crawl;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Login values written {@code ${NAME}} come from the environment at login time; never logged or stored. */
final class Secrets {

    private static final Pattern REFERENCE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");

    private Secrets() {
    }

    static boolean isReference(String value) {
        return value != null && REFERENCE.matcher(value).matches();
    }

    /** The value itself, or the env var it names; a missing env var is an error naming it (not its value). */
    static String resolve(String value, Map<String, String> environment) {
        Matcher reference = value == null ? null : REFERENCE.matcher(value);
        if (reference == null || !reference.matches()) {
            return value;
        }
        String resolved = environment.get(reference.group(1));
        if (resolved == null) {
            throw new IllegalStateException("environment variable " + reference.group(1) + " is not set");
        }
        return resolved;
    }
}
