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
 *
 * <p>The stack's location is kept in system properties, not only in a static field: Quarkus
 * loads test classes in a new class loader for each test profile, and every loader must find
 * the same engines instead of starting another set.
 */
public final class TestStack {

    private static final String CONFIG_PROPERTY = "openrag.test-stack.config";
    private static final String ENGINES_PROPERTY = "openrag.test-stack.engines";

    private TestStack() {
    }

    /**
     * Starts whichever of the given engines are not running yet; returns their configuration. The first call also starts
     * the engines a module lists in {@value #ENGINES_PROPERTY} (its tests' engines): engines started together come up
     * sooner than one after another, when a later test class first asks for its own.
     */
    public static StackConfig ensure(Set<Engine> engines) {
        synchronized (System.getProperties()) {
            boolean first = System.getProperty(CONFIG_PROPERTY) == null;
            StackConfig config = sharedConfig();
            Set<Engine> starting = EnumSet.noneOf(Engine.class);
            starting.addAll(engines);
            if (first) {
                for (String name : System.getProperty(ENGINES_PROPERTY, "").split(",")) {
                    if (!name.isBlank()) {
                        starting.add(Engine.valueOf(name.strip()));
                    }
                }
            }
            LocalStack stack = new LocalStack(config, false);
            stack.start(starting, line -> System.out.println("[test-stack] " + line));
            return config;
        }
    }

    public static StackConfig ensureAll() {
        return ensure(EnumSet.allOf(Engine.class));
    }

    private static StackConfig sharedConfig() {
        String saved = System.getProperty(CONFIG_PROPERTY);
        if (saved != null) {
            String[] parts = saved.split("\\|");
            return new StackConfig(Path.of(parts[0]), Integer.parseInt(parts[1]), Integer.parseInt(parts[2]),
                    Integer.parseInt(parts[3]), Integer.parseInt(parts[4]), Integer.parseInt(parts[5])).forTesting();
        }
        StackConfig config = StackConfig.onFreePorts(freshHome());
        System.setProperty(CONFIG_PROPERTY, String.join("|", config.home().toString(),
                Integer.toString(config.kafkaPort()), Integer.toString(config.kafkaControllerPort()),
                Integer.toString(config.neo4jBoltPort()), Integer.toString(config.openSearchPort()),
                Integer.toString(config.openSearchTransportPort())));
        LocalStack owner = new LocalStack(config, false);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> owner.stop(EnumSet.allOf(Engine.class)),
                "openrag-test-stack-stop"));
        return config;
    }

    private static Path freshHome() {
        String base = System.getenv().getOrDefault("OPENRAG_TEST_HOME", "target/local-stack");
        try {
            Path dir = Path.of(base).toAbsolutePath();
            if (dir.toString().indexOf(',') >= 0) {
                // the engines cannot live under a comma (LocalStack.requireNoComma): a project cloned under one tests in the
                // system's temp folder instead
                return Files.createTempDirectory("openrag-test-stack-");
            }
            Files.createDirectories(dir);
            return Files.createTempDirectory(dir, "run-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a test home under " + base, e);
        }
    }
}
