package dev.openrag.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.openrag.memory.StatedFacts.Fact;

/** Facts about people that hold one value at a time, read by rule, and which earlier memories a new one may replace. */
class StatedFactsTest {

    /** The people the scope of these examples knows: its speakers. */
    private static final StatedFacts.People PEOPLE = StatedFacts.People.of(List.of("Marguerite", "Alice Martin", "Jon", "Ann", "Priya"), null);

    private static List<String> facts(String text, String speaker) {
        return facts(text, speaker, PEOPLE);
    }

    private static List<String> facts(String text, String speaker, StatedFacts.People people) {
        return StatedFacts.of(text, speaker, people).stream()
                .map(f -> f.subject() + "|" + f.attribute() + "|" + f.value() + (f.ended() ? "|ended" : "")).toList();
    }

    private static List<String> replaced(Memory memory, List<Memory> earlier) {
        return FactChanges.byRules(memory, earlier, PEOPLE).stream().map(FactChanges.Suggestion::oldId).toList();
    }

    private static List<String> facts(String text) {
        return facts(text, null);
    }

    private static Memory memory(String id, String text, String speaker, long occurredAt) {
        return new Memory(id, "s", text, List.of(), false, 0, 0, null, null, null, List.of(), List.of(), occurredAt, speaker);
    }

    @Test
    void whereSomeoneLivesAndWorksSaidInTheWaysPeopleSayIt() {
        assertThat(facts("Marguerite lives in Lisbon")).containsExactly("marguerite|residence|lisbon");
        assertThat(facts("Marguerite moved to Porto last spring.")).containsExactly("marguerite|residence|porto");
        assertThat(facts("I've just relocated to New York City", "Jon")).containsExactly("jon|residence|new york city");
        assertThat(facts("[8 May, 2023] Caroline: I'm based in the UK now", "Caroline")).containsExactly("caroline|residence|uk");
        assertThat(facts("Now Alice Martin works at Bank of America in Charlotte")).as("where she works is not where she lives")
                .containsExactly("alice martin|employer|bank of america");
        assertThat(facts("The user works as a nurse at the county hospital")).containsExactly("user|job|nurse");
        assertThat(facts("I work as a software engineer", "Priya")).containsExactly("priya|job|software engineer");
    }

    @Test
    void possessionsAgeAndStatus() {
        assertThat(facts("My favourite colour is green, by the way", "Ann")).containsExactly("ann|favorite color|green");
        assertThat(facts("Ann's favorite food is now sushi")).containsExactly("ann|favorite food|sushi");
        assertThat(facts("my email address is ann@example.org", "Ann")).containsExactly("ann|email|ann@example.org");
        assertThat(facts("The user's time zone is CET")).containsExactly("user|time zone|cet");
        assertThat(facts("Jon's mobile is 555 0101 now")).containsExactly("jon|phone|555 0101");
        assertThat(facts("I just turned 31!", "Ann")).containsExactly("ann|age|31");
        assertThat(facts("Jon is 30 years old")).containsExactly("jon|age|30");
        assertThat(facts("I got married in June", "Ann")).containsExactly("ann|relationship status|married");
    }

    @Test
    void anEndedFactIsSaidWithNoLongerOrAnymore() {
        assertThat(facts("Marguerite no longer works at Acme")).containsExactly("marguerite|employer|acme|ended");
        assertThat(facts("I don't live in Lisbon anymore", "Jon")).containsExactly("jon|residence|lisbon|ended");
    }

    @Test
    void wishesPlansQuestionsPastStatesPronounsAndLowerCaseValuesStateNothing() {
        assertThat(facts("I want to live in Paris", "Ann")).isEmpty();
        assertThat(facts("If I moved to Porto, I would miss the sea", "Ann")).isEmpty();
        assertThat(facts("I'd love to work at Google someday", "Ann")).isEmpty();
        assertThat(facts("Do you live in Lisbon?", "Ann")).isEmpty();
        assertThat(facts("I lived in Paris for three years", "Ann")).isEmpty();
        assertThat(facts("I'm based in Berlin this week", "Ann")).as("a stay").isEmpty();
        assertThat(facts("Jon is working at Initech for the summer")).as("a stay").isEmpty();
        assertThat(facts("She lives in Madrid")).isEmpty();
        assertThat(facts("We moved to a new apartment", "Ann")).isEmpty();
        assertThat(facts("I moved to a bigger flat", "Ann")).isEmpty();
        assertThat(facts("Jon doesn't live in Leeds")).as("says what is not, ends nothing").isEmpty();
        assertThat(facts("I'm engaged in a big project", "Ann")).isEmpty();
        assertThat(facts("I am single-handedly running the bakery", "Ann")).isEmpty();
        assertThat(facts("My sister lives in Denver", "Ann")).isEmpty();
        assertThat(facts("Yesterday was fun")).isEmpty();
    }

    @Test
    void wordsBeforeAKnownNameAreNoPartOfItAndAConditionOpeningTheSentenceStillStatesNothing() {
        // no list of words that are no names: any capitalised word before a name the scope knows as a person
        for (String opening : List.of("Yesterday", "Apparently", "Honestly", "Finally", "Then")) {
            assertThat(facts(opening + " Marguerite moved to Porto.")).as(opening).containsExactly("marguerite|residence|porto");
        }
        // controls: a condition or a wish opening the sentence frames it, whatever stands between
        for (String opening : List.of("If", "Maybe", "Perhaps", "Unless")) {
            assertThat(facts(opening + " Marguerite moved to Madrid, she would be happier.")).as(opening).isEmpty();
        }
        assertThat(facts("If Marguerite moved to Madrid …")).isEmpty();
        // a pronoun or a name the scope does not know as a person is no one
        assertThat(facts("He moved to Porto.")).isEmpty();
        assertThat(facts("Then Nginx moved to Porto.")).isEmpty();
    }

    @Test
    void aValueOfFunctionWordsNamesNothingInTheTextsLanguage() {
        assertThat(facts("Priya works as a nurse.")).containsExactly("priya|job|nurse");
        // the value is a function word of the text's language: a pronoun, a demonstrative
        assertThat(facts("Priya works as this.")).isEmpty();
        assertThat(facts("Priya works as that, now.")).isEmpty();
        assertThat(facts("My phone number is it", "Ann")).isEmpty();
    }

    @Test
    void aNewValueReplacesTheOldAndTheSameValueOrAnotherFactDoesNot() {
        Memory lisbon = memory("lisbon", "Marguerite lives in Lisbon", null, 10);
        Memory tiles = memory("tiles", "Marguerite loves the blue tiles of Lisbon", null, 20);
        Memory acme = memory("acme", "I work at Acme", "Marguerite", 20);
        Memory jon = memory("jon", "Jon lives in Leeds", null, 20);
        List<Memory> earlier = List.of(lisbon, tiles, acme, jon);

        assertThat(replaced(memory("porto", "I moved to Porto", "Marguerite", 30), earlier))
                .as("the speaker's first person is the name written elsewhere").containsExactly("lisbon");
        assertThat(replaced(memory("again", "Marguerite lives in Lisbon, still", null, 30), earlier)).isEmpty();
        assertThat(replaced(memory("quit", "Marguerite no longer works at Acme", null, 30), earlier)).containsExactly("acme");
        assertThat(replaced(memory("quitOther", "Marguerite no longer works at Initech", null, 30), earlier)).isEmpty();
        assertThat(replaced(memory("old", "Marguerite moved to Braga", null, 5), earlier))
                .as("what happened before the old fact does not replace it").isEmpty();
        assertThat(replaced(memory("bread", "Marguerite bakes bread", null, 30), earlier)).isEmpty();
        assertThat(replaced(memory("green", "My favourite colour is green", "Ann", 30),
                List.of(memory("blue", "Ann's favorite color is blue", null, 10)))).as("British and American spelling").containsExactly("blue");
    }

    @Test
    void productsServicesAndToolsAreNoOnesSubject() {
        assertThat(facts("Nginx works as a reverse proxy in front of the billing service.")).isEmpty();
        assertThat(facts("Nginx works as a load balancer for the search API.")).isEmpty();
        assertThat(facts("Kafka lives in the platform namespace")).isEmpty();
        assertThat(facts("Postgres moved to Frankfurt")).isEmpty();
        assertThat(facts("Marguerite works as a baker")).as("a known person").containsExactly("marguerite|job|baker");
        assertThat(facts("Alice works at Acme")).as("the first name of a known person").containsExactly("alice|employer|acme");
    }

    @Test
    void aNameIsAPersonWhenTheScopeKnowsIt() {
        StatedFacts.People none = StatedFacts.People.NONE;
        assertThat(facts("Dana lives in Oslo", null, none)).as("nobody knows Dana").isEmpty();
        assertThat(facts("My sister Dana lives in Oslo", null, none)).as("introduced as a person").containsExactly("dana|residence|oslo");
        assertThat(facts("Dana lives in Oslo", "Dana", none)).as("the speaker").containsExactly("dana|residence|oslo");
        assertThat(facts("[8 May, 2023] Caroline: I moved to Boston", "Caroline", none)).as("the speaker field, its prefix stripped")
                .containsExactly("caroline|residence|boston");
    }

    @Test
    void aLeadingWordWithAColonIsNeverReadAsAPerson() {
        StatedFacts.People none = StatedFacts.People.NONE;
        for (String label : List.of("Update", "Note", "TODO", "Caroline", "Hinweis", "Nota", "Remarque")) {
            assertThat(facts(label + ": I moved to Boston", null, none)).as(label).containsExactly("i|residence|boston");
            assertThat(facts("[8 May, 2023] " + label + ": I moved to Boston", null, none)).as(label).containsExactly("i|residence|boston");
        }
        assertThat(facts("Caroline: I moved to Boston", "Caroline", none)).as("control: the speaker field names her")
                .containsExactly("caroline|residence|boston");
        assertThat(facts("Update: I moved to Boston", "Caroline", none)).as("a label before her words")
                .containsExactly("caroline|residence|boston");
    }

    @Test
    void aSpeakerlessIOfOneAuthorIsTheUserAndOfSeveralIsNobody() {
        assertThat(facts("I live in Lisbon and I prefer tabs over spaces.", null, StatedFacts.People.NONE))
                .containsExactly("i|residence|lisbon");
        StatedFacts.People several = StatedFacts.People.of(List.of("Ann", "Jon"), null);
        assertThat(several.severalAuthors()).isTrue();
        assertThat(facts("I live in Lisbon", null, several)).isEmpty();
        assertThat(facts("I live in Lisbon", "Ann", several)).containsExactly("ann|residence|lisbon");
    }

    @Test
    void replacesComparesOneSubjectsOneFact() {
        Fact lisbon = new Fact("ann", "residence", "lisbon", false);
        assertThat(StatedFacts.replaces(new Fact("ann", "residence", "porto", false), lisbon)).isTrue();
        assertThat(StatedFacts.replaces(new Fact("jon", "residence", "porto", false), lisbon)).isFalse();
        assertThat(StatedFacts.replaces(new Fact("ann", "employer", "porto", false), lisbon)).isFalse();
        assertThat(StatedFacts.replaces(new Fact("ann", "residence", "lisbon", true), lisbon)).isTrue();
        assertThat(StatedFacts.replaces(lisbon, new Fact("ann", "residence", "lisbon", true))).as("an ended fact holds no value").isFalse();
    }

    @Test
    void aHostileTextOfTheLongestAllowedIsReadQuickly() {
        String hostile = "Ann Bo Cy I'm just now still no longer living in Aa Bb Cc Dd of Ee ".repeat(16_000 / 68);
        String caps = "A".repeat(16_000);
        CpuBudget.assertWithin(Duration.ofSeconds(2), () -> {
            for (int i = 0; i < 20; i++) {
                StatedFacts.of(hostile, "Ann");
                StatedFacts.of(caps, null);
            }
        });
    }

    @Test
    void aQuestionIsToldByItsLastSentenceInAnyScript() {
        for (String asked : List.of("Where do you live?", "你住哪里？", "Где офис?", "¿Dónde vives?", "¿Cambié de dentista",
                "I moved. ¿Y tú", "Where is it? ", "أين تعيش؟", "What now?!")) {
            assertThat(StatedFacts.statesSomething(asked)).as(asked).isFalse();
        }
        // controls: a question before a statement asks nothing of it, whatever the script after the mark
        for (String stated : List.of("你住哪里？我住在北京。", "Где офис? Офис в Москве.", "¿Sabes qué? Me mudé a Madrid.",
                "Guess what? I moved to Lisbon.", "I live in Lisbon.", "我们的办公室搬到了杭州。")) {
            assertThat(StatedFacts.statesSomething(stated)).as(stated).isTrue();
        }
    }
}
