package dev.openrag.localstack.test;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.EnumSet;
import java.util.List;

import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

import dev.openrag.localstack.Engine;
import dev.openrag.localstack.StackConfig;

/**
 * JUnit 5 extension for plain (non-Quarkus) tests: annotate the class with
 * {@code @LocalStackExtension.WithEngines({Engine.NEO4J})} and take a {@link StackConfig} parameter.
 */
public class LocalStackExtension implements ParameterResolver {

    @Target(ElementType.TYPE)
    @Retention(RetentionPolicy.RUNTIME)
    @ExtendWith(LocalStackExtension.class)
    public @interface WithEngines {
        Engine[] value() default {Engine.KAFKA, Engine.NEO4J, Engine.OPENSEARCH};
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == StackConfig.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Engine[] engines = context.getRequiredTestClass().getAnnotation(WithEngines.class) == null
                ? Engine.values()
                : context.getRequiredTestClass().getAnnotation(WithEngines.class).value();
        return TestStack.ensure(EnumSet.copyOf(List.of(engines)));
    }
}
