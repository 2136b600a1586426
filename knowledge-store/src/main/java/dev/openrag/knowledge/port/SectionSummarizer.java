package dev.openrag.knowledge.port;

import java.util.List;

import dev.openrag.schemas.TokenUsage;

/** Writes the summary of a document section (or of the whole document when the path is empty). */
public interface SectionSummarizer {

    String name();

    /** @param texts the section's chunk texts in document order, nested sections included */
    Summary summarize(String documentTitle, List<String> headingPath, List<String> texts);

    /** A summary, the LLM tokens it cost and the model ("provider:model") that spent them (none offline). */
    record Summary(String text, TokenUsage usage, String model) {

        public static Summary offline(String text) {
            return new Summary(text, TokenUsage.NONE, null);
        }
    }
}
