package dev.openrag.localstack;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** The java binary for child JVMs: Neo4j 2026.x and OpenSearch 3.x need Java 21 or newer. */
public final class JavaRuntime {

    static final int MINIMUM = 21;

    private JavaRuntime() {
    }

    /** Extra JVM options for every child, separated by spaces: the test build sets them; unset by default. */
    public static final String EXTRA_OPTIONS_VARIABLE = "OPENRAG_CHILD_JVM_OPTIONS";

    /**
     * JVM options every child gets: JDK 24+ warns on each start that Netty and others use
     * sun.misc.Unsafe; the engines and apps are known to, so keep their logs quiet about it. Then
     * those of {@value #EXTRA_OPTIONS_VARIABLE}: the test build runs its short-lived engines and apps
     * with the C1 compiler only ({@code -XX:TieredStopAtLevel=1}, as Quarkus dev mode does), which
     * halves their CPU on a 2-core machine where every process competes for it. Then {@link #NEUTRAL_SETTINGS}.
     */
    public static List<String> commonOptions() {
        return commonOptions(System.getenv(EXTRA_OPTIONS_VARIABLE));
    }

    static List<String> commonOptions(String extra) {
        List<String> options = new ArrayList<>();
        if (Runtime.version().feature() >= 24) {
            options.add("--sun-misc-unsafe-memory-access=allow");
        }
        if (extra != null && !extra.isBlank()) {
            options.addAll(Arrays.asList(extra.strip().split("\\s+")));
        }
        options.addAll(NEUTRAL_SETTINGS);
        return List.copyOf(options);
    }

    /**
     * Locale, time zone and encoding every child runs with, last so that they win over the user's
     * {@code JAVA_TOOL_OPTIONS} (the JVM reads those first) and {@value #EXTRA_OPTIONS_VARIABLE}: Kafka's
     * own config parsing upper-cases "classic" with the default locale, which in Turkish gives "CLASSİC",
     * no such group type, so a broker would not even format its storage. The servers' logs and answers
     * then read the same on every machine.
     */
    static final List<String> NEUTRAL_SETTINGS = List.of(
            "-Duser.language=en", "-Duser.country=US", "-Duser.timezone=UTC",
            "-Dfile.encoding=UTF-8", "-Dstdout.encoding=UTF-8", "-Dstderr.encoding=UTF-8");

    /**
     * Makes a child's environment leave {@link #NEUTRAL_SETTINGS} the last word: the JVM reads {@code _JAVA_OPTIONS} after
     * its command line, so a user's {@code -Duser.language=tr} there would still break Kafka's storage format. Its
     * options move to {@code JAVA_TOOL_OPTIONS}, which the JVM reads before the command line; nothing else changes.
     */
    public static void keepNeutralSettingsLast(Map<String, String> environment) {
        String late = environment.remove("_JAVA_OPTIONS");
        if (late != null && !late.isBlank()) {
            String early = environment.get("JAVA_TOOL_OPTIONS");
            environment.put("JAVA_TOOL_OPTIONS", early == null || early.isBlank() ? late : early + " " + late);
        }
    }

    /**
     * JVM options for OpenRAG's own apps, after {@link #commonOptions()}: the JDK's Vector API, which Lucene's
     * {@code VectorUtil} uses for the exact in-memory vector scans (memory scopes, small collections) where C2
     * compiles it: a 10,000-memory scan in 0.4 ms instead of 1.4 ms on a 512-bit CPU. Under C1 alone (the test build)
     * Lucene keeps its plain loop. The JVM prints one warning for the incubator module at start.
     */
    public static List<String> appOptions() {
        return List.of("--add-modules", "jdk.incubator.vector");
    }

    /** This JVM's own java when it is new enough (the scripts make sure it is), else OPENRAG_JAVA_HOME's. */
    public static String javaBinary() {
        if (Runtime.version().feature() >= MINIMUM) {
            return Path.of(System.getProperty("java.home"), "bin", "java").toString();
        }
        String home = System.getenv("OPENRAG_JAVA_HOME");
        if (home != null && Files.isExecutable(Path.of(home, "bin", "java"))) {
            return Path.of(home, "bin", "java").toString();
        }
        throw new LocalStackException("the engines need Java " + MINIMUM + "+, but this is Java "
                + Runtime.version().feature() + "; run through ./openrag or ./mvnw (they pick a suitable JDK) "
                + "or set OPENRAG_JAVA_HOME");
    }
}
