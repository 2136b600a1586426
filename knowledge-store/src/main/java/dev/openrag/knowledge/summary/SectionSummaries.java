package dev.openrag.knowledge.summary;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.openrag.knowledge.port.SectionSummarizer;
import dev.openrag.schemas.Chunk;
import dev.openrag.schemas.SectionSummary;
import dev.openrag.schemas.TokenUsage;

/**
 * The summaries of a document's section tree: one for the document (empty heading path) and one
 * per heading path prefix its chunks carry, each over the chunks it contains (nested ones too).
 */
public final class SectionSummaries {

    private SectionSummaries() {
    }

    /** Summaries without vectors, the document's first, then sections in document order, and the LLM tokens they cost. */
    public record Summaries(List<SectionSummary> sections, TokenUsage usage, String model) {

        public static final Summaries NONE = new Summaries(List.of(), TokenUsage.NONE, null);
    }

    public static List<SectionSummary> of(String title, List<Chunk> chunks, SectionSummarizer summarizer) {
        return summarize(title, chunks, summarizer).sections();
    }

    public static Summaries summarize(String title, List<Chunk> chunks, SectionSummarizer summarizer) {
        Map<List<String>, List<String>> textsBySection = sections(chunks);
        List<SectionSummary> summaries = new ArrayList<>(textsBySection.size());
        TokenUsage usage = TokenUsage.NONE;
        String model = null;
        for (Map.Entry<List<String>, List<String>> section : textsBySection.entrySet()) {
            List<String> path = section.getKey();
            SectionSummarizer.Summary summary = summarizer.summarize(title, path, section.getValue());
            usage = usage.plus(summary.usage());
            model = summary.model() == null ? model : summary.model();
            summaries.add(new SectionSummary(path, path.isEmpty() ? title : path.get(path.size() - 1), summary.text(), null));
        }
        return new Summaries(summaries, usage, model);
    }

    /** The texts of each section to summarize, by heading path: the document's (empty path) first. */
    public static Map<List<String>, List<String>> sections(List<Chunk> chunks) {
        Map<List<String>, List<String>> textsBySection = new LinkedHashMap<>();
        textsBySection.put(List.of(), new ArrayList<>());
        for (Chunk chunk : chunks) {
            List<String> path = chunk.headingPath() == null ? List.of() : chunk.headingPath();
            for (int depth = 0; depth <= path.size(); depth++) {
                textsBySection.computeIfAbsent(List.copyOf(path.subList(0, depth)), p -> new ArrayList<>()).add(chunk.text());
            }
        }
        return textsBySection;
    }
}
