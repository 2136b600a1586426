package dev.openrag.memory.neo4j;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.neo4j.driver.Driver;

import dev.openrag.memory.Memory;
import dev.openrag.memory.MemoryHit;
import dev.openrag.memory.MemoryQuery;
import dev.openrag.memory.MemoryWords;
import dev.openrag.memory.TimeExpressions;

/**
 * Word search (mode bm25) reads each memory and each question in its own language, on real Neo4j: through the
 * {@code memory_words} index (no copy of the scope) and through the scope's copy, which must agree. Each case has
 * distractors in the same language; the controls name a stem only that language's stemmer gives.
 */
@ExtendWith(MemoryNeo4j.class)
class MemoryLanguagesTest {

    private static Driver driver;

    @BeforeAll
    static void connect(Driver shared) {
        driver = shared;
    }

    /** A store answering from Neo4j's index ({@code copied} false) or from the scope's copy. */
    private static Neo4jMemoryStore store(boolean copied) {
        return new Neo4jMemoryStore(driver, 50, copied ? 100_000 : 0);
    }

    /** A scope holding {@code texts}, in order; their ids are the scope and the text's position. */
    private static String scope(Neo4jMemoryStore store, String name, List<String> texts) {
        String scope = name + "-" + System.nanoTime();
        for (int i = 0; i < texts.size(); i++) {
            store.add(new Memory(scope + "-" + i, scope, texts.get(i), List.of(), false, 1 + i, 1 + i, null, null, null, List.of(),
                    List.of()), new float[] {1, i, 0, 0});
        }
        return scope;
    }

    /** The texts BM25 alone finds for {@code question}, best first. */
    private static List<String> found(Neo4jMemoryStore store, String scope, String question) {
        return store.search(new MemoryQuery(scope, question, new float[] {1, 0, 0, 0}, 5, null, 0, false, null, null, null,
                System.currentTimeMillis(), MemoryQuery.BM25, null, null, false)).stream().map(MemoryHit::memory).map(Memory::text).toList();
    }

    @ParameterizedTest(name = "copied {0}")
    @ValueSource(booleans = {false, true})
    void inflectedFormsFindTheirMemoryInEachLatinLanguage(boolean copied) {
        Neo4jMemoryStore store = store(copied);
        String scope = scope(store, "latin", List.of(
                "Unser Hund bellt jeden Morgen im Garten.",
                "Die Nachbarn haben ein neues Auto gekauft.",
                "Los niños juegan en el parque cada tarde.",
                "Mi hermana vive en una casa pequeña.",
                "Les enfants mangent des pommes vertes.",
                "Nous avons visité le musée la semaine dernière.",
                "Caroline was researching adoption agencies.",
                "The neighbours painted their fence blue."));

        assertThat(found(store, scope, "Warum bellen die Hunde?")).as("German plural and another person of the verb")
                .first().isEqualTo("Unser Hund bellt jeden Morgen im Garten.");
        assertThat(found(store, scope, "¿Dónde jugaba el niño?")).as("Spanish singular, another tense")
                .first().isEqualTo("Los niños juegan en el parque cada tarde.");
        assertThat(found(store, scope, "Quel enfant mange une pomme ?")).as("French singulars")
                .first().isEqualTo("Les enfants mangent des pommes vertes.");
        assertThat(found(store, scope, "What did Caroline research?")).as("English")
                .first().isEqualTo("Caroline was researching adoption agencies.");
    }

    @ParameterizedTest(name = "copied {0}")
    @ValueSource(booleans = {false, true})
    void aStemOnlyTheMemorysOwnLanguageGivesStillMatches(boolean copied) {
        // controls: the English stemmer leaves these plurals as they are, so read in English they would not match
        assertThat(englishStem("häuser")).isNotEqualTo(englishStem("haus"));
        assertThat(englishStem("chevaux")).isNotEqualTo(englishStem("cheval"));

        Neo4jMemoryStore store = store(copied);
        String scope = scope(store, "stems", List.of(
                "Wir haben letztes Jahr zwei Häuser in der Stadt gekauft.",
                "Die Kinder spielen gern mit dem Ball.",
                "Ma tante élève des chevaux dans sa ferme.",
                "Le train pour Lyon part à midi."));

        assertThat(found(store, scope, "Wo ist das Haus?")).containsExactly("Wir haben letztes Jahr zwei Häuser in der Stadt gekauft.");
        assertThat(found(store, scope, "Combien coûte un cheval ?")).containsExactly("Ma tante élève des chevaux dans sa ferme.");
    }

    @ParameterizedTest(name = "copied {0}")
    @ValueSource(booleans = {false, true})
    void chineseAndJapaneseAreFoundByAWordInsideASentence(boolean copied) {
        Neo4jMemoryStore store = store(copied);
        String scope = scope(store, "cjk", List.of(
                "我们的办公室搬到了杭州。",
                "我每天早上喝绿茶。",
                "私は東京の銀行で働いています。",
                "週末は猫と家で過ごします。"));

        assertThat(found(store, scope, "杭州")).containsExactly("我们的办公室搬到了杭州。");
        assertThat(found(store, scope, "办公室在哪里？")).first().isEqualTo("我们的办公室搬到了杭州。");
        assertThat(found(store, scope, "绿茶")).containsExactly("我每天早上喝绿茶。");
        assertThat(found(store, scope, "銀行")).containsExactly("私は東京の銀行で働いています。");
        assertThat(found(store, scope, "猫")).as("one character is a word too").containsExactly("週末は猫と家で過ごします。");
    }

    @ParameterizedTest(name = "copied {0}")
    @ValueSource(booleans = {false, true})
    void stopWordsAreEachLanguagesOwn(boolean copied) {
        Neo4jMemoryStore store = store(copied);
        String scope = scope(store, "stop", List.of(
                "Die Katze schläft auf dem Sofa.",
                "Old plants die without water.",
                "El gato de mi vecino es negro.",
                "Mi is a note of the scale."));

        assertThat(found(store, scope, "Why do plants die?")).as("'die' is a word in English")
                .containsExactly("Old plants die without water.");
        assertThat(found(store, scope, "Wo schläft die Katze?")).as("'die' is a German stop word")
                .containsExactly("Die Katze schläft auf dem Sofa.");
        assertThat(found(store, scope, "¿De qué color es el gato de mi vecino?")).as("'mi' is a Spanish stop word")
                .containsExactly("El gato de mi vecino es negro.");
    }

    /** A stand-in for the embedder: each word of the text hashed onto {@code dimensions} dimensions (both paths get the same vectors). */
    private static float[] hashedWords(String text, int dimensions, int seed) {
        float[] vector = new float[dimensions];
        for (String word : text.toLowerCase(java.util.Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (!word.isEmpty()) {
                int hash = word.hashCode() * 31 + seed;
                for (int d = 0; d < dimensions; d++) {
                    vector[d] += ((hash >>> (d * 8 % 32)) & 0xff) / 255f - 0.5f + (d == seed % dimensions ? 0.05f : 0);
                }
            }
        }
        return vector;
    }

    private static final List<String> TEXTS = List.of(
            "Our team moved the weekly planning meeting to Thursday mornings.",
            "The build server runs out of disk space every few weeks.",
            "Priya prefers short pull requests with one change each.",
            "The staging database is restored from last night's backup.",
            "I booked the train to the conference in Lisbon.",
            "The dentist appointment is on the second floor of the clinic.",
            "My sister plays the violin in a string quartet.",
            "We replaced the old load balancer with a managed one.",
            "Unser Team trifft sich jeden Montag zur Planung.",
            "Der Server für die Tests hat zu wenig Speicher.",
            "Meine Schwester wohnt seit dem Frühjahr in Leipzig.",
            "Die Datenbank wird jede Nacht gesichert.",
            "Ich fahre mit dem Zug zur Konferenz nach Wien.",
            "Der Zahnarzt ist im zweiten Stock der Praxis.",
            "Die Kinder lernen Geige in der Musikschule.",
            "Nuestro equipo se reúne los martes para planificar.",
            "El servidor de pruebas se queda sin memoria a menudo.",
            "Mi hermana vive en Valencia desde la primavera.",
            "La base de datos se copia cada noche.",
            "Viajo en tren a la conferencia de Sevilla.",
            "El dentista está en el segundo piso de la clínica.",
            "Mi hermano toca la guitarra en un grupo de jazz.");

    private static final List<String> QUESTIONS = List.of("When is the planning meeting?", "Wo wohnt meine Schwester?",
            "¿Quién toca la guitarra?", "Which server runs out of space?", "¿Dónde está el dentista?",
            "What did Priya say about the server?", "Was sagte Jonas über die Datenbank?");

    /**
     * Every list of a hybrid search (the two models' vectors, BM25 and its pseudo-relevance feedback, words in context, a
     * named speaker's and a period's memories, speaker focus, the episode lift, newer wins) ranks 22 memories in three
     * languages alike for seven questions, with the default settings and with feedback off, whether the scope is held in
     * memory or read from Neo4j: a scope without a current copy that Neo4j would scan exactly is read for the search alone
     * and ranked through the same code ({@code openrag.memory.copies.max-memories=0} here for the Neo4j side).
     */
    @ParameterizedTest(name = "feedback {0}")
    @ValueSource(booleans = {true, false})
    void aHybridSearchRanksAlikeFromNeo4jAndFromTheScopesCopy(boolean feedback) {
        Neo4jMemoryStore.SearchTuning tuning = feedback ? Neo4jMemoryStore.SearchTuning.DEFAULT
                : new Neo4jMemoryStore.SearchTuning(3, 0, 0);
        long day = 86_400_000L;
        java.util.Map<Boolean, List<List<String>>> orders = new java.util.HashMap<>();
        for (boolean copied : List.of(false, true)) {
            Neo4jMemoryStore store = copied ? new Neo4jMemoryStore(driver, 50, 100_000, tuning)
                    : Neo4jMemoryStore.readingEachSearch(driver, 50, 100_000, tuning); // no copy kept: each search reads the scope
            String scope = "ranking-" + System.nanoTime();
            List<Memory> memories = new java.util.ArrayList<>();
            List<String> contexts = new java.util.ArrayList<>();
            for (int i = 0; i < TEXTS.size(); i++) {
                // three days, two speakers, and a context (the turn before) for every fourth memory
                memories.add(new Memory(scope + "-" + i, scope, TEXTS.get(i), List.of(), false, 1 + i, 1 + i, null, null, null, List.of(),
                        List.of(), (i % 3) * day + i, i % 2 == 0 ? "Priya" : "Jonas"));
                contexts.add(i % 4 == 0 ? TEXTS.get((i + 5) % TEXTS.size()) : null);
            }
            store.addAll(memories, contexts, TEXTS.stream().map(text -> hashedWords(text, 4, 0)).toList(),
                    TEXTS.stream().map(text -> hashedWords(text, 3, 7)).toList());
            List<List<String>> found = new java.util.ArrayList<>();
            for (int q = 0; q < QUESTIONS.size(); q++) {
                String question = QUESTIONS.get(q);
                // the first question names a period (its own list of what happened then)
                TimeExpressions.Window period = q == 0 ? new TimeExpressions.Window(day, 2 * day) : null;
                found.add(store.search(new MemoryQuery(scope, question, hashedWords(question, 4, 0), 10, null, 0, false, null, null, null,
                        3 * day, MemoryQuery.HYBRID, period, null, false, hashedWords(question, 3, 7))).stream()
                        .map(hit -> hit.memory().text() + " " + hit.ranks().keySet().stream().sorted().toList()).toList());
            }
            assertThat(store.servesFromMemory(scope)).as("copied %s", copied).isEqualTo(copied);
            orders.put(copied, found);
        }
        assertThat(orders.get(true).stream().flatMap(List::stream)).as("the lists only a copy gave before take part")
                .anyMatch(hit -> hit.contains(Neo4jMemoryStore.SECOND_VECTOR_LIST))
                .anyMatch(hit -> hit.contains(Neo4jMemoryStore.CONTEXT_WORDS_LIST))
                .anyMatch(hit -> hit.contains("time")).anyMatch(hit -> hit.contains("speaker"));
        assertThat(orders.get(true).stream().flatMap(List::stream).anyMatch(hit -> hit.contains("feedback")))
                .as("the feedback list takes part with the defaults only").isEqualTo(feedback);
        assertThat(orders.get(false)).as("neo4j (first) and the copy (second) answer in the same order, from the same lists")
                .isEqualTo(orders.get(true));
    }

    private static String englishStem(String word) {
        org.tartarus.snowball.ext.EnglishStemmer stemmer = new org.tartarus.snowball.ext.EnglishStemmer();
        stemmer.setCurrent(word);
        stemmer.stem();
        return stemmer.getCurrent();
    }
}
