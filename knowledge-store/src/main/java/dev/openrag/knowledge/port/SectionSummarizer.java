package dev.openrag.knowledge.port;

import java.util.List;

/** Writes the summary of a document section (or of the whole document when the path is empty). */
public interface SectionSummarizer {

    String name();

    /** @param texts the section's chunk texts in document order, nested sections included */
    String summarize(String documentTitle, List<String> headingPath, List<String> texts);
}
