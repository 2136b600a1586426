package dev.openrag.knowledge.settings;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.openrag.knowledge.llm.LlmProvider;
import dev.openrag.knowledge.llm.LlmRole;

/**
 * Which enrichments a collection's documents get, and which model each LLM role uses for it
 * ({@code PUT /api/collections/{name}/settings}). A null field means "the app's default". They
 * apply to documents ingested (or re-ingested) after the change.
 *
 * @param contextualizer structural | llm | none
 * @param graphExtractor rules | llm
 * @param summaries extractive | llm | off
 * @param models per role ("contextualizer", "graph-extractor", "summarizer"): the provider and model
 *               to use instead of {@code openrag.llm.<role>.*}
 * @param budget what each job in the collection may spend on LLM enrichment; null: no limit
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CollectionSettings(String contextualizer, String graphExtractor, String summaries, Map<String, ModelChoice> models,
                                 Budget budget) {

    public static final List<String> CONTEXTUALIZERS = List.of("structural", "llm", "none");
    public static final List<String> GRAPH_EXTRACTORS = List.of("rules", "llm");
    public static final List<String> SUMMARIES = List.of("extractive", "llm", "off");
    /** The roles ingestion uses; answers are the query app's and are not set per collection. */
    public static final List<LlmRole> INGEST_ROLES = List.of(LlmRole.CONTEXTUALIZER, LlmRole.GRAPH_EXTRACTOR, LlmRole.SUMMARIZER);

    public static final CollectionSettings DEFAULTS = new CollectionSettings(null, null, null, Map.of(), null);

    public CollectionSettings(String contextualizer, String graphExtractor, String summaries, Map<String, ModelChoice> models) {
        this(contextualizer, graphExtractor, summaries, models, null);
    }

    /**
     * The most LLM tokens (input and output) and the most cost (by {@code openrag.llm.prices}) one
     * job may spend; once either is reached, the job's remaining documents get the offline
     * enrichments and the job a warning. Either may be null.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Budget(Long maxTokens, Double maxCost) {
    }

    /** A provider and model for one role; model null: that provider's default model. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ModelChoice(String provider, String model) {
    }

    /** The same settings checked, with values normalized; the message of the exception names the field. */
    public CollectionSettings validated() {
        check("contextualizer", contextualizer, CONTEXTUALIZERS);
        check("graphExtractor", graphExtractor, GRAPH_EXTRACTORS);
        check("summaries", summaries, SUMMARIES);
        Map<String, ModelChoice> checked = new LinkedHashMap<>();
        if (models != null) {
            models.forEach((role, choice) -> {
                if (INGEST_ROLES.stream().noneMatch(r -> r.id().equals(role))) {
                    throw new IllegalArgumentException("field 'models' has an unknown role '" + role + "'; roles are "
                            + INGEST_ROLES.stream().map(LlmRole::id).toList());
                }
                if (choice == null || choice.provider() == null) {
                    throw new IllegalArgumentException("field 'models." + role + ".provider' is required");
                }
                LlmProvider provider = LlmProvider.of(choice.provider(), "field 'models." + role + ".provider'");
                if (choice.model() != null && (choice.model().isBlank() || choice.model().length() > 200)) {
                    throw new IllegalArgumentException("field 'models." + role + ".model' must be 1 to 200 characters");
                }
                checked.put(role, new ModelChoice(provider.id(), choice.model()));
            });
        }
        if (budget != null) {
            if (budget.maxTokens() != null && budget.maxTokens() < 1) {
                throw new IllegalArgumentException("field 'budget.maxTokens' must be at least 1, got " + budget.maxTokens());
            }
            if (budget.maxCost() != null && !(budget.maxCost() > 0)) {
                throw new IllegalArgumentException("field 'budget.maxCost' must be more than 0, got " + budget.maxCost());
            }
        }
        Budget limit = budget == null || (budget.maxTokens() == null && budget.maxCost() == null) ? null : budget;
        return new CollectionSettings(contextualizer, graphExtractor, summaries, Map.copyOf(checked), limit);
    }

    /** This collection's choice for a role, null when it keeps the app's. */
    public ModelChoice model(LlmRole role) {
        return models == null ? null : models.get(role.id());
    }

    private static void check(String field, String value, List<String> allowed) {
        if (value != null && !allowed.contains(value)) {
            throw new IllegalArgumentException("field '" + field + "' must be one of " + allowed + ", not '" + value + "'");
        }
    }
}
