package dev.openrag.mcp;

import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

import org.jboss.logging.Logger;

import dev.openrag.knowledge.port.EngineUnavailableException;
import io.quarkiverse.mcp.server.ToolCallException;

/** Turns an engine outage inside a tool into a tool error naming the engine. */
@EngineOutagesAsToolErrors
@Interceptor
@Priority(Interceptor.Priority.APPLICATION)
public class EngineOutagesAsToolErrorsInterceptor {

    private static final Logger LOG = Logger.getLogger(EngineOutagesAsToolErrorsInterceptor.class);

    @AroundInvoke
    Object translate(InvocationContext invocation) throws Exception {
        try {
            return invocation.proceed();
        } catch (RuntimeException e) {
            var outage = EngineUnavailableException.of(e);
            if (outage.isEmpty()) {
                throw e;
            }
            LOG.warnf("%s: %s unavailable: %s", invocation.getMethod().getName(), outage.get().engine(), outage.get().getMessage());
            throw new ToolCallException(outage.get().engine() + " is unavailable; try again when it is back");
        }
    }
}
