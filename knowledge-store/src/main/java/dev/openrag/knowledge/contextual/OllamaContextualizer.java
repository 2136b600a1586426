package dev.openrag.knowledge.contextual;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.ollama.OllamaChatModel;
import dev.openrag.knowledge.port.Contextualizer;
import dev.openrag.schemas.Chunk;

/**
 * Contextual retrieval with an LLM served by Ollama, using Anthropic's prompt: the whole document
 * and one chunk in, a short situating context out. At most {@code maxInFlight} calls run at once
 * across all documents (the LLM is the scarcest resource); each call has a timeout and retries
 * with backoff (LangChain4j's), and a chunk whose call still fails gets the
 * {@link StructuralContextualizer}'s context instead, so ingestion never stops on the LLM.
 */
public final class OllamaContextualizer implements Contextualizer {

    private static final Logger LOG = LoggerFactory.getLogger(OllamaContextualizer.class);

    /** Anthropic's contextual-retrieval prompt. */
    static final String PROMPT = """
            <document>
            %s
            </document>
            Here is the chunk we want to situate within the whole document
            <chunk>
            %s
            </chunk>
            Please give a short succinct context to situate this chunk within the overall document for the purposes \
            of improving search retrieval of the chunk. Answer only with the succinct context and nothing else.""";

    private final ChatModel model;
    private final String modelName;
    private final Semaphore inFlight;
    private final int maxDocumentChars;
    private final StructuralContextualizer fallback = new StructuralContextualizer();
    private final ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor();

    public OllamaContextualizer(String baseUrl, String modelName, int maxInFlight, Duration timeout, int maxRetries,
                                int maxDocumentChars) {
        this(OllamaChatModel.builder().baseUrl(baseUrl).modelName(modelName).timeout(timeout).maxRetries(maxRetries)
                .temperature(0.0).build(), modelName, maxInFlight, maxDocumentChars);
    }

    OllamaContextualizer(ChatModel model, String modelName, int maxInFlight, int maxDocumentChars) {
        this.model = model;
        this.modelName = modelName;
        this.inFlight = new Semaphore(maxInFlight, true);
        this.maxDocumentChars = maxDocumentChars;
    }

    @Override
    public String name() {
        return "ollama:" + modelName;
    }

    @Override
    public List<String> contextualize(String title, String sourceUri, String documentText, List<Chunk> chunks) {
        String document = documentText.length() > maxDocumentChars ? documentText.substring(0, maxDocumentChars) : documentText;
        List<String> structural = fallback.contextualize(title, sourceUri, documentText, chunks);
        List<CompletableFuture<String>> calls = new ArrayList<>();
        for (int i = 0; i < chunks.size(); i++) {
            String chunkText = chunks.get(i).text();
            String fallbackContext = structural.get(i);
            calls.add(CompletableFuture.supplyAsync(() -> situate(document, chunkText, fallbackContext), workers));
        }
        return calls.stream().map(CompletableFuture::join).toList();
    }

    private String situate(String document, String chunk, String fallbackContext) {
        try {
            inFlight.acquire();
            try {
                String answer = model.chat(PROMPT.formatted(document, chunk));
                return answer == null || answer.isBlank() ? fallbackContext : answer.strip();
            } finally {
                inFlight.release();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fallbackContext;
        } catch (RuntimeException e) {
            LOG.warn("Ollama contextualization failed, using the structural context: {}", e.getMessage());
            return fallbackContext;
        }
    }
}
