package dev.openrag.knowledge.summary;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.openrag.knowledge.port.SectionSummarizer;
import dev.openrag.knowledge.text.Notices;

/**
 * The offline summarizer: the section's name, its leading sentences and its key terms (the most
 * frequent non-trivial words and identifiers). Deterministic and cheap; what a reader skims first.
 */
public final class ExtractiveSummarizer implements SectionSummarizer {

    public static final String NAME = "extractive";
    private static final int LEAD_CHARS = 320;
    private static final int KEY_TERMS = 10;
    private static final Pattern WORD = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{3,}");
    private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?])\\s+(?=[A-Z0-9`\"(])");
    private static final Pattern MARKUP = Pattern.compile("(?m)^\\s*(#{1,6}\\s+.*$|[-*+]\\s+|>\\s*|```.*$|~~~.*$)");
    private static final Set<String> STOP_WORDS = Set.of("this", "that", "with", "from", "have", "will", "when", "which",
            "there", "their", "they", "them", "then", "than", "these", "those", "into", "your", "what", "where", "were",
            "been", "also", "more", "some", "such", "only", "each", "other", "would", "should", "could", "about", "over",
            "after", "before", "here", "just", "like", "make", "does", "used", "using", "return", "returns", "true",
            "false", "null", "none", "self", "void", "public", "private", "static", "final", "import", "class", "function",
            "const", "string", "value", "values", "while", "else", "elif", "case", "break", "continue", "struct", "impl");

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Summary summarize(String documentTitle, List<String> headingPath, List<String> texts) {
        return Summary.offline(text(documentTitle, headingPath, texts));
    }

    /** The summary text alone. */
    public String text(String documentTitle, List<String> headingPath, List<String> texts) {
        String name = headingPath.isEmpty() ? (documentTitle == null ? "" : documentTitle) : String.join(" > ", headingPath);
        StringBuilder summary = new StringBuilder(name);
        String lead = lead(texts);
        if (!lead.isEmpty()) {
            summary.append(summary.isEmpty() ? "" : ": ").append(lead);
        }
        List<String> terms = keyTerms(texts);
        if (!terms.isEmpty()) {
            summary.append(summary.isEmpty() ? "" : "\n").append("Key terms: ").append(String.join(", ", terms)).append('.');
        }
        return summary.toString();
    }

    /**
     * Whole leading sentences of the first text, up to about {@value #LEAD_CHARS} characters, after
     * a leading licence or copyright comment (which would otherwise lead every such file's summary).
     */
    static String lead(List<String> texts) {
        for (String text : texts) {
            String flat = MARKUP.matcher(Notices.withoutLeadingNotice(text)).replaceAll(" ").replaceAll("\\s+", " ").strip();
            if (flat.isEmpty()) {
                continue;
            }
            StringBuilder lead = new StringBuilder();
            for (String sentence : SENTENCE_END.split(flat)) {
                if (!lead.isEmpty() && lead.length() + sentence.length() > LEAD_CHARS) {
                    break;
                }
                lead.append(lead.isEmpty() ? "" : " ").append(sentence);
            }
            return lead.length() > LEAD_CHARS * 2 ? lead.substring(0, LEAD_CHARS * 2) + "…" : lead.toString();
        }
        return "";
    }

    static List<String> keyTerms(List<String> texts) {
        Map<String, Integer> counts = new LinkedHashMap<>(); // ties keep the order of first appearance
        Map<String, String> spelling = new HashMap<>();
        for (String text : texts) {
            Matcher words = WORD.matcher(text);
            while (words.find()) {
                String word = words.group();
                String key = word.toLowerCase(Locale.ROOT);
                if (!STOP_WORDS.contains(key)) {
                    counts.merge(key, 1, Integer::sum);
                    spelling.putIfAbsent(key, word);
                }
            }
        }
        return counts.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .limit(KEY_TERMS).map(e -> spelling.get(e.getKey())).toList();
    }
}
