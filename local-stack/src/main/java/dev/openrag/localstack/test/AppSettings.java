package dev.openrag.localstack.test;

import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Quarkus test resource that hands its init args to the app as its configuration: a test class's own runtime
 * settings (an admin key, a longer read timeout) without a test profile. A class with other resources only
 * restarts the app, in the same JVM; a test profile builds a new application with class loaders of its own, where
 * the embedder's tokenizer (a JNI library, which a JVM links to one class loader only) fails to load, so the apps
 * that embed (query-api, mcp-memory) keep their tests free of profiles. Use beside {@link LocalStackTestResource}:
 * {@code @WithTestResource(value = AppSettings.class, initArgs = @ResourceArg(name = "openrag.auth.admin-key", value = "..."))}.
 */
public class AppSettings implements QuarkusTestResourceLifecycleManager {

    private Map<String, String> settings = Map.of();

    @Override
    public void init(Map<String, String> initArgs) {
        settings = Map.copyOf(initArgs);
    }

    @Override
    public Map<String, String> start() {
        return settings;
    }

    @Override
    public void stop() {
        // nothing was started
    }
}
