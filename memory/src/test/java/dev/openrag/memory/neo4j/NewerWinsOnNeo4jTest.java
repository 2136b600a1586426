package dev.openrag.memory.neo4j;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.neo4j.driver.Driver;

import dev.openrag.knowledge.embedding.SecondEmbedder;
import dev.openrag.memory.Memory;
import dev.openrag.memory.MemoryHit;
import dev.openrag.memory.MemoryQuery;

/**
 * Newer wins on real Neo4j with the bundled second model (e5-small-v2), in English, German, Spanish, French and Chinese, with no cue word:
 * an update ranks above the fact it restates, asOf before it finds the older first, a newer fact about a person leaves
 * their older, unrelated fact first at k=1; and every query ranks the same from the scope's in-memory copy as from a
 * store that has not read the scope yet.
 */
@ExtendWith(MemoryNeo4j.class)
class NewerWinsOnNeo4jTest {

    /** The first model's vector, the same for every text: the ranking comes from the second model's list and the words. */
    private static final float[] FIRST = {1, 0, 0, 0};
    private static final SecondEmbedder SECOND = SecondEmbedder.of("e5-small-v2-q");
    private static final long MONTH = 30L * 24 * 3600 * 1000;
    private static final long NOW = 100 * MONTH;

    private static Driver driver;

    @BeforeAll
    static void connect(Driver shared) {
        driver = shared;
    }

    /** Adds the texts in order, a month apart, to a fresh scope; returns the scope. */
    private static String scope(Neo4jMemoryStore store, String name, String... texts) {
        String scope = name + "-" + System.nanoTime();
        List<float[]> seconds = SECOND.passages(List.of(texts)).join();
        for (int i = 0; i < texts.length; i++) {
            long at = (i + 1) * MONTH;
            store.add(new Memory(scope + "-" + i, scope, texts[i], List.of(), false, at, at, null, null, null, List.of(), List.of(),
                    at, null), FIRST, seconds.get(i));
        }
        return scope;
    }

    private static List<String> search(Neo4jMemoryStore store, String scope, String question, int k, Long asOf) {
        MemoryQuery query = new MemoryQuery(scope, question, FIRST, k, null, 0, false, null, null, null, NOW,
                MemoryQuery.HYBRID, null, asOf, false, SECOND.query(question).join());
        return store.search(query).stream().map(MemoryHit::memory).map(Memory::id).map(id -> id.substring(id.lastIndexOf('-') + 1))
                .toList();
    }

    /** The same search from a store whose copy of the scope is current and from a fresh store: one order. */
    private static List<String> searchBoth(Neo4jMemoryStore warm, String scope, String question, int k, Long asOf) {
        List<String> cached = search(warm, scope, question, k, asOf);
        List<String> uncached = search(new Neo4jMemoryStore(driver), scope, question, k, asOf);
        assertThat(uncached).as("'%s' from a store that had not read the scope", question).isEqualTo(cached);
        return cached;
    }

    @Test
    void anUpdateWithoutACueWordRanksFirstInEachLanguageAndAsOfFindsTheOlder() {
        Neo4jMemoryStore store = new Neo4jMemoryStore(driver);
        List<String[]> cases = List.of(
                new String[] {"en", "I drink two espressos every morning before work.", "The printer on floor two is out of toner.",
                        "I quit coffee in May; these days it is only green tea in the morning.", "What do I drink in the morning?"},
                new String[] {"es", "Mi dentista es la doctora Ruiz, en la calle Mayor.", "La vecina del tercero tiene dos gatos.",
                        "Cambié de dentista: ahora voy al doctor Herrera en Chamberí.", "¿Quién es mi dentista?"},
                new String[] {"zh", "我们的办公室在上海。", "楼下的超市晚上十点关门。", "我们的办公室搬到了杭州。", "我们的办公室在哪里？"},
                new String[] {"fr", "Je fais mes courses au marché du samedi.", "Mon neveu apprend le piano au conservatoire.",
                        "Je me fais livrer les courses par le magasin bio du quartier.", "Où est-ce que je fais mes courses ?"});
        List<String> missed = new ArrayList<>();
        for (String[] c : cases) {
            String scope = scope(store, "newer-" + c[0], c[1], c[2], c[3]);
            List<String> now = searchBoth(store, scope, c[4], 10, null);
            if (!now.get(0).equals("2") || !now.get(1).equals("0")) {
                missed.add(c[0] + " now: " + now);
            }
            List<String> then = searchBoth(store, scope, c[4], 10, 2 * MONTH + 1);
            if (!then.get(0).equals("0") || then.contains("2")) {
                missed.add(c[0] + " asOf: " + then);
            }
        }
        assertThat(missed).isEmpty();
    }

    @Test
    void aValueThatChangesBackRanksTheNewestFirstAndAsOfFindsTheMiddleOne() {
        Neo4jMemoryStore store = new Neo4jMemoryStore(driver);
        List<String[]> cases = List.of(
                new String[] {"en", "The team meeting is on Tuesdays.", "The team meeting is on Thursdays now.",
                        "The team meeting is on Tuesdays again.", "When is the team meeting?"},
                new String[] {"de", "Unser Büro ist in Hamburg.", "Unser Büro ist nach Berlin umgezogen.",
                        "Unser Büro ist wieder nach Hamburg umgezogen.", "Wo ist unser Büro?"},
                new String[] {"zh", "我们的办公室在上海。", "现在我们的办公室在杭州。", "现在我们的办公室又回到上海了。", "我们的办公室在哪里？"});
        List<String> missed = new ArrayList<>();
        for (String[] c : cases) {
            String scope = scope(store, "back-" + c[0], c[1], c[2], c[3]);
            List<String> now = searchBoth(store, scope, c[4], 10, null);
            if (!now.get(0).equals("2")) {
                missed.add(c[0] + " now: " + now);
            }
            List<String> then = searchBoth(store, scope, c[4], 10, 2 * MONTH + 1);
            if (!then.get(0).equals("1") || then.contains("2")) {
                missed.add(c[0] + " asOf before it went back: " + then);
            }
        }
        assertThat(missed).isEmpty();
    }

    @Test
    void aNewerFactAboutAPersonLeavesTheirOlderUnrelatedFactFirstAtKOne() {
        Neo4jMemoryStore store = new Neo4jMemoryStore(driver);
        List<String[]> cases = List.of(
                new String[] {"en", "Jonas works at Siemens and plays the trumpet in a brass band.", "Jonas now works at Bosch.",
                        "Which instrument does Jonas play?", "Where does Jonas work?"},
                new String[] {"de", "Felix arbeitet als Koch und sammelt alte Schallplatten.", "Felix arbeitet jetzt in einer Bäckerei.",
                        "Was sammelt Felix?", null},
                new String[] {"de2", "Klara spielt Geige im Orchester und arbeitet als Lehrerin.", "Klara arbeitet als Schulleiterin.",
                        "Welches Instrument spielt Klara?", null},
                new String[] {"zh", "小明在乐队里吹小号，在银行工作。", "小明在一家保险公司工作。", "小明演奏什么乐器？", null});
        List<String> missed = new ArrayList<>();
        for (String[] c : cases) {
            String scope = scope(store, "person-" + c[0], c[1], c[2]);
            List<String> older = searchBoth(store, scope, c[3], 1, null);
            if (!older.equals(List.of("0"))) {
                missed.add(c[0] + " k=1: " + older);
            }
            if (c[4] != null && !searchBoth(store, scope, c[4], 10, null).get(0).equals("1")) {
                missed.add(c[0] + " control: the newer fact's own question");
            }
        }
        assertThat(missed).isEmpty();
    }
}
