package dev.openrag.ingest.stage.contextualize;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.openrag.knowledge.port.Contextualizer;

/**
 * The contextualizer of each collection: {@code openrag.collections.<name>.contextualizer}
 * (structural, llm or none; ollama is the older name of llm) when set, else
 * {@code openrag.contextualizer}. One instance per mode, made on first use (an LLM client only
 * exists when some collection asks for it; {@code openrag.llm.contextualizer.*} says which).
 */
public final class Contextualizers {

    public static final String STRUCTURAL = "structural";
    public static final String LLM = "llm";
    /** The older name of {@link #LLM}, from when Ollama was the only provider. */
    public static final String OLLAMA = "ollama";
    /** No context: the chunk alone is embedded and indexed (the baseline contextual retrieval is measured against). */
    public static final String NONE = "none";

    private final String defaultMode;
    private final Function<String, Optional<String>> perCollection;
    private final Map<String, Supplier<Contextualizer>> factories;
    private final Map<String, Contextualizer> instances = new ConcurrentHashMap<>();

    public Contextualizers(String defaultMode, Function<String, Optional<String>> perCollection,
                           Map<String, Supplier<Contextualizer>> factories) {
        this.defaultMode = check(defaultMode, "openrag.contextualizer", factories);
        this.perCollection = perCollection;
        this.factories = factories;
    }

    public Contextualizer forCollection(String collection) {
        String mode = perCollection.apply(collection)
                .map(value -> check(value, "openrag.collections." + collection + ".contextualizer", factories))
                .orElse(defaultMode);
        return instances.computeIfAbsent(mode, m -> factories.get(m).get());
    }

    private static String check(String mode, String key, Map<String, ?> factories) {
        if (!factories.containsKey(mode)) {
            throw new IllegalArgumentException(key + " must be one of " + factories.keySet().stream().sorted().toList()
                    + ", not '" + mode + "'");
        }
        return mode;
    }
}
