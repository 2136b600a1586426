package dev.openrag.knowledge.summary;

import java.util.List;

import org.jboss.logging.Logger;

import dev.openrag.knowledge.port.ChatModel;
import dev.openrag.knowledge.port.SectionSummarizer;
import dev.openrag.schemas.TokenUsage;

/**
 * Section summaries written by the configured chat model (Ollama); any failure falls back to the
 * extractive summary, so a slow or absent LLM never fails a document.
 */
public final class ChatSummarizer implements SectionSummarizer {

    private static final Logger LOG = Logger.getLogger(ChatSummarizer.class);
    private static final int MAX_INPUT_CHARS = 12_000;

    private final ChatModel chat;
    private final ExtractiveSummarizer fallback = new ExtractiveSummarizer();

    public ChatSummarizer(ChatModel chat) {
        this.chat = chat;
    }

    @Override
    public String name() {
        return "llm:" + chat.name();
    }

    /** The model this summarizer asks ("provider:model"). */
    public String model() {
        return chat.name();
    }

    @Override
    public Summary summarize(String documentTitle, List<String> headingPath, List<String> texts) {
        TokenUsage usage = TokenUsage.NONE;
        try {
            ChatModel.Reply reply = chat.chat(prompt(documentTitle, headingPath, texts));
            usage = reply.usage();
            String summary = reply.text().strip();
            if (!summary.isEmpty()) {
                return new Summary(summary, usage, chat.name());
            }
        } catch (RuntimeException e) {
            LOG.warnf("LLM section summary failed (%s); using the extractive summary", e.getMessage());
        }
        return new Summary(fallback.text(documentTitle, headingPath, texts), usage, chat.name());
    }

    /** The prompt for a section, as {@link #summarize} sends it (estimates count these). */
    public ChatModel.Prompt prompt(String documentTitle, List<String> headingPath, List<String> texts) {
        String body = String.join("\n\n", texts);
        if (body.length() > MAX_INPUT_CHARS) {
            body = body.substring(0, MAX_INPUT_CHARS);
        }
        String section = headingPath.isEmpty() ? "the whole document" : "the section \"" + String.join(" > ", headingPath) + "\"";
        return ChatModel.Prompt.of("""
                <document title="%s">
                %s
                </document>
                Summarize %s in two or three sentences for a search index: what it covers and the key
                terms a reader would search for. Answer only with the summary.""".formatted(documentTitle, body, section));
    }
}
