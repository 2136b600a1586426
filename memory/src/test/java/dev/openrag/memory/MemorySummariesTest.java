package dev.openrag.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class MemorySummariesTest {

    private static final long MAY_8 = 1_683_554_160_000L; // 2023-05-08T13:56Z
    private static final long DAY = 86_400_000L;

    private static Memory turn(String id, String text, String speaker, long occurredAt) {
        return new Memory(id, "s", "[1:56 pm on 8 May, 2023] " + speaker + ": " + text, List.of(), false, 1, 1, null, null, null,
                List.of(), List.of(), occurredAt, speaker);
    }

    @Test
    void anEpisodeQuotesTheMemoriesThatShareItsDistinctiveWordsInTheOrderTheyHappened() {
        List<Memory> memories = new ArrayList<>(List.of(
                turn("a", "Hey! How have you been?", "Caroline", MAY_8),
                turn("b", "I signed up for a pottery class at the studio downtown.", "Melanie", MAY_8 + 1),
                turn("c", "Nice, a pottery class! Which studio?", "Caroline", MAY_8 + 2),
                turn("d", "The studio by the river; the pottery teacher is lovely.", "Melanie", MAY_8 + 3),
                turn("e", "Thanks, talk soon.", "Caroline", MAY_8 + 4),
                turn("f", "We went hiking and I took photos of the river.", "Melanie", MAY_8 + 40 * DAY),
                turn("g", "Hiking sounds fun; hiking is my favourite.", "Caroline", MAY_8 + 40 * DAY + 1)));
        List<MemorySummaries.Summary> summaries = MemorySummaries.of("s", memories);

        assertThat(summaries).extracting(MemorySummaries.Summary::id).containsExactly("s/summary/2023-05-08", "s/summary/2023-06-17",
                "s/summary/all");
        MemorySummaries.Summary may = summaries.get(0);
        assertThat(may.text()).isEqualTo("Summary of 2023-05-08: Caroline and Melanie, 5 memories."
                + " Melanie: I signed up for a pottery class at the studio downtown."
                + " Caroline: Nice, a pottery class! Which studio?"
                + " Melanie: The studio by the river; the pottery teacher is lovely."
                + " Key terms: pottery, studio, class.");
        assertThat(may.memoryIds()).containsExactly("a", "b", "c", "d", "e");
        assertThat(may.occurredAt()).isEqualTo(MAY_8 + 4);
        assertThat(summaries.get(2).text()).isEqualTo("Summary of all 7 memories, 2023-05-08 to 2023-06-17, on 2 days."
                + " Caroline (4). Melanie (3) talks about river, pottery, studio.");
        assertThat(MemorySummaries.of("s", memories)).as("deterministic").isEqualTo(summaries);

        // summaries already stored are never summed up again
        memories.add(summaries.get(0).memory("s", 5));
        assertThat(MemorySummaries.of("s", memories)).isEqualTo(summaries);
        assertThat(summaries.get(0).memory("s", 5).links()).extracting(Memory.Link::type).containsOnly(MemorySummaries.LINK);
        assertThat(MemorySummaries.of("s", List.of())).isEmpty();
    }

    @Test
    void longMemoriesAreCutAtAWordAndMemoriesWithoutSpeakerOrTimeAreSummedUpByTheirCreation() {
        String words = "word ".repeat(80).strip();
        Memory plain = new Memory("p", "s", words, List.of(), false, MAY_8, MAY_8, null, null, null, List.of(), List.of());
        MemorySummaries.Summary day = MemorySummaries.of("s", List.of(plain)).get(0);
        assertThat(day.text()).startsWith("Summary of 2023-05-08: 1 memory. word word").contains("…");
        assertThat(day.text().length()).isLessThan(260);
    }

    /** The key terms of the scope's summary of {@code texts}, written one a day, the first {@code sameDay} on one day. */
    private static List<String> keyTerms(int sameDay, String... texts) {
        List<Memory> memories = new ArrayList<>();
        for (int i = 0; i < texts.length; i++) {
            long at = MAY_8 + (i < sameDay ? 0 : i) * DAY + i;
            memories.add(new Memory("m" + i, "s", texts[i], List.of(), false, at, at, null, null, null, List.of(), List.of()));
        }
        List<MemorySummaries.Summary> summaries = MemorySummaries.of("s", memories);
        String text = summaries.get(summaries.size() - 1).text();
        int at = text.indexOf(" Key terms: ");
        return at < 0 ? List.of() : List.of(text.substring(at + " Key terms: ".length(), text.length() - 1).split(", "));
    }

    @Test
    void eachLanguagesStopWordsAreNoKeyTermsAndAWordInMoreThanHalfTheScopeOnSeveralDaysWeighsNothing() {
        // in each language: a filler in four of six memories on four days is no key term, a word two share is, stop words never are
        assertThat(keyTerms(0, "Honestly the weather was nice today.", "Honestly I loved the pottery class.",
                "The pottery teacher honestly knows everything.", "We honestly need more sleep.", "Dinner was late again.",
                "Tomorrow we drive north.")).containsExactly("pottery");
        assertThat(keyTerms(0, "Ehrlich, das Wetter war heute schön.", "Ehrlich, der Töpferkurs hat mir gefallen.",
                "Im Töpferkurs war die Lehrerin ehrlich nett.", "Wir brauchen ehrlich mehr Schlaf.", "Das Abendessen kam spät.",
                "Morgen fahren wir nach Norden.")).containsExactly("töpferkurs");
        assertThat(keyTerms(0, "Vale, hoy hizo buen tiempo.", "Vale, me encantó la clase de cerámica.",
                "La profesora de cerámica sabe mucho, vale.", "Necesitamos dormir más, vale.", "La cena llegó tarde.",
                "Mañana conducimos al norte.")).containsExactly("cerámica");
        assertThat(keyTerms(0, "Franchement, il faisait beau aujourd'hui.", "Franchement, j'ai adoré le cours de poterie.",
                "La prof de poterie sait tout, franchement.", "Nous devons franchement dormir davantage.", "Le dîner est arrivé tard.",
                "Demain nous roulons vers le nord.")).containsExactly("poterie");
        // Chinese in character pairs: the shared pair is a key term, the filler's pair in four of six is not
        assertThat(keyTerms(0, "其实今天天气很好。", "其实我很喜欢陶艺课。", "陶艺老师其实什么都懂。", "我们其实需要多睡觉。", "晚饭来得很晚。",
                "明天我们开车去北方。")).contains("陶艺").doesNotContain("其实");
        // controls: the same filler in two of six memories is as telling as any other shared word, and so is a word in
        // four of six memories on one day (that day's topic)
        assertThat(keyTerms(6, "Honestly the weather was nice today.", "Honestly I loved the pottery class.",
                "The pottery teacher honestly knows everything.", "We honestly need more sleep.", "Dinner was late again.",
                "Tomorrow we drive north.")).containsExactlyInAnyOrder("honestly", "pottery");
        assertThat(keyTerms(0, "Honestly the weather was nice today.", "Honestly I loved the pottery class.",
                "The pottery teacher knows everything.", "We need more sleep.", "Dinner was late again.", "Tomorrow we drive north."))
                .containsExactlyInAnyOrder("honestly", "pottery");
    }

    @Test
    void aSmallScopesSharedWordIsWhatItIsAboutNotHowItSpeaks() {
        // three memories on three days: a word two of them share is in more than half, yet too few hold it to be a filler
        assertThat(keyTerms(0, "I loved the pottery class.", "The pottery teacher knows everything.", "Dinner was late again."))
                .containsExactly("pottery");
        assertThat(keyTerms(0, "Mir hat der Töpferkurs gefallen.", "Im Töpferkurs war die Lehrerin nett.", "Das Abendessen kam spät."))
                .containsExactly("töpferkurs");
    }
}
