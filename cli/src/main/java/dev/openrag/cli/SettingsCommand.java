package dev.openrag.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Shows a collection's enrichment settings, or sets them ({@code PUT /api/collections/{name}/settings}):
 * {@code ./openrag settings notes --contextualizer llm --model contextualizer=openai:gpt-4o-mini --max-tokens 200000}.
 * Setting replaces the collection's settings: options left out go back to the app's defaults.
 */
@Command(name = "settings", description = "Show or set a collection's enrichments, models and per-job LLM budget.")
class SettingsCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Parameters(index = "0", paramLabel = "COLLECTION")
    String collection;

    @Option(names = "--contextualizer", description = "structural | llm | none")
    String contextualizer;

    @Option(names = "--graph-extractor", description = "rules | llm")
    String graphExtractor;

    @Option(names = "--summaries", description = "extractive | llm | off")
    String summaries;

    @Option(names = "--model", paramLabel = "ROLE=PROVIDER[:MODEL]",
            description = "a role's provider and model, e.g. graph-extractor=anthropic:claude-3-5-haiku-latest (repeatable)")
    Map<String, String> models = new LinkedHashMap<>();

    @Option(names = "--max-tokens", description = "the most LLM tokens one job may spend")
    Long maxTokens;

    @Option(names = "--max-cost", description = "the most one job may spend, by openrag.llm.prices")
    Double maxCost;

    @Option(names = "--url", defaultValue = "${env:OPENRAG_INGEST_URL:-http://127.0.0.1:8081}", description = "ingest-pipeline URL")
    String url;

    @Override
    public Integer call() throws Exception {
        ApiClient ingest = new ApiClient(url);
        String path = "/api/collections/" + collection + "/settings";
        boolean setting = contextualizer != null || graphExtractor != null || summaries != null || !models.isEmpty()
                || maxTokens != null || maxCost != null;
        JsonNode settings = setting ? ingest.putJson(path, JSON.writeValueAsString(body())) : ingest.get(path);
        System.out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(settings));
        return 0;
    }

    ObjectNode body() {
        ObjectNode body = JSON.createObjectNode();
        body.put("contextualizer", contextualizer);
        body.put("graphExtractor", graphExtractor);
        body.put("summaries", summaries);
        ObjectNode chosen = body.putObject("models");
        models.forEach((role, choice) -> {
            int colon = choice.indexOf(':');
            ObjectNode model = chosen.putObject(role);
            model.put("provider", colon < 0 ? choice : choice.substring(0, colon));
            if (colon >= 0) {
                model.put("model", choice.substring(colon + 1));
            }
        });
        if (maxTokens != null || maxCost != null) {
            ObjectNode budget = body.putObject("budget");
            budget.put("maxTokens", maxTokens);
            budget.put("maxCost", maxCost);
        }
        return body;
    }
}
