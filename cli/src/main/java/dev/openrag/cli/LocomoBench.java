package dev.openrag.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.openrag.localstack.LocalStackException;

/**
 * {@code openrag bench locomo --data DIR}: LoCoMo evidence recall through the MCP tools, as an agent
 * would use them. Every dialog turn of every conversation in DIR becomes a memory in a fresh scope
 * ({@code [<session date>] <speaker>: <text>}, its dia_id as tag, the session date as when it
 * happened, the speaker as speaker); only the turns and session dates are read, never the dataset's
 * observations or summaries. Then every question of categories 1-4 searches its conversation's
 * scope (k = 20), and recall@k is the share of its evidence turns among the first k results. With
 * {@code --tune}, recall is also printed for those conversations ({@code tune}) and for the others
 * ({@code check}), the split by which a setting is chosen on some conversations and checked on the
 * rest (docs/benchmarks.md).
 */
final class LocomoBench {

    static final Map<Integer, String> CATEGORIES = Map.of(1, "multi-hop", 2, "temporal", 3, "open-domain", 4, "single-hop");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern SESSION = Pattern.compile("session_(\\d+)");
    private static final Pattern EVIDENCE = Pattern.compile("D:?(\\d+):(\\d+)");
    private static final int[] KS = {5, 10, 20};
    private static final int BATCH = 200;

    /**
     * The other speakers' share of the score when a question is about one speaker: chosen on LoCoMo's two-person chats
     * (tune 0.7913 → 0.7959, check 0.7323 → 0.7465 at @10), asked for on each search so that the figures do not depend on
     * the server's setting ({@code openrag.memory.other-speaker-weight}).
     */
    static final double OTHER_SPEAKER_WEIGHT = 0.5;

    private final McpSession mcp;
    private final Path data;
    private final String mode;
    private final boolean context;
    private final boolean entityLinks;
    private PrintWriter dump;
    private boolean summaries;
    private Set<String> tune = Set.of();
    private boolean askedAtTheEnd;
    private boolean plain;

    /**
     * @param mode    search_memory's mode: hybrid, vector or bm25
     * @param context whether each turn is embedded with the turn before it as context
     * @param entityLinks whether search_memory follows entity links (its {@code entityLinks})
     */
    LocomoBench(String mcpUrl, Path data, String mode, boolean context, boolean entityLinks) {
        this.mcp = new McpSession(mcpUrl);
        this.data = data;
        this.mode = mode;
        this.context = context;
        this.entityLinks = entityLinks;
    }

    /** One turn as it goes into memory. */
    record Turn(String diaId, String speaker, String sessionDate, String text) {

        String memoryText() {
            return "[" + sessionDate + "] " + speaker + ": " + text;
        }
    }

    record Question(String text, int category, Set<String> evidence) {
    }

    /** Recall sums per category and k. */
    static final class Recall {
        final Map<Integer, double[]> sums = new TreeMap<>();
        final Map<Integer, Integer> counts = new TreeMap<>();

        void add(int category, double[] recall) {
            double[] sum = sums.computeIfAbsent(category, c -> new double[KS.length]);
            for (int i = 0; i < KS.length; i++) {
                sum[i] += recall[i];
            }
            counts.merge(category, 1, Integer::sum);
        }

        String line(String label, Integer category) {
            double[] sum = new double[KS.length];
            int count = 0;
            for (var entry : sums.entrySet()) {
                if (category == null || entry.getKey().equals(category)) {
                    for (int i = 0; i < KS.length; i++) {
                        sum[i] += entry.getValue()[i];
                    }
                    count += counts.get(entry.getKey());
                }
            }
            return String.format(Locale.ROOT, "%s evidence_recall@5=%.4f @10=%.4f @20=%.4f questions=%d", label,
                    sum[0] / Math.max(count, 1), sum[1] / Math.max(count, 1), sum[2] / Math.max(count, 1), count);
        }
    }

    /** Also writes each question, its evidence and its first 50 results as a JSON line to {@code file}, for analysis. */
    LocomoBench dumpTo(Path file) throws IOException {
        this.dump = file == null ? null : new PrintWriter(Files.newBufferedWriter(file), true);
        return this;
    }

    /**
     * Whether each question is asked as of its conversation's last session ({@code referenceTime}), as an agent in
     * that conversation would ask it, so that "in June" or "last summer" count from then; else as of now.
     */
    LocomoBench askedAtTheEnd(boolean askedAtTheEnd) {
        this.askedAtTheEnd = askedAtTheEnd;
        return this;
    }

    /**
     * Whether turns go in as a plain MCP client writes them: one add_memory each, with the text, the session date as
     * occurredAt and the dia_id as tag only (no speaker field, no context, no id): the memory an ordinary agent
     * keeps, on which add_memory's suggested supersessions run as they do for any agent.
     */
    LocomoBench plain(boolean plain) {
        this.plain = plain;
        return this;
    }

    /** Whether each conversation's scope gets its summaries (summarize_memories) before the questions. */
    LocomoBench withSummaries(boolean summaries) {
        this.summaries = summaries;
        return this;
    }

    /** The conversations (file names without .json) of the tune half; the others are the check half. */
    LocomoBench withTuneHalf(List<String> conversations) {
        this.tune = conversations == null ? Set.of() : Set.copyOf(conversations);
        return this;
    }

    int run() throws IOException {
        List<Path> files;
        try (Stream<Path> listing = Files.list(data)) {
            files = listing.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        if (files.isEmpty()) {
            throw new LocalStackException("no LoCoMo conversations (*.json) in " + data);
        }
        List<String> names = files.stream().map(LocomoBench::conversationName).toList();
        List<String> unknown = tune.stream().filter(name -> !names.contains(name)).sorted().toList();
        if (!unknown.isEmpty() || !tune.isEmpty() && tune.size() == names.size()) {
            throw new LocalStackException(unknown.isEmpty() ? "--tune names every conversation of " + data + "; leave some to check on"
                    : "--tune names no conversation of " + data + ": " + String.join(", ", unknown) + " (there: " + String.join(", ", names) + ")");
        }
        String run = Long.toString(System.currentTimeMillis(), 36);
        Latencies adds = new Latencies();
        Latencies searches = new Latencies();
        Recall recall = new Recall();
        Map<String, Recall> halves = Map.of("tune", new Recall(), "check", new Recall());
        for (Path file : files) {
            JsonNode conversation = JSON.readTree(file.toFile());
            String name = conversationName(file);
            String scope = "locomo-" + name + "-" + run;
            List<Turn> turns = turns(conversation);
            for (int from = 0; plain && from < turns.size(); from++) {
                Turn turn = turns.get(from);
                long started = System.nanoTime();
                mcp.call("add_memory", Map.of("scope", scope, "text", turn.memoryText(), "tags", List.of(turn.diaId()),
                        "occurredAt", isoTime(turn.sessionDate())));
                adds.add(started);
            }
            for (int from = 0; !plain && from < turns.size(); from += BATCH) {
                List<Map<String, Object>> batch = new ArrayList<>();
                for (int i = from; i < Math.min(turns.size(), from + BATCH); i++) {
                    Turn turn = turns.get(i);
                    Map<String, Object> memory = new HashMap<>(Map.of("text", turn.memoryText(), "tags", List.of(turn.diaId()),
                            "speaker", turn.speaker(), "occurredAt", isoTime(turn.sessionDate()), "id", scope + ":" + turn.diaId()));
                    // the turn before, in the same session, situates a reply (contextual retrieval, as for chunks)
                    if (context && i > 0 && turns.get(i - 1).sessionDate().equals(turn.sessionDate())) {
                        memory.put("context", turns.get(i - 1).memoryText());
                    }
                    batch.add(memory);
                }
                long started = System.nanoTime();
                mcp.call("add_memories", Map.of("scope", scope, "memories", batch));
                adds.addMillis((System.nanoTime() - started) / 1e6 / batch.size());
            }
            if (summaries) {
                mcp.call("summarize_memories", Map.of("scope", scope));
            }
            List<Question> questions = questions(conversation);
            Map<String, Object> search = new HashMap<>(Map.of("scope", scope, "k", dump == null ? 20 : 50, "mode", mode, "entityLinks", entityLinks,
                    "otherSpeakerWeight", OTHER_SPEAKER_WEIGHT));
            if (askedAtTheEnd) {
                search.put("referenceTime", turns.stream().map(turn -> Instant.parse(isoTime(turn.sessionDate())))
                        .max(Comparator.naturalOrder()).orElseThrow().toString());
            }
            for (Question question : questions) {
                long started = System.nanoTime();
                search.put("query", question.text());
                JsonNode found = mcp.call("search_memory", search);
                searches.add(started);
                double[] questionRecall = recall(ranked(found), question.evidence());
                recall.add(question.category(), questionRecall);
                halves.get(tune.contains(name) ? "tune" : "check").add(question.category(), questionRecall);
                if (dump != null) {
                    dump.println(JSON.writeValueAsString(Map.of("conversation", name, "question", question.text(),
                            "category", question.category(), "evidence", question.evidence(), "results", found.path("results"))));
                }
            }
            System.out.printf(Locale.ROOT, "  %s: %d turns, %d questions%n", name, turns.size(), questions.size());
        }
        for (var category : CATEGORIES.entrySet().stream().sorted(Map.Entry.comparingByKey()).toList()) {
            System.out.println(recall.line(category.getValue(), category.getKey()));
        }
        System.out.printf(Locale.ROOT, "add (per memory, batches of %d) %s%n", BATCH, adds.summary());
        System.out.printf(Locale.ROOT, "search_memory %s%n", searches.summary());
        if (!tune.isEmpty()) {
            System.out.println(halves.get("tune").line("tune (" + String.join(", ", new TreeSet<>(tune)) + ")", null));
            System.out.println(halves.get("check").line("check (the others)", null));
        }
        System.out.println(recall.line("locomo", null));
        if (dump != null) {
            dump.close();
        }
        return 0;
    }

    private static String conversationName(Path file) {
        return file.getFileName().toString().replace(".json", "");
    }

    private static final DateTimeFormatter SESSION_DATE = new DateTimeFormatterBuilder().parseCaseInsensitive()
            .appendPattern("h:mm a 'on' d MMMM, yyyy").toFormatter(Locale.ENGLISH);

    /** LoCoMo's session dates ("1:56 pm on 8 May, 2023") as ISO-8601, read as UTC. */
    static String isoTime(String sessionDate) {
        return LocalDateTime.parse(sessionDate.strip(), SESSION_DATE).toInstant(ZoneOffset.UTC).toString();
    }

    static List<Turn> turns(JsonNode conversation) {
        Map<Integer, String> sessions = new TreeMap<>();
        conversation.fieldNames().forEachRemaining(field -> {
            Matcher session = SESSION.matcher(field);
            if (session.matches()) {
                sessions.put(Integer.parseInt(session.group(1)), field);
            }
        });
        List<Turn> turns = new ArrayList<>();
        for (String session : sessions.values()) {
            String date = conversation.path(session + "_date_time").asText();
            for (JsonNode turn : conversation.get(session)) {
                String text = turn.path("text").asText();
                if (turn.hasNonNull("blip_caption")) {
                    text += " [shares a photo: " + turn.get("blip_caption").asText() + "]";
                }
                turns.add(new Turn(turn.path("dia_id").asText(), turn.path("speaker").asText(), date, text));
            }
        }
        return turns;
    }

    /** Questions of categories 1-4 with their evidence ids cleaned ("D8:6; D9:17", "D:11:26"). */
    static List<Question> questions(JsonNode conversation) {
        List<Question> questions = new ArrayList<>();
        for (JsonNode qa : conversation.path("qa")) {
            int category = qa.path("category").asInt();
            if (!CATEGORIES.containsKey(category)) {
                continue;
            }
            Set<String> evidence = new LinkedHashSet<>();
            for (JsonNode item : qa.path("evidence")) {
                Matcher id = EVIDENCE.matcher(item.asText());
                while (id.find()) {
                    evidence.add("D" + id.group(1) + ":" + id.group(2));
                }
            }
            if (!evidence.isEmpty()) {
                questions.add(new Question(qa.path("question").asText(), category, evidence));
            }
        }
        return questions;
    }

    /** The dia ids of the results, best first (a memory's first tag). */
    private static List<String> ranked(JsonNode found) {
        List<String> ids = new ArrayList<>();
        for (JsonNode hit : found.path("results")) {
            JsonNode tags = hit.path("memory").path("tags");
            if (tags.size() > 0) {
                ids.add(tags.get(0).asText());
            }
        }
        return ids;
    }

    static double[] recall(List<String> ranked, Set<String> evidence) {
        double[] recall = new double[KS.length];
        for (int i = 0; i < KS.length; i++) {
            Set<String> top = new LinkedHashSet<>(ranked.subList(0, Math.min(KS[i], ranked.size())));
            recall[i] = evidence.stream().filter(top::contains).count() / (double) evidence.size();
        }
        return recall;
    }
}
