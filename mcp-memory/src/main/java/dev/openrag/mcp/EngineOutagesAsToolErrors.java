package dev.openrag.mcp;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import jakarta.interceptor.InterceptorBinding;

/**
 * On a tools class: a store that is down makes a tool call fail as a tool error
 * ({@code isError: true}, "neo4j is unavailable; try again when it is back"), not as a JSON-RPC
 * internal error carrying the driver's message. See {@link EngineOutagesAsToolErrorsInterceptor}.
 */
@InterceptorBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface EngineOutagesAsToolErrors {
}
