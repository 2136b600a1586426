package dev.openrag.cli;

import java.util.List;
import java.util.Locale;
import java.util.Random;

/** Deterministic English-like sentences for benchmarks (seeded, so runs are comparable). */
final class SyntheticText {

    private static final List<String> SUBJECTS = List.of("the user", "the team", "our customer", "the deploy job",
            "the billing service", "the search cluster", "the mobile app", "the data pipeline", "the on-call engineer",
            "the release train", "the staging database", "the web crawler", "the payment gateway", "the design review");
    private static final List<String> VERBS = List.of("prefers", "needs", "avoids", "schedules", "reports", "depends on",
            "migrates to", "replaces", "monitors", "caches", "retries", "documents", "rejects", "approves");
    private static final List<String> OBJECTS = List.of("weekly summaries", "dark mode", "Kafka topics", "early flights",
            "Postgres 17", "feature flags", "blue-green deploys", "short answers", "French translations", "vector indexes",
            "nightly backups", "rate limits", "TLS certificates", "long-term memory", "code reviews", "Monday meetings");
    private static final List<String> WHEN = List.of("every Monday", "since March", "during incidents", "for new hires",
            "on weekends", "after each release", "before audits", "in the EU region", "when traffic spikes", "by default");

    private final Random random;

    SyntheticText(long seed) {
        this.random = new Random(seed);
    }

    String sentence() {
        return capitalize(pick(SUBJECTS)) + " " + pick(VERBS) + " " + pick(OBJECTS) + " " + pick(WHEN) + ".";
    }

    String word() {
        return pick(OBJECTS).split(" ")[0].toLowerCase(Locale.ROOT);
    }

    private String pick(List<String> words) {
        return words.get(random.nextInt(words.size()));
    }

    private static String capitalize(String text) {
        return Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }
}
