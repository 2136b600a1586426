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

    private static String englishStem(String word) {
        org.tartarus.snowball.ext.EnglishStemmer stemmer = new org.tartarus.snowball.ext.EnglishStemmer();
        stemmer.setCurrent(word);
        stemmer.stem();
        return stemmer.getCurrent();
    }
}
