package dev.openrag.memory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
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
 * relationship status, email, phone, address, birthday, time zone or name. A move to one place
 * said of a person and a residence in another said by that person state two values of one fact, so
 * the newer may replace the older; a statement that a person no longer holds a value ends it.
 *
 * <p>The rules are narrow on purpose: what they find is only suggested ({@link FactChanges}), and a
 * wrong suggestion costs the agent a look. So these are facts about people, and the subject must be
 * a person, right before the verb (adverbs and auxiliaries between): the speaker (the first person
 * of a known speaker, or of the only author of a scope), the user, or a name the scope knows as a
 * person ({@link People}); a product or a service that speaks in no memory states no job. A
 * speakerless first person in a scope written by several authors is nobody in particular. A wish
 * or a plan, a stay for a while, a question, a past state, a pronoun subject and a place or company
 * written without a capital state nothing.
 *
 * <p>These are English rules: their verbs, auxiliaries and frames are English words and patterns, so a memory in
 * another language states no fact here. What changed in other languages is suggested by meaning
 * ({@link FactChanges#byMeaning}), which needs no word of any language, and read by the memory LLM role
 * ({@link LlmContradictions}), which reads any language, where one runs.
 */
public final class StatedFacts {

    /**
     * One stated value: {@code subject} is a key (the speaker's or a name's, lower case),
     * {@code value} lower case without articles. {@code ended}: the statement ends that value (the person no
     * longer holds it) rather than giving a new one.
     */
    public record Fact(String subject, String attribute, String value, boolean ended) {
    }

    /**
     * Who can be the subject of a person's fact in a scope: {@code known}, the keys
     * ({@link MemoryText#key}) of the names the scope knows as people (its speakers, and names a
     * memory introduces as someone: "my sister Ana"); {@code severalAuthors}, whether more than one
     * speaker writes in it (then an "I" without a speaker is nobody in particular).
     */
    public record People(Set<String> known, boolean severalAuthors) {

        public static final People NONE = new People(Set.of(), false);

        public People {
            known = Set.copyOf(known);
        }

        /** The scope's speakers (any case), with {@code speaker} (the new memory's, may be null) among them. */
        public static People of(Collection<String> speakers, String speaker) {
            Set<String> keys = new HashSet<>();
            speakers.forEach(name -> keys.add(MemoryText.key(name)));
            if (speaker != null && !speaker.isBlank()) {
                keys.add(MemoryText.key(speaker));
            }
            keys.remove("");
            return new People(keys, keys.size() > 1);
        }

        People with(Collection<String> more) {
            Set<String> all = new HashSet<>(known);
            all.addAll(more);
            return new People(all, severalAuthors);
        }
    }

    /** A name a memory introduces as a person: "my sister Ana", "our colleague Priya Nair", "his friend Tom". */
    private static final Pattern INTRODUCED = Pattern.compile("\\b(?:[Mm]y|[Oo]ur|[Hh]is|[Hh]er|[Tt]heir|[Tt]he user's|[Aa])\\s+(?:(?:new|old|best|younger|older|"
            + "little|big|ex-?)\\s+)?(?:friend|wife|husband|partner|sister|brother|mother|mom|mum|father|dad|son|daughter|"
            + "colleague|coworker|co-worker|boss|manager|neighbou?r|roommate|flatmate|cousin|aunt|uncle|niece|nephew|"
            + "girlfriend|boyfriend|fianc[eé]e?|grandma|grandpa|grandmother|grandfather|teacher|doctor|therapist|mentor)"
            + ",?\\s+(?<name>[A-Z][\\p{L}'’-]{1,30}(?: [A-Z][\\p{L}'’-]{1,30})?)");

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
    /** A wish, plan or condition before the subject (a condition, a wish): the sentence states nothing. */
    private static final Pattern HYPOTHETICAL = Pattern.compile("(?i)\\b(?:if|would|could|might|maybe|perhaps|wish|hope|hoping|"
            + "want|wants|plan|plans|planning|thinking|dream|dreaming|imagine|unless|whether|someday|one day)\\b");
    /** A stay, not a change ("based in Berlin this week", "working at Acme for the summer"): the old fact still holds. */
    private static final Pattern TEMPORARY = Pattern.compile("(?i)\\b(?:(?:this|next|that) (?:week|weekend|month|summer|semester)|"
            + "for (?:now|a while|a few (?:days|weeks|months)|the (?:summer|week|weekend|month|holidays|semester))|temporarily|"
            + "until|till|on (?:vacation|holiday)|visiting)\\b");

    private StatedFacts() {
    }

    /**
     * The facts {@code text} states, its first person being {@code speaker} (null: an unnamed "I"), in
     * a scope whose only known person is that speaker.
     */
    public static List<Fact> of(String text, String speaker) {
        return of(text, speaker, People.of(List.of(), speaker));
    }

    /**
     * The facts {@code text} states about {@code people}, its first person being {@code speaker} (null:
     * an unnamed "I"). Who speaks is the memory's speaker field, never read out of the text: a leading
     * "Word:" is as often a label ("Update:", "Note:") as a name.
     */
    public static List<Fact> of(String text, String speaker, People people) {
        Set<Fact> facts = new LinkedHashSet<>();
        if (speaker != null && speaker.isBlank()) {
            speaker = null;
        }
        People known = people.with(introduced(text));
        if (speaker != null) {
            known = known.with(List.of(MemoryText.key(speaker)));
        }
        for (String sentence : sentences(withoutSpeakerPrefix(text, speaker))) {
            if (sentence.endsWith("?")) {
                continue;
            }
            for (Rule rule : RULES) {
                Matcher m = rule.pattern().matcher(sentence);
                while (m.find()) {
                    fact(rule, m, sentence, speaker, known).ifPresent(facts::add);
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

    /** The words that statements of the same kinds as {@code facts} are written with (for finding them by BM25). */
    public static String cues(List<Fact> facts) {
        Set<String> words = new LinkedHashSet<>();
        facts.forEach(fact -> words.add(cues(fact)));
        return String.join(" ", words);
    }

    /** The words a statement of {@code fact}'s kind is written with ("live lives moved …" for a residence). */
    static String cues(Fact fact) {
        return CUES.getOrDefault(fact.attribute(), fact.attribute());
    }

    /**
     * Whether {@code text} states anything: it is not a question (by its question mark, in any script: "?", "？", "؟",
     * or an opening "¿"), and no wish, plan or condition frames it. The last is read from English words ("if", "would",
     * "want"): a wish in another language is read as a statement, which costs a suggestion the agent dismisses.
     */
    static boolean statesSomething(String text) {
        String plain = text.strip();
        return !asks(plain) && !HYPOTHETICAL.matcher(plain).find();
    }

    /** Whether a text asks: {@link #QUESTION}, or its last sentence opens with Spanish's mark (the closing one left out). */
    private static boolean asks(String plain) {
        if (QUESTION.matcher(plain).find()) {
            return true;
        }
        int opened = plain.lastIndexOf('\u00bf');
        return opened >= 0 && plain.substring(opened).chars().noneMatch(c -> SENTENCE_END.indexOf(c) >= 0);
    }

    private static final String SENTENCE_END = ".!?\u2026\u3002\uff01\uff1f\u061f";

    /**
     * A question: its last sentence closes with a question mark of any script (only punctuation and spaces after it, in
     * Unicode's sense: CJK or Cyrillic letters are no trailing signs). Spanish's opening mark asks only for the sentence it
     * opens: "¿Sabes qué? Me mudé a Madrid." states a move.
     */
    private static final Pattern QUESTION = Pattern.compile("[?\uff1f\u061f][\\p{P}\\p{Z}\\p{S}]*$");

    /** The names {@code text} introduces as people ("my sister Ana" → "ana"). */
    static List<String> introduced(String text) {
        List<String> names = new ArrayList<>();
        Matcher m = INTRODUCED.matcher(text);
        while (m.find()) {
            names.add(MemoryText.key(m.group("name")));
        }
        return names;
    }

    private static Optional<Fact> fact(Rule rule, Matcher m, String sentence, String speaker, People people) {
        String between = m.group("between").toLowerCase(Locale.ROOT);
        Matcher wish = HYPOTHETICAL.matcher(sentence).region(Math.max(0, m.start() - NEAR), m.start());
        Matcher stay = TEMPORARY.matcher(sentence).region(m.end(), Math.min(sentence.length(), m.end() + NEAR));
        if (wish.find() || HYPOTHETICAL.matcher(between).find() || stay.find()) {
            return Optional.empty();
        }
        Subject who = subject(m.group("subject"), speaker, people);
        // a word before the name may frame the sentence too (a condition, a wish opening it)
        if (who == null || HYPOTHETICAL.matcher(who.before()).find()) {
            return Optional.empty();
        }
        String subject = who.key();
        String value = m.group("value") != null ? m.group("value") : AGE.equals(rule.attribute()) ? m.group("turned") : null;
        if (subject == null || value == null) {
            return Optional.empty();
        }
        value = value.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ").replaceAll("[.’']+$", "").strip();
        // a value of function words only (a pronoun, "here", an article) names nothing: the text's own language's stop words
        if (value.isEmpty() || Arrays.stream(value.split(" ")).allMatch(MemoryWords.stopWordsOf(sentence))) {
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

    /** Whose fact it is ({@code key}), and the capitalised words before that person's name ({@code before}). */
    private record Subject(String key, String before) {
    }

    /**
     * Whose fact it is: a person's key, or null when the subject is no one the scope knows as a person. Capitalised words
     * before a known name are not part of it ("Now", "Yesterday" opening a sentence); a pronoun, a product, a service or a
     * tool is no one: only names the scope knows as people (a first name of a known full name too).
     */
    private static Subject subject(String written, String speaker, People people) {
        String plain = written.replaceAll("(?:'s|’s)$", "").strip();
        String lower = plain.toLowerCase(Locale.ROOT);
        if (lower.equals("i") || lower.equals("my")) {
            if (speaker != null && !speaker.isBlank()) {
                return new Subject(MemoryText.key(speaker), "");
            }
            return people.severalAuthors() ? null : new Subject("i", "");
        }
        if (lower.equals("the user")) {
            return new Subject("user", "");
        }
        String[] words = lower.split(" ");
        for (int first = 0; first < words.length; first++) {
            String name = MemoryText.key(String.join(" ", Arrays.copyOfRange(words, first, words.length)));
            if (!name.isEmpty() && (people.known().contains(name) || people.known().stream().anyMatch(known -> known.startsWith(name + " ")))) {
                return new Subject(name, String.join(" ", Arrays.copyOfRange(words, 0, first)));
            }
        }
        return null;
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

    /**
     * What a memory says, without a leading bracketed date and, when {@code speaker} (its speaker field) is
     * given, without that speaker's "Name:" prefix ("[8 May, 2023] Caroline: I moved …" said by Caroline →
     * "I moved …"). Any other "Word:" prefix stays: it is part of what was written.
     */
    static String withoutSpeakerPrefix(String text, String speaker) {
        String rest = text.replaceFirst("^\\s*\\[[^\\]]{0,40}\\]\\s*", "");
        if (speaker != null && !speaker.isBlank() && rest.regionMatches(true, 0, speaker + ":", 0, speaker.length() + 1)) {
            rest = rest.substring(speaker.length() + 1);
        }
        return rest;
    }
}
