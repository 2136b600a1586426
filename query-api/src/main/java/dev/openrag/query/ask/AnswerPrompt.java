package dev.openrag.query.ask;

import java.util.List;

import dev.openrag.knowledge.port.Correction;
import dev.openrag.query.search.SearchResponse;

/**
 * The prompt an answer is written from: instructions, then corrections and pinned memories
 * (ahead of the sources, so the model weighs them first), then the numbered sources, then the
 * question.
 */
final class AnswerPrompt {

    private AnswerPrompt() {
    }

    static String build(String question, List<SearchResponse.Result> sources, List<SearchResponse.MemoryNote> memories,
                        List<Correction> corrections) {
        StringBuilder prompt = new StringBuilder("""
                Answer the question using only the numbered sources below. Cite the sources you use as [n] right \
                after each claim. Corrections override anything the sources say. If the sources do not contain the \
                answer, say that you do not know.
                """);
        if (!corrections.isEmpty()) {
            prompt.append("\nCorrections:\n");
            corrections.forEach(correction -> prompt.append("- ").append(correction.text()).append('\n'));
        }
        if (!memories.isEmpty()) {
            prompt.append("\nRemembered facts:\n");
            memories.forEach(memory -> prompt.append("- ").append(memory.text()).append('\n'));
        }
        prompt.append("\nSources:\n");
        for (int i = 0; i < sources.size(); i++) {
            SearchResponse.Result source = sources.get(i);
            prompt.append('[').append(i + 1).append("] ").append(source.title() == null ? source.documentId() : source.title());
            if (source.sourceUri() != null) {
                prompt.append(" (").append(source.sourceUri()).append(')');
            }
            prompt.append('\n');
            if (source.context() != null && !source.context().isBlank()) {
                prompt.append(source.context().strip()).append('\n');
            }
            prompt.append(source.text().strip()).append("\n\n");
        }
        return prompt.append("Question: ").append(question).append("\nAnswer:").toString();
    }
}
