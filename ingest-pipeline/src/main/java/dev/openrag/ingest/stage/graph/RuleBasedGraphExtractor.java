package dev.openrag.ingest.stage.graph;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;

import dev.openrag.knowledge.contextual.LlmGraphExtractor;
import dev.openrag.knowledge.text.SourceCode;
import dev.openrag.schemas.Chunk;
import dev.openrag.schemas.GraphExtracted.Entity;
import dev.openrag.schemas.GraphExtracted.Mention;
import dev.openrag.schemas.GraphExtracted.Relation;

/**
 * The default, offline graph extractor. Entities: code symbols declared in the document
 * ({@code symbol}), Markdown link targets ({@code link}), capitalised multi-word terms and bold
 * defined terms ({@code term}). A chunk mentions an entity when it names it; a chunk that declares
 * symbol A and names symbol B gives {@code A -[RELATED_TO {type: references}]-> B}. Entity ids are
 * type + normalised name, so the same symbol merges across the documents of a collection.
 */
@ApplicationScoped
public class RuleBasedGraphExtractor {

    /** What the extractor found in one document. */
    public record Extraction(List<Entity> entities, List<Relation> relations, List<Mention> mentions) {
    }

    private static final int MAX_ENTITIES = 300;
    private static final Pattern LINK = Pattern.compile("\\[([^\\]]{1,100})\\]\\((https?://[^)\\s]{1,300})\\)");
    private static final Pattern CAPITALISED_TERM = Pattern.compile("\\b([A-Z][a-z]+(?:\\s+[A-Z][a-z]+){1,3})\\b");
    private static final Pattern BOLD_TERM = Pattern.compile("\\*\\*([^*\\n]{2,60})\\*\\*");
    private static final Set<String> GENERIC_SYMBOLS = Set.of("new", "default", "from", "into", "fmt", "drop", "clone",
            "main", "test", "tests", "init", "get", "set", "run", "name", "len", "is_empty", "eq", "hash");

    public Extraction extract(String documentText, String sourceUri, List<Chunk> chunks) {
        Map<String, Entity> entities = new LinkedHashMap<>();
        String language = SourceCode.language(sourceUri, null, documentText);
        if (language != null) {
            for (SourceCode.Declaration declaration : SourceCode.declarations(documentText, language)) {
                String name = declaration.kind().equals("impl") ? declaration.name().split(" for ")[0] : declaration.name();
                if (name.length() > 2 && !GENERIC_SYMBOLS.contains(name.toLowerCase(Locale.ROOT))) {
                    add(entities, name, "symbol");
                }
            }
        } else {
            find(LINK, documentText, 2).forEach(url -> add(entities, url, "link"));
            find(BOLD_TERM, documentText, 1).forEach(term -> add(entities, term, "term"));
            find(CAPITALISED_TERM, documentText, 1).forEach(term -> add(entities, term, "term"));
        }

        List<Mention> mentions = new ArrayList<>();
        Set<Relation> relations = new LinkedHashSet<>();
        for (Chunk chunk : chunks) {
            Set<String> words = words(chunk.text());
            List<Entity> mentioned = entities.values().stream().filter(e -> names(chunk.text(), words, e.name())).toList();
            mentioned.forEach(e -> mentions.add(new Mention(chunk.chunkId(), e.id())));
            if (language != null) {
                List<Entity> declaredHere = SourceCode.declarations(chunk.text(), language).stream()
                        .map(d -> entities.get(id(d.kind().equals("impl") ? d.name().split(" for ")[0] : d.name(), "symbol")))
                        .filter(java.util.Objects::nonNull).distinct().toList();
                for (Entity from : declaredHere) {
                    for (Entity to : mentioned) {
                        if (!to.id().equals(from.id()) && to.type().equals("symbol")) {
                            relations.add(new Relation(from.id(), to.id(), "references"));
                        }
                    }
                }
            }
        }
        return new Extraction(List.copyOf(entities.values()), List.copyOf(relations), mentions);
    }

    /**
     * Adds what an LLM found in each chunk (entities it names, relations between them) to a
     * rule-based extraction; {@code llm} is in the order of {@code chunks}, null where the LLM gave nothing usable.
     */
    static Extraction withLlm(Extraction rules, List<Chunk> chunks, List<LlmGraphExtractor.Found> llm) {
        Map<String, Entity> entities = new LinkedHashMap<>();
        rules.entities().forEach(e -> entities.put(e.id(), e));
        List<Mention> mentions = new ArrayList<>(rules.mentions());
        Set<Relation> relations = new LinkedHashSet<>(rules.relations());
        for (int c = 0; c < chunks.size(); c++) {
            Chunk chunk = chunks.get(c);
            LlmGraphExtractor.Found found = llm.get(c);
            if (found == null) {
                continue; // the LLM failed on this chunk: the rules' graph stands
            }
            Map<String, String> idsByName = new java.util.HashMap<>();
            for (String[] entity : found.entities()) {
                Entity added = new Entity(id(entity[0], entity[1]), entity[0], entity[1]);
                if (entities.size() < MAX_ENTITIES || entities.containsKey(added.id())) {
                    entities.putIfAbsent(added.id(), added);
                    idsByName.put(entity[0].toLowerCase(Locale.ROOT), added.id());
                    Mention mention = new Mention(chunk.chunkId(), added.id());
                    if (!mentions.contains(mention)) {
                        mentions.add(mention);
                    }
                }
            }
            for (String[] relation : found.relations()) {
                String from = idsByName.get(relation[0].toLowerCase(Locale.ROOT));
                String to = idsByName.get(relation[1].toLowerCase(Locale.ROOT));
                if (from != null && to != null && !from.equals(to)) {
                    relations.add(new Relation(from, to, relation[2]));
                }
            }
        }
        return new Extraction(List.copyOf(entities.values()), List.copyOf(relations), mentions);
    }

    private static void add(Map<String, Entity> entities, String name, String type) {
        if (entities.size() < MAX_ENTITIES) {
            entities.putIfAbsent(id(name, type), new Entity(id(name, type), name.strip(), type));
        }
    }

    static String id(String name, String type) {
        return type + ":" + name.strip().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
    }

    private static List<String> find(Pattern pattern, String text, int group) {
        List<String> found = new ArrayList<>();
        Matcher matcher = pattern.matcher(text);
        while (matcher.find()) {
            found.add(matcher.group(group));
        }
        return found;
    }

    private static final Pattern WORD = Pattern.compile("[\\w]+");

    /** The chunk's words, computed once: single-word names are then a set lookup, not a regex scan. */
    private static Set<String> words(String text) {
        Set<String> words = new java.util.HashSet<>();
        Matcher matcher = WORD.matcher(text);
        while (matcher.find()) {
            words.add(matcher.group());
        }
        return words;
    }

    private static boolean names(String text, Set<String> words, String name) {
        if (WORD.matcher(name).matches()) {
            return words.contains(name);
        }
        return text.contains(name) && Pattern.compile("(?<![\\w])" + Pattern.quote(name) + "(?![\\w])").matcher(text).find();
    }
}
