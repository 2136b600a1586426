package dev.openrag.memory.neo4j;

import java.util.EnumSet;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Config;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;

import dev.openrag.knowledge.neo4j.Neo4jSchema;
import dev.openrag.localstack.Engine;
import dev.openrag.localstack.StackConfig;
import dev.openrag.localstack.test.TestStack;
import dev.openrag.memory.MemoryWords;

/**
 * The Neo4j of the memory module's tests: local-stack's one Neo4j of the test JVM, with the knowledge graph's and
 * memory's schemas as an app's start leaves them. A class with {@code @ExtendWith(MemoryNeo4j.class)} takes a
 * {@link Driver} parameter: one driver for the JVM's tests, bootstrapped once, closed by JUnit when they end.
 */
public final class MemoryNeo4j implements ParameterResolver {

    /** The vector size every memory test writes: they share one Neo4j, whose memory vector index has one dimension. */
    public static final int DIMENSIONS = 4;

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(MemoryNeo4j.class);

    /** A driver of its own to {@code stack}'s Neo4j, both schemas bootstrapped; the caller closes it. */
    public static Driver connect(StackConfig stack) {
        // a pooled connection is checked before each use: one test kills and restarts Neo4j under the JVM's shared driver
        Driver driver = GraphDatabase.driver(stack.neo4jUri(), AuthTokens.none(),
                Config.builder().withConnectionLivenessCheckTimeout(0, TimeUnit.MILLISECONDS).build());
        Neo4jSchema.bootstrap(driver, DIMENSIONS);
        MemorySchema.bootstrap(driver, DIMENSIONS, MemoryWords.of(true));
        return driver;
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == Driver.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        // in the root store: shared by every class of the JVM, and closed (a Driver is AutoCloseable) after the last
        return context.getRoot().getStore(NAMESPACE).computeIfAbsent(Driver.class,
                key -> connect(TestStack.ensure(EnumSet.of(Engine.NEO4J))), Driver.class);
    }
}
