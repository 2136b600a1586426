package dev.openrag.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.time.Duration;
import java.time.Instant;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Time words in a question become a window, counted from the reference time. */
class TimeExpressionsTest {

    private static final long REFERENCE = Instant.parse("2023-06-14T10:00:00Z").toEpochMilli(); // a Wednesday

    private static String window(String question) {
        return TimeExpressions.window(question, REFERENCE)
                .map(w -> (w.openBefore() ? "open" : Instant.ofEpochMilli(w.from()).toString()) + ".."
                        + (w.openAfter() ? "open" : Instant.ofEpochMilli(w.to()).toString())).orElse("none");
    }

    @Test
    void monthsAndYearsNamedInTheQuestion() {
        assertThat(window("What did Maria donate in December 2023?")).isEqualTo("2023-12-01T00:00:00Z..2024-01-01T00:00:00Z");
        assertThat(window("what happened in Sep, 2022")).isEqualTo("2022-09-01T00:00:00Z..2022-10-01T00:00:00Z");
        assertThat(window("Where did they travel in 2022?")).isEqualTo("2022-01-01T00:00:00Z..2023-01-01T00:00:00Z");
    }

    @Test
    void daysInTheWaysPeopleWriteThem() {
        assertThat(window("What exciting news did Maria share on 16 June, 2023?")).isEqualTo("2023-06-16T00:00:00Z..2023-06-17T00:00:00Z");
        assertThat(window("what happened on June 16th 2023")).isEqualTo("2023-06-16T00:00:00Z..2023-06-17T00:00:00Z");
        assertThat(window("on the 3rd of Sep. 2022")).isEqualTo("2022-09-03T00:00:00Z..2022-09-04T00:00:00Z");
        assertThat(window("the deploy of 2023-06-16")).isEqualTo("2023-06-16T00:00:00Z..2023-06-17T00:00:00Z");
    }

    @Test
    void aDayOrAMonthWithItsYearIsReadInEachLanguageAsItsLocaleWritesIt() {
        String may16 = "2023-05-16T00:00:00Z..2023-05-17T00:00:00Z";
        String september = "2022-09-01T00:00:00Z..2022-10-01T00:00:00Z";
        assertThat(window("Was ist am 16. Mai 2023 passiert?")).isEqualTo(may16);
        assertThat(window("Was haben wir im september 2022 gemacht?")).as("any case").isEqualTo(september);
        assertThat(window("¿Qué pasó el 16 de mayo de 2023?")).isEqualTo(may16);
        assertThat(window("¿Adónde viajamos en septiembre de 2022?")).isEqualTo(september);
        assertThat(window("Qu'avons-nous fait le 16 mai 2023 ?")).isEqualTo(may16);
        assertThat(window("Où étions-nous en septembre 2022 ?")).isEqualTo(september);
        assertThat(window("我们2023年5月16日做了什么？")).isEqualTo(may16);
        assertThat(window("我们在2022年9月去了哪里？")).isEqualTo(september);
        assertThat(window("Was war vor dem 16. Mai 2023?")).as("relations are read in English only: the day itself").isEqualTo(may16);
        assertThat(window("am 31. Februar 2023")).as("a day the month lacks is its month").isEqualTo("2023-02-01T00:00:00Z..2023-03-01T00:00:00Z");
        // controls: a month without its year, a number that is no year, a month's name that is another word
        assertThat(window("¿Qué pasó el 16 de mayo?")).isEqualTo("none");
        assertThat(window("Zimmer 16 im Mai 20234")).isEqualTo("none");
        assertThat(window("room 2023 on the third floor")).isEqualTo("none");
    }

    @Test
    void aMonthsNameIsReadInTheTextsOwnLanguageOnly() {
        String march2020 = "2020-03-01T00:00:00Z..2020-04-01T00:00:00Z";
        String april2023 = "2023-04-01T00:00:00Z..2023-05-01T00:00:00Z";
        String january2023 = "2023-01-01T00:00:00Z..2023-02-01T00:00:00Z";
        // a month's name in another language is a word of this one: a planet, a singer, a person
        assertThat(window("We watched the documentary about Mars 2020 with the kids.")).isNotEqualTo(march2020);
        assertThat(window("We bought tickets for the Avril 2023 tour.")).isNotEqualTo(april2023);
        assertThat(window("Was hat Jan 2023 gemacht?")).isNotEqualTo(january2023);
        assertThat(window("¿Qué hizo Jan en el verano?")).isEqualTo("none");
        // controls: the same names in their own language are months
        assertThat(window("Nous avons déménagé en mars 2020.")).isEqualTo(march2020);
        assertThat(window("Qu'avons-nous fait en Mars 2020 ?")).isEqualTo(march2020);
        assertThat(window("Nous sommes partis en avril 2023.")).isEqualTo(april2023);
        assertThat(window("What did we do in Jan 2023?")).isEqualTo(january2023);
        assertThat(window("Nos mudamos en marzo de 2020.")).isEqualTo(march2020);
        assertThat(window("Wir sind im März 2020 umgezogen.")).isEqualTo(march2020);
        assertThat(window("我们2020年3月搬家了。")).isEqualTo(march2020);
        assertThat(window("Mars 2020")).as("no function word: any of the languages").isEqualTo(march2020);
    }

    @Test
    void aDayThatDoesNotExistIsReadAsItsMonthAndANonsenseIsoDateAsNothing() {
        assertThat(window("what did we plan on 31 February, 2023")).isEqualTo("2023-02-01T00:00:00Z..2023-03-01T00:00:00Z");
        assertThat(window("ticket 2023-13-45")).isEqualTo("none");
        assertThat(window("ticket 2023-02-30")).isEqualTo("2023-02-01T00:00:00Z..2023-03-01T00:00:00Z");
    }

    @Test
    void aNumericMonthOrDayOutOfRangeInAnyLanguageIsNoDateAndNoFailure() {
        for (String text : List.of("2023年13月的会议", "2023年0月", "2023年5月40日的会议", "am 40. Mai 2023", "le 45 mai 2023")) {
            assertThat(window(text)).as(text).isIn("none", "2023-05-01T00:00:00Z..2023-06-01T00:00:00Z");
        }
        assertThatCode(() -> window("2023年-5月")).doesNotThrowAnyException();
        // the control: the same shapes in range are dates
        assertThat(window("2023年12月的会议")).isEqualTo("2023-12-01T00:00:00Z..2024-01-01T00:00:00Z");
    }

    @Test
    void relativeWordsCountFromTheReference() {
        assertThat(window("what did I eat yesterday")).isEqualTo("2023-06-13T00:00:00Z..2023-06-14T00:00:00Z");
        assertThat(window("plans made last week")).isEqualTo("2023-06-05T00:00:00Z..2023-06-12T00:00:00Z");
        assertThat(window("the trip last month")).isEqualTo("2023-05-01T00:00:00Z..2023-06-01T00:00:00Z");
        assertThat(window("what was bought 2 days ago")).isEqualTo("2023-06-12T00:00:00Z..2023-06-13T00:00:00Z");
    }

    @Test
    void timesBeforeAndAfterADateAreOpenOnTheOtherSide() {
        assertThat(window("What did Caroline do before May 2023?")).isEqualTo("open..2023-05-01T00:00:00Z");
        assertThat(window("what happened after 16 June, 2023")).isEqualTo("2023-06-17T00:00:00Z..open");
        assertThat(window("everything since 2020")).isEqualTo("2020-01-01T00:00:00Z..open");
        assertThat(window("plans made prior to June 3rd 2023")).isEqualTo("open..2023-06-03T00:00:00Z");
    }

    @Test
    void aStretchBeforeADateReachesThroughThatDate() {
        // what was said on 3 August about the week before it answers "the week before 3 August"
        assertThat(window("What did John do the week before August 3, 2023 involving his kids?"))
                .isEqualTo("2023-07-27T00:00:00Z..2023-08-04T00:00:00Z");
        assertThat(window("the name of the puppy she got two weeks before August 11, 2023"))
                .isEqualTo("2023-07-21T00:00:00Z..2023-08-12T00:00:00Z");
        assertThat(window("What did Maria do last weekend before April 10, 2023?")).isEqualTo("2023-04-03T00:00:00Z..2023-04-11T00:00:00Z");
        assertThat(window("shown on the big screen on the Sunday before October 25, 2022")) // a Tuesday
                .isEqualTo("2022-10-23T00:00:00Z..2022-10-26T00:00:00Z");
        assertThat(window("the month after March 2023")).isEqualTo("2023-03-01T00:00:00Z..2023-05-01T00:00:00Z");
    }

    @Test
    void aCommaWithoutASpaceStillEndsTheDay() {
        assertThat(window("Where was the forest picture shared by John on December 1,2023 taken?"))
                .isEqualTo("2023-12-01T00:00:00Z..2023-12-02T00:00:00Z");
        assertThat(window("what we did on 16 June,2023")).isEqualTo("2023-06-16T00:00:00Z..2023-06-17T00:00:00Z");
    }

    @Test
    void aMonthWithoutItsYearIsTheLastOneBegunByTheReference() {
        assertThat(window("When did Melanie go camping in June?")).isEqualTo("2023-06-01T00:00:00Z..2023-07-01T00:00:00Z");
        assertThat(window("When did Caroline attend a pride parade in August?")).isEqualTo("2022-08-01T00:00:00Z..2022-09-01T00:00:00Z");
        assertThat(window("What kind of deal did John get during Dec")).isEqualTo("2022-12-01T00:00:00Z..2023-01-01T00:00:00Z");
        // without "in" or "during", May is as often the verb
        assertThat(window("May I ask what the plan is?")).isEqualTo("none");
    }

    @Test
    void aPartOfAMonthIsItsWeekHalfOrThird() {
        assertThat(window("Which tournament did Nate win in the beginning of November 2022?"))
                .isEqualTo("2022-11-01T00:00:00Z..2022-11-11T00:00:00Z");
        assertThat(window("Was the first half of September 2022 a good month?")).isEqualTo("2022-09-01T00:00:00Z..2022-09-16T00:00:00Z");
        assertThat(window("mid-June 2023")).isEqualTo("2023-06-11T00:00:00Z..2023-06-21T00:00:00Z");
        assertThat(window("late February 2024")).isEqualTo("2024-02-21T00:00:00Z..2024-03-01T00:00:00Z");
        assertThat(window("at the end of May, 2023")).isEqualTo("2023-05-21T00:00:00Z..2023-06-01T00:00:00Z");
        assertThat(window("the last week of June 2023")).isEqualTo("2023-06-24T00:00:00Z..2023-07-01T00:00:00Z");
        // without its year, the last such month begun by the reference (14 June 2023); "the last week of May" is not "last week"
        assertThat(window("Which country was Tim visiting in the second week of November?"))
                .isEqualTo("2022-11-08T00:00:00Z..2022-11-15T00:00:00Z");
        assertThat(window("the last week of May")).isEqualTo("2023-05-25T00:00:00Z..2023-06-01T00:00:00Z");
        assertThat(window("early June")).isEqualTo("2023-06-01T00:00:00Z..2023-06-11T00:00:00Z");
        // a part of a month is a date to relations and ranges too
        assertThat(window("What did Maria do before the end of May 2023?")).isEqualTo("open..2023-05-21T00:00:00Z");
        assertThat(window("from early May to late June 2023")).isEqualTo("2023-05-01T00:00:00Z..2023-07-01T00:00:00Z");
        assertThat(window("what did we buy after mid-May?")).isEqualTo("2023-05-21T00:00:00Z..open");
        assertThat(TimeExpressions.anchor("what did we buy after mid-May?")).as("a date, not an event").isEmpty();
        // no month, no part of one
        assertThat(window("the end of the day")).isEqualTo("none");
        assertThat(window("mid-range phones for early adopters")).isEqualTo("none");
        assertThat(window("the second half of the game in May 2023")).isEqualTo("2023-05-01T00:00:00Z..2023-06-01T00:00:00Z");
    }

    @Test
    void seasonsWithTheirYearOrCountedFromTheReference() {
        assertThat(window("What state did Joanna visit in summer 2021?")).isEqualTo("2021-06-01T00:00:00Z..2021-09-01T00:00:00Z");
        assertThat(window("the trip in the fall of 2022")).isEqualTo("2022-09-01T00:00:00Z..2022-12-01T00:00:00Z");
        // the reference, 14 June 2023, is in a summer: the last one over is 2022's
        assertThat(window("What did John and Max enjoy together last summer?")).isEqualTo("2022-06-01T00:00:00Z..2022-09-01T00:00:00Z");
        assertThat(window("last spring")).isEqualTo("2023-03-01T00:00:00Z..2023-06-01T00:00:00Z");
        assertThat(window("a pride parade during the summer")).isEqualTo("2023-06-01T00:00:00Z..2023-09-01T00:00:00Z");
        assertThat(window("plans for this winter")).isEqualTo("2023-12-01T00:00:00Z..2024-03-01T00:00:00Z");
        assertThat(TimeExpressions.window("this winter", Instant.parse("2024-01-10T12:00:00Z").toEpochMilli()).orElseThrow().from())
                .as("in January, the winter it is in").isEqualTo(Instant.parse("2023-12-01T00:00:00Z").toEpochMilli());
        // a season without its year gives way to a date: "the summer" of 2023 is not the one before the reference
        assertThat(window("what we did in the summer, on 3 July 2022")).isEqualTo("2022-07-03T00:00:00Z..2022-07-04T00:00:00Z");
        // no season: a verb, a dish, a fall that is no time, a winter whose year could mean two
        assertThat(window("I fall asleep early")).isEqualTo("none");
        assertThat(window("she made spring rolls")).isEqualTo("none");
        assertThat(window("a book on the fall of Rome")).isEqualTo("none");
        assertThat(window("the winter 2022 holidays")).isEqualTo("none");
    }

    @Test
    void aRangeRunsFromItsFirstDateThroughItsSecond() {
        assertThat(window("Where was John between August 11 and August 15 2023?")).isEqualTo("2023-08-11T00:00:00Z..2023-08-16T00:00:00Z");
        assertThat(window("what happened between 11 and 15 August 2023")).isEqualTo("2023-08-11T00:00:00Z..2023-08-16T00:00:00Z");
        assertThat(window("her trips from May to July 2023")).isEqualTo("2023-05-01T00:00:00Z..2023-08-01T00:00:00Z");
        assertThat(window("from 3 May 2023 until 2023-05-10")).isEqualTo("2023-05-03T00:00:00Z..2023-05-11T00:00:00Z");
        assertThat(window("where did we live from 2020 to 2022")).isEqualTo("2020-01-01T00:00:00Z..2023-01-01T00:00:00Z");
        assertThat(window("from December 2022 through February 2023")).isEqualTo("2022-12-01T00:00:00Z..2023-03-01T00:00:00Z");
    }

    @Test
    void whatOnlyLooksLikeARangeIsReadAsBefore() {
        // the second end is no date: the date in the sentence stands alone
        assertThat(window("the flight from Paris to Rome in May 2023")).isEqualTo("2023-05-01T00:00:00Z..2023-06-01T00:00:00Z");
        // a number before a year is no day of it, and a range that ends before it begins is none
        assertThat(window("between 10 and 2000 people came")).isEqualTo("none");
        assertThat(window("from 15 August 2023 to 11 August 2023")).isEqualTo("2023-08-15T00:00:00Z..2023-08-16T00:00:00Z");
        assertThat(window("What is the topic of discussion between John and Tim on 11 December, 2023?"))
                .isEqualTo("2023-12-11T00:00:00Z..2023-12-12T00:00:00Z");
        // "between" far from its link word is no range
        assertThat(window("between the two of us and everyone we met on 3 May 2023")).isEqualTo("2023-05-03T00:00:00Z..2023-05-04T00:00:00Z");
    }

    @Test
    void thisAndLastWeekendCountFromTheReference() {
        assertThat(window("what did we do last weekend")).isEqualTo("2023-06-10T00:00:00Z..2023-06-12T00:00:00Z");
        assertThat(TimeExpressions.window("last weekend", Instant.parse("2023-06-18T12:00:00Z").toEpochMilli()).orElseThrow().from())
                .as("on a Sunday, the weekend before").isEqualTo(Instant.parse("2023-06-10T00:00:00Z").toEpochMilli());
        assertThat(window("the budget this month")).isEqualTo("2023-06-01T00:00:00Z..2023-07-01T00:00:00Z");
        assertThat(window("meetings this week")).isEqualTo("2023-06-12T00:00:00Z..2023-06-19T00:00:00Z");
    }

    @Test
    void anEventAQuestionIsDatedByIsNamedAndItsDayBelongsToBothSides() {
        assertThat(TimeExpressions.anchor("What did we plan before the wedding?"))
                .contains(new TimeExpressions.Anchor("wedding", true));
        assertThat(TimeExpressions.anchor("When did Melanie go on a hike after the roadtrip?"))
                .contains(new TimeExpressions.Anchor("roadtrip", false));
        assertThat(TimeExpressions.anchor("How has John's fitness improved since starting boot camps with his family?"))
                .contains(new TimeExpressions.Anchor("starting boot camps with his family", false));
        assertThat(TimeExpressions.anchor("Why did John join after the visit to the hospital, and when?"))
                .contains(new TimeExpressions.Anchor("visit to the hospital", false));

        long wedding = Instant.parse("2023-06-10T15:30:00Z").toEpochMilli();
        TimeExpressions.Window before = new TimeExpressions.Anchor("wedding", true).around(wedding);
        assertThat(before.openBefore()).isTrue();
        assertThat(Instant.ofEpochMilli(before.to())).isEqualTo(Instant.parse("2023-06-11T00:00:00Z"));
        TimeExpressions.Window after = new TimeExpressions.Anchor("wedding", false).around(wedding);
        assertThat(Instant.ofEpochMilli(after.from())).isEqualTo(Instant.parse("2023-06-10T00:00:00Z"));
        assertThat(after.openAfter()).isTrue();
    }

    @Test
    void noEventAfterADateAQuestionWordOrAPronoun() {
        assertThat(TimeExpressions.anchor("what happened before May 2023")).isEmpty();
        assertThat(TimeExpressions.anchor("After how many weeks did Tim reconnect with his friend?")).isEmpty();
        assertThat(TimeExpressions.anchor("what did we decide after that?")).isEmpty();
        assertThat(TimeExpressions.anchor("it was fine after all")).isEmpty();
        assertThat(TimeExpressions.anchor("have we met before?")).isEmpty();
        assertThat(TimeExpressions.anchor("Is the puppy named after her grandmother?")).isEmpty();
        assertThat(TimeExpressions.anchor("Who looks after the turtles while Nate travels?")).isEmpty();
        assertThat(TimeExpressions.anchor("She takes after her mother")).isEmpty();
        // a possessive is not the pronoun: "after her setback" names the setback, "after her" nothing
        assertThat(TimeExpressions.anchor("What encouragement does Nate give Joanna after her setback?"))
                .contains(new TimeExpressions.Anchor("setback", false));
        assertThat(TimeExpressions.anchor("he called right after her.")).isEmpty();
        assertThat(TimeExpressions.anchor("What did Jean go through before meeting Maria?"))
                .contains(new TimeExpressions.Anchor("meeting Maria", true));
    }

    @Test
    void aLongQueryFullOfRelationsIsReadWithoutBacktrackingOrCopying() {
        // a stranger's query of MCP's maximum length, a relation every few words: read in well under the guard's time
        String hostile = "after the week before since 2 ".repeat(16_000 / 30);
        String ranges = "from 1 and between 12 to from ".repeat(16_000 / 30);
        String froms = "from ".repeat(16_000 / 5);
        String seasons = "spring fall in the ".repeat(16_000 / 19);
        String parts = "the end of the first week of mid-".repeat(16_000 / 33);
        String datedParts = "after mid-May and early June ".repeat(16_000 / 29);
        CpuBudget.assertWithin(Duration.ofSeconds(2), () -> {
            for (int i = 0; i < 5; i++) {
                TimeExpressions.window(hostile, REFERENCE);
                TimeExpressions.anchor(hostile);
                TimeExpressions.window(ranges, REFERENCE);
                TimeExpressions.window(froms, REFERENCE);
                TimeExpressions.window(seasons, REFERENCE);
                TimeExpressions.window(parts, REFERENCE);
                TimeExpressions.anchor(parts);
                TimeExpressions.window(datedParts, REFERENCE);
                TimeExpressions.anchor(datedParts);
            }
        });
    }

    @Test
    void noTimeWordsNoWindow() {
        assertThat(window("What may Caroline pursue in her education?")).isEqualTo("none");
        assertThat(window("the event of the weekend")).isEqualTo("none");
        assertThat(window("the wedding before the move")).isEqualTo("none");
        assertThat(window("room 2023 on the third floor")).isEqualTo("none");
    }
}
