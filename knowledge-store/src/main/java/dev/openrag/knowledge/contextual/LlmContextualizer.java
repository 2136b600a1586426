package dev.openrag.knowledge.contextual;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.openrag.knowledge.port.ChatModel;
import dev.openrag.knowledge.port.ChatModel.Prompt;
import dev.openrag.knowledge.port.ChatModel.Reply;
import dev.openrag.knowledge.port.Contextualizer;
import dev.openrag.schemas.Chunk;
import dev.openrag.schemas.TokenUsage;

/**
 * Contextual retrieval with an LLM (any provider), using Anthropic's prompt: the whole document
 * and one chunk in, a short situating context out. The document is the system part of every
 * chunk's prompt, the prefix providers cache (Anthropic's contextual-retrieval cookbook), so a
 * document's chunks after the first mostly read it from the cache. The model bounds the calls in
 * flight and retries; a chunk whose call still fails gets the {@link StructuralContextualizer}'s
 * context and the document a warning, so ingestion never stops on the LLM.
 */
public final class LlmContextualizer implements Contextualizer {

    private static final Logger LOG = LoggerFactory.getLogger(LlmContextualizer.class);

    static final String DOCUMENT = """
            <document>
            %s
            </document>""";

    static final String QUESTION = """
            Here is the chunk we want to situate within the whole document
            <chunk>
            %s
            </chunk>
            Please give a short succinct context to situate this chunk within the overall document for the purposes \
            of improving search retrieval of the chunk. Answer only with the succinct context and nothing else.""";

    private final ChatModel model;
    private final int maxDocumentChars;
    private final StructuralContextualizer fallback = new StructuralContextualizer();
    private final ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor();

    public LlmContextualizer(ChatModel model, int maxDocumentChars) {
        this.model = model;
        this.maxDocumentChars = maxDocumentChars;
    }

    @Override
    public String name() {
        return "llm:" + model.name();
    }

    /** The model this contextualizer asks ("provider:model"). */
    public String model() {
        return model.name();
    }

    /** The prompt of every chunk, as {@link #contextualize} sends them (estimates count these). */
    public List<Prompt> prompts(String documentText, List<Chunk> chunks) {
        String document = DOCUMENT.formatted(documentText.length() > maxDocumentChars
                ? documentText.substring(0, maxDocumentChars) : documentText);
        return chunks.stream().map(chunk -> new Prompt(document, QUESTION.formatted(chunk.text()), false)).toList();
    }

    @Override
    public Contexts contextualize(String title, String sourceUri, String documentText, List<Chunk> chunks) {
        List<String> structural = fallback.contexts(title, sourceUri, documentText, chunks);
        List<CompletableFuture<Reply>> calls = new ArrayList<>();
        for (Prompt prompt : prompts(documentText, chunks)) {
            calls.add(CompletableFuture.supplyAsync(() -> situate(prompt), workers));
        }
        List<String> texts = new ArrayList<>(chunks.size());
        TokenUsage usage = TokenUsage.NONE;
        int fellBack = 0;
        for (int i = 0; i < chunks.size(); i++) {
            Reply reply = calls.get(i).join();
            usage = usage.plus(reply == null ? null : reply.usage());
            if (reply == null || reply.text().isBlank()) {
                texts.add(structural.get(i));
                fellBack++;
            } else {
                texts.add(reply.text().strip());
            }
        }
        List<String> warnings = fellBack == 0 ? List.of() : List.of(fellBack + " of " + chunks.size()
                + " chunks got the structural context: " + model.name() + " gave no context for them");
        return new Contexts(texts, usage, model.name(), warnings);
    }

    /** The model's reply, or null when the call failed (the chunk falls back). */
    private Reply situate(Prompt prompt) {
        try {
            return model.chat(prompt);
        } catch (RuntimeException e) {
            LOG.warn("LLM contextualization failed, using the structural context: {}", e.getMessage());
            return null;
        }
    }
}
