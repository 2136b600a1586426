package dev.openrag.knowledge.runtime;

import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import dev.openrag.schemas.TokenUsage;

/**
 * What tokens cost, from {@code openrag.llm.prices."<model>".input|output|cached-input} (per
 * million tokens, in the currency of your bill). A model is looked up as "provider:model", then
 * as the bare model name; a model with no price has no cost (local models cost nothing we can
 * know), and a total that includes an unpriced hosted model is shown without a cost.
 */
@ApplicationScoped
public class Prices {

    private final Map<String, LlmConfig.Price> prices;

    public Prices(LlmConfig config) {
        this.prices = config.prices();
    }

    /** The price of {@code usage} spent by {@code model} ("provider:model"), when the model has one. */
    public Optional<Double> cost(String model, TokenUsage usage) {
        return price(model).map(price -> {
            long cached = Math.min(usage.cachedInputTokens(), usage.inputTokens());
            double cachedPrice = price.cachedInput().orElse(price.input());
            return ((usage.inputTokens() - cached) * price.input() + cached * cachedPrice
                    + usage.outputTokens() * price.output()) / 1_000_000.0;
        });
    }

    /** Local Ollama models are free to run; hosted models without a price are unknown. */
    public boolean free(String model) {
        return model != null && model.startsWith("ollama:") && price(model).isEmpty();
    }

    /** Whether what {@code model} spends can be priced: it has a price, or is a local model. */
    public boolean known(String model) {
        return price(model).isPresent() || free(model);
    }

    private Optional<LlmConfig.Price> price(String model) {
        if (model == null) {
            return Optional.empty();
        }
        LlmConfig.Price price = prices.get(model);
        if (price == null && model.indexOf(':') > 0) {
            price = prices.get(model.substring(model.indexOf(':') + 1));
        }
        return Optional.ofNullable(price);
    }
}
