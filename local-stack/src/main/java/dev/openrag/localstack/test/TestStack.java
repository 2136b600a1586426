package dev.openrag.localstack.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;

import dev.openrag.localstack.Engine;
import dev.openrag.localstack.LocalStack;
import dev.openrag.localstack.StackConfig;

/**
 * One set of real engines per test JVM, on free ports, in a fresh directory under
 * {@code OPENRAG_TEST_HOME} (Surefire sets it to {@code target/local-stack}). Engines start on
 * first use and stop when the JVM exits (and by themselves if it is killed: see EngineMain).
 */
public final class TestStack {

    private static LocalStack stack;
    private static final Set<Engine> STARTED = EnumSet.noneOf(Engine.class);

    private TestStack() {
    }

    /** Starts whichever of the given engines are not running yet; returns their configuration. */
    public static synchronized StackConfig ensure(Set<Engine> engines) {
        if (stack == null) {
            stack = new LocalStack(StackConfig.onFreePorts(freshHome()), false);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> stack.stop(STARTED), "openrag-test-stack-stop"));
        }
        Set<Engine> missing = EnumSet.noneOf(Engine.class);
        missing.addAll(engines);
        missing.removeAll(STARTED);
        if (!missing.isEmpty()) {
            stack.start(missing, line -> System.out.println("[test-stack] " + line));
            STARTED.addAll(missing);
        }
        return stack.config();
    }

    public static StackConfig ensureAll() {
        return ensure(EnumSet.allOf(Engine.class));
    }

    private static Path freshHome() {
        String base = System.getenv().getOrDefault("OPENRAG_TEST_HOME", "target/local-stack");
        try {
            Path dir = Path.of(base).toAbsolutePath();
            Files.createDirectories(dir);
            return Files.createTempDirectory(dir, "run-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a test home under " + base, e);
        }
    }
}
