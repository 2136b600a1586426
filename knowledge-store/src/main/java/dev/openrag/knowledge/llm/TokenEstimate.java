package dev.openrag.knowledge.llm;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;

import dev.openrag.knowledge.port.ChatModel.Prompt;

/**
 * Tokens a prompt will cost, counted offline with OpenAI's o200k_base encoding (jtokkit). Other
 * providers' tokenizers differ by some percent; an estimate is a budget, not a bill. Each message
 * adds the chat format's few tokens of framing.
 */
public final class TokenEstimate {

    private static final Encoding O200K = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE);
    private static final int PER_MESSAGE = 4;
    private static final int REPLY_PRIMING = 3;

    private TokenEstimate() {
    }

    public static int tokens(String text) {
        return text == null || text.isEmpty() ? 0 : O200K.countTokensOrdinary(text);
    }

    /** The prompt's tokens as sent: its messages and their framing. */
    public static int tokens(Prompt prompt) {
        int systemTokens = prompt.system() == null || prompt.system().isBlank() ? 0 : tokens(prompt.system()) + PER_MESSAGE;
        return systemTokens + tokens(prompt.user()) + PER_MESSAGE + REPLY_PRIMING;
    }

    /** The tokens of the prompt's system part, the prefix a provider may cache. */
    public static int systemTokens(Prompt prompt) {
        return prompt.system() == null || prompt.system().isBlank() ? 0 : tokens(prompt.system()) + PER_MESSAGE;
    }
}
