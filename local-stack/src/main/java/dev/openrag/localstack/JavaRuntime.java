package dev.openrag.localstack;

import java.nio.file.Files;
import java.nio.file.Path;

/** The java binary for child JVMs: Neo4j 2026.x and OpenSearch 3.x need Java 21 or newer. */
public final class JavaRuntime {

    static final int MINIMUM = 21;

    private JavaRuntime() {
    }

    /**
     * JVM options every child gets: JDK 24+ warns on each start that Netty and others use
     * sun.misc.Unsafe; the engines and apps are known to, so keep their logs quiet about it.
     */
    public static java.util.List<String> commonOptions() {
        return Runtime.version().feature() >= 24
                ? java.util.List.of("--sun-misc-unsafe-memory-access=allow")
                : java.util.List.of();
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
