package dev.openrag.knowledge.memory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Facts that hold one value at a time, read offline by rule from what a memory says: where someone
 * lives, whom they work for, what they work as, their favourite thing of a kind, their age,
 * relationship status, email, phone, address, birthday, time zone or name. "Marguerite moved to
 * Porto" and "I live in Lisbon" said by Marguerite state two values of her residence, so the newer
 * replaces the older; "Marguerite no longer works at Acme" ends "Marguerite works at Acme".
 *
 * <p>The rules are narrow on purpose: a wrong replacement hides a true memory from default search,
 * a missed one only leaves an old fact beside the new. So the subject must be the speaker ("I",
 * "my"), a name, or "the user", right before the verb (adverbs and auxiliaries between: "I've
 * just moved to"); a wish or a plan ("I want to live in Paris"), a stay ("based in Berlin this
 * week"), a question, a past state ("lived in"), a pronoun subject and a place or company written
 * without a capital state nothing. The language model role ({@link LlmContradictions}) reads
 * everything else where one runs.
 */
public final class StatedFacts {

    /**
     * One stated value: {@code subject} is a key (the speaker's or a name's, lower case),
     * {@code value} lower case without articles. {@code ended}: the statement ends that value ("no
     * longer works at Acme") rather than giving a new one.
     */
    public record Fact(String subject, String attribute, String value, boolean ended) {
    }

    static final String RESIDENCE = "residence";
    static final String EMPLOYER = "employer";
    static final String JOB = "job";
    static final String AGE = "age";
    static final String RELATIONSHIP = "relationship status";

    /** The words a statement of each kind is written with, which the search for the facts it may replace adds to its text. */
    private static final Map<String, String> CUES = Map.of(
            RESIDENCE, "live lives living moved based",
            EMPLOYER, "work works working employer",
            JOB, "work works job",
            AGE, "years old age",
            RELATIONSHIP, "married single engaged divorced");

    private static final String SUBJECT = "(?<subject>\\bI\\b|\\b[Tt]he [Uu]ser\\b|\\b[A-Z][\\p{L}'’-]{1,30}(?: [A-Z][\\p{L}'’-]{1,30})?)";
    private static final String POSSESSOR = "(?<subject>\\b[Mm]y\\b|\\b[Tt]he [Uu]ser(?:'s|’s)|\\b[A-Z][\\p{L}-]{1,30}(?: [A-Z][\\p{L}-]{1,30})?(?:'s|’s))";
    /** Auxiliaries, adverbs and negations between a subject and its verb ("'ve just", "no longer", "doesn't"). */
    private static final String BETWEEN = "(?<between>(?:'m|’m|'ve|’ve|'s|’s)?(?:\\s+(?:am|is|are|have|has|had|just|now|currently|"
            + "still|recently|finally|also|actually|officially|already|no longer|not|never|don't|doesn't|don’t|doesn’t|do not|"
            + "does not|happily))*)\\s+";
    /** A name of a place or an organisation: capitalised words, "of" or "de" between ("Bank of America"). */
    private static final String NAMED = "(?:the\\s+)?(?<value>[A-Z][\\p{L}\\p{N}.&'’-]{0,30}(?:\\s+(?:of\\s+|de\\s+|upon\\s+)?[A-Z][\\p{L}\\p{N}.&'’-]{0,30}){0,5})";
    /** Any value, up to the end of its clause (at most six words). */
    private static final String FREE = "(?:an?\\s+|the\\s+)?(?<value>[\\p{L}\\p{N}@+][\\p{L}\\p{N}@+.'’_/-]{0,60}(?:\\s+(?!(?:and|but|because|since|so|"
            + "as|now|which|who|where|when|though|although|until|from|for|with|in|at|on|by|these|this|anymore)\\b)"
            + "[\\p{L}\\p{N}@+][\\p{L}\\p{N}@+.'’_/-]{0,60}){0,5})";

    private record Rule(String attribute, Pattern pattern) {
    }

    private static final List<Rule> RULES = List.of(
            new Rule(RESIDENCE, Pattern.compile(SUBJECT + BETWEEN + "(?:live|lives|living|reside|resides|residing|based)\\s+in\\s+" + NAMED)),
            new Rule(RESIDENCE, Pattern.compile(SUBJECT + BETWEEN + "(?:moved|relocated)\\s+(?:back\\s+)?to\\s+" + NAMED)),
            new Rule(EMPLOYER, Pattern.compile(SUBJECT + BETWEEN + "(?:work|works|working|employed)\\s+(?:at|for|by)\\s+" + NAMED)),
            new Rule(JOB, Pattern.compile(SUBJECT + BETWEEN + "(?:work|works|working)\\s+as\\s+" + FREE)),
            new Rule(AGE, Pattern.compile(SUBJECT + BETWEEN + "(?:turned\\s+(?<turned>\\d{1,3})\\b|(?<value>\\d{1,3})\\s+years?\\s+old\\b)")),
            new Rule(RELATIONSHIP, Pattern.compile(SUBJECT + BETWEEN + "(?:got\\s+)?(?<value>married|single|divorced|widowed|separated|"
                    + "engaged(?!\\s+(?:in|with)\\b))(?![\\p{L}-])")),
            new Rule(null, Pattern.compile(POSSESSOR + "(?<between>)\\s+(?:new\\s+|current\\s+|all-time\\s+)?(?<attribute>favou?rite\\s+[a-z]+(?:\\s+[a-z]+)?|"
                    + "e-?mail(?:\\s+address)?|(?:mobile|phone|cell)(?:\\s+number)?|(?:home\\s+)?address|birthday|date of birth|"
                    + "time\\s?zone|nickname|pronouns|(?:preferred\\s+)?name)\\s+(?:is|are|has become)\\s+(?:now\\s+)?" + FREE)));

    /** How far before a statement's subject a wish or condition is looked for, and after it "anymore". */
    private static final int NEAR = 48;
    private static final Pattern NEGATION = Pattern.compile("\\b(?:not|never|don't|doesn't|don’t|doesn’t)\\b");
    private static final Pattern NO_LONGER = Pattern.compile("\\bno longer\\b|\\bany ?more\\b");
    /** A wish, plan or condition before the subject ("If I moved to Porto", "I'd love to"): the sentence states nothing. */
    private static final Pattern HYPOTHETICAL = Pattern.compile("(?i)\\b(?:if|would|could|might|maybe|perhaps|wish|hope|hoping|"
            + "want|wants|plan|plans|planning|thinking|dream|dreaming|imagine|unless|whether|someday|one day)\\b");
    /** A stay, not a change ("based in Berlin this week", "working at Acme for the summer"): the old fact still holds. */
    private static final Pattern TEMPORARY = Pattern.compile("(?i)\\b(?:(?:this|next|that) (?:week|weekend|month|summer|semester)|"
            + "for (?:now|a while|a few (?:days|weeks|months)|the (?:summer|week|weekend|month|holidays|semester))|temporarily|"
            + "until|till|on (?:vacation|holiday)|visiting)\\b");
    /** Capitalised words that are no one's name when they come first ("Now Alice lives …", "She lives …"). */
    private static final Set<String> NOT_NAMES = Set.of("he", "she", "they", "we", "you", "it", "this", "that", "there", "here",
            "who", "what", "which", "everyone", "someone", "nobody", "people", "now", "then", "so", "but", "and", "also", "today",
            "yesterday", "recently", "finally", "actually", "well", "oh", "yes", "yeah", "no", "still", "since", "after", "before",
            "when", "while", "our", "your", "his", "her", "their", "its", "my", "the", "a", "an", "both", "all", "many", "most");
    private static final Set<String> NOT_VALUES = Set.of("i", "it", "this", "that", "there", "here", "the", "my", "our", "your");

    private StatedFacts() {
    }

    /** The facts {@code text} states, its first person being {@code speaker} (null: an unnamed "I"). */
    public static List<Fact> of(String text, String speaker) {
        Set<Fact> facts = new LinkedHashSet<>();
        for (String sentence : sentences(withoutSpeakerPrefix(text, speaker))) {
            if (sentence.endsWith("?")) {
                continue;
            }
            for (Rule rule : RULES) {
                Matcher m = rule.pattern().matcher(sentence);
                while (m.find()) {
                    fact(rule, m, sentence, speaker).ifPresent(facts::add);
                }
            }
        }
        return List.copyOf(facts);
    }

    /** Whether {@code newer} replaces {@code older}: a new value of the same fact, or the end of that value. */
    public static boolean replaces(Fact newer, Fact older) {
        if (older.ended() || !newer.subject().equals(older.subject()) || !newer.attribute().equals(older.attribute())) {
            return false;
        }
        boolean sameValue = newer.value().equals(older.value());
        return newer.ended() ? sameValue : !sameValue;
    }

    /** The ids of {@code earlier} memories whose stated facts {@code memory} replaces; none that happened after it. */
    public static List<String> replaced(Memory memory, List<Memory> earlier) {
        List<Fact> stated = of(memory.text(), memory.speaker());
        if (stated.isEmpty()) {
            return List.of();
        }
        List<String> ids = new ArrayList<>();
        for (Memory old : earlier) {
            boolean later = old.occurredAt() != null && memory.occurredAt() != null && old.occurredAt() > memory.occurredAt();
            if (later || old.id().equals(memory.id())) {
                continue;
            }
            List<Fact> oldFacts = of(old.text(), old.speaker());
            if (stated.stream().anyMatch(fact -> oldFacts.stream().anyMatch(oldFact -> replaces(fact, oldFact)))) {
                ids.add(old.id());
            }
        }
        return ids;
    }

    /** The words that statements of the same kinds as {@code facts} are written with (for finding them by BM25). */
    public static String cues(List<Fact> facts) {
        Set<String> words = new LinkedHashSet<>();
        facts.forEach(fact -> words.add(CUES.getOrDefault(fact.attribute(), fact.attribute())));
        return String.join(" ", words);
    }

    private static Optional<Fact> fact(Rule rule, Matcher m, String sentence, String speaker) {
        String between = m.group("between").toLowerCase(Locale.ROOT);
        Matcher wish = HYPOTHETICAL.matcher(sentence).region(Math.max(0, m.start() - NEAR), m.start());
        Matcher stay = TEMPORARY.matcher(sentence).region(m.end(), Math.min(sentence.length(), m.end() + NEAR));
        if (wish.find() || HYPOTHETICAL.matcher(between).find() || stay.find()) {
            return Optional.empty();
        }
        String subject = subject(m.group("subject"), speaker);
        String value = m.group("value") != null ? m.group("value") : AGE.equals(rule.attribute()) ? m.group("turned") : null;
        if (subject == null || value == null) {
            return Optional.empty();
        }
        value = value.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ").replaceAll("[.’']+$", "").strip();
        if (value.isEmpty() || NOT_VALUES.contains(value)) {
            return Optional.empty();
        }
        String attribute = rule.attribute() != null ? rule.attribute() : attribute(m.group("attribute"));
        boolean noLonger = between.contains("no longer");
        boolean negated = noLonger || NEGATION.matcher(between).find();
        boolean ended = noLonger || negated && NO_LONGER.matcher(sentence).region(m.end(), Math.min(sentence.length(), m.end() + NEAR)).find();
        if (negated && !ended) {
            return Optional.empty(); // "doesn't live in Paris": says what is not, not what ended
        }
        return Optional.of(new Fact(subject, attribute, value, ended));
    }

    /** The sentences of {@code text}: each ends at a stop followed by a space or the end ("ann@example.org" is one word), or a line's end. */
    static List<String> sentences(String text) {
        List<String> sentences = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean stop = ".!?;".indexOf(c) >= 0 && (i + 1 == text.length() || Character.isWhitespace(text.charAt(i + 1)));
            if (stop || c == '\n') {
                sentences.add(text.substring(start, stop ? i + 1 : i).strip());
                start = i + 1;
            }
        }
        sentences.add(text.substring(start).strip());
        return sentences.stream().filter(sentence -> !sentence.isEmpty()).toList();
    }

    private static String subject(String written, String speaker) {
        String plain = written.replaceAll("(?:'s|’s)$", "").strip();
        String lower = plain.toLowerCase(Locale.ROOT);
        if (lower.equals("i") || lower.equals("my")) {
            return speaker == null || speaker.isBlank() ? "i" : MemoryText.key(speaker);
        }
        if (lower.equals("the user")) {
            return "user";
        }
        String[] words = lower.split(" ");
        int first = 0;
        while (first < words.length && NOT_NAMES.contains(words[first])) {
            first++;
        }
        return first == words.length ? null : MemoryText.key(String.join(" ", Arrays.copyOfRange(words, first, words.length)));
    }

    private static String attribute(String written) {
        String lower = written.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ").replace("favourite", "favorite")
                .replace("colour", "color"); // one fact, however it is spelt
        if (lower.startsWith("favorite")) {
            return lower;
        }
        if (lower.contains("mail")) {
            return "email";
        }
        if (lower.contains("phone") || lower.contains("mobile") || lower.contains("cell")) {
            return "phone";
        }
        if (lower.contains("address")) {
            return "address";
        }
        if (lower.equals("date of birth")) {
            return "birthday";
        }
        if (lower.startsWith("time")) {
            return "time zone";
        }
        return lower.replace("preferred ", "");
    }

    /** "[8 May, 2023] Caroline: I moved …" → "I moved …": a transcript's date and speaker, which are fields of their own. */
    private static String withoutSpeakerPrefix(String text, String speaker) {
        String rest = text.replaceFirst("^\\s*\\[[^\\]]{0,40}\\]\\s*", "");
        if (speaker != null && !speaker.isBlank() && rest.regionMatches(true, 0, speaker + ":", 0, speaker.length() + 1)) {
            rest = rest.substring(speaker.length() + 1);
        }
        return rest;
    }
}
