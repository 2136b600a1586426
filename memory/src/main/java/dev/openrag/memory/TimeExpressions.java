package dev.openrag.memory;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.Month;
import java.time.Period;
import java.time.ZoneOffset;
import java.text.ParsePosition;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.TextStyle;
import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The time a question is about, from the words in it, against a reference time: a day ("on 16 June,
 * 2023", "June 16th 2023", "2023-06-16"), "in May 2023", "May, 2023", "in 2022", "yesterday",
 * "today", "last week|weekend|month|year", "this week|month|year", "3 days|weeks|months ago". A day
 * that does not exist ("31 February 2023") is read as its month. A part of a month ("the second week of
 * November", "the first half of September 2022", "mid-June 2023", "the end of May") is its week, half or
 * third ({@link #PART_OF_MONTH}).
 * <p>
 * Times before or after a date: "before May 2023" and "until …" end where that date begins, "after …"
 * begins where it ends, "since …" where it begins; the other end is open. A stretch before a date
 * ("the week before 3 August, 2023", "two weeks before …", "the Sunday before …") reaches through
 * that date, and one after a date starts on it: a memory's time is often when something was told,
 * and a question dated by a conversation ("the week before 3 August") is answered by what was said
 * on that day about the days before it.
 * <p>
 * A range between two dates ("between August 11 and August 15 2023", "from May to July 2023",
 * "between 11 and 15 August 2023", "from 2020 to 2022") runs from the first through the second; the first
 * may leave out what the second says (its year, or its month and year).
 * <p>
 * Times before or after an event ("before the wedding", "after the road trip"): {@link #anchor}
 * names the event; the caller finds when it happened (the scope's best memory for those words) and
 * {@link Anchor#around} turns that time into a window, the event's own day on both sides of it.
 * <p>
 * A day or a month with its year written in German, Spanish, French or Chinese ("am 16. Mai 2023", "en mayo de
 * 2023", "le 3 mars 2022", "2023年5月16日") is read as its locale writes one ({@link #DATE_LANGUAGES}: java.time's CLDR
 * patterns, no names typed here); the relations, ranges, parts of months, seasons and relative words above are English.
 * A month's name is read in the text's own language only ({@link MemoryWords}: "Mars 2020" is March in a French text,
 * the planet in an English one; "Jan 2023" in a German text is a person's name); a text without function words ("Mai
 * 2023") may be in any of them.
 * <p>
 * Dates are read in UTC; the first expression found wins; anything else is no window at all
 * (rules, offline: an LLM resolver can come with the model providers).
 */
public final class TimeExpressions {

    /** {@code [from, to)} in epoch milliseconds; an open end is {@link Long#MIN_VALUE} or {@link Long#MAX_VALUE}. */
    public record Window(long from, long to) {

        public boolean openBefore() {
            return from == Long.MIN_VALUE;
        }

        public boolean openAfter() {
            return to == Long.MAX_VALUE;
        }
    }

    /** An event a question dates itself by: what happened {@code before} it, or after (or since) it. */
    public record Anchor(String event, boolean before) {

        /** The window on this side of the event, which happened at {@code happenedAt} (epoch ms): its day belongs to both sides. */
        public Window around(long happenedAt) {
            LocalDate day = LocalDate.ofEpochDay(Math.floorDiv(happenedAt, 86_400_000L));
            return before ? new Window(Long.MIN_VALUE, millis(day.plusDays(1))) : new Window(millis(day), Long.MAX_VALUE);
        }
    }

    private static final String MONTHS = monthAlternatives();
    /** What may stand between a day or month and its year: a comma, spaces or both ("December 1,2023"). */
    private static final String BEFORE_YEAR = "(?:,\\s*|\\s+)";
    private static final Pattern DAY_MONTH_YEAR = Pattern.compile("\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(" + MONTHS
            + ")\\.?" + BEFORE_YEAR + "(\\d{4})\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern MONTH_DAY_YEAR = Pattern.compile("\\b(" + MONTHS + ")\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?" + BEFORE_YEAR
            + "(\\d{4})\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern ISO_DATE = Pattern.compile("\\b(\\d{4})-(\\d{2})-(\\d{2})\\b");
    private static final Pattern MONTH_YEAR = Pattern.compile("\\b(" + MONTHS + ")\\.?,?\\s+(\\d{4})\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern YEAR = Pattern.compile("\\b(?:in|during|of)\\s+(\\d{4})\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern AGO = Pattern.compile("\\b(\\d{1,3}|a|one|two|three)\\s+(day|week|month|year)s?\\s+ago\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern LAST = Pattern.compile("\\blast\\s+(week|month|year)\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern DAY = Pattern.compile("\\b(yesterday|today)\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern LAST_WEEKEND = Pattern.compile("\\blast\\s+weekend\\b", Pattern.CASE_INSENSITIVE);
    /**
     * A part of a month, its year optional: "the second week of November", "the first half of September 2022", "the end of
     * May 2023", "early June", "mid-June 2023". Weeks are the month's days 1-7, 8-14, 15-21 and 22-28, "the last week" its
     * last seven; halves its days 1-15 and the rest; "beginning", "start" and "early" its first ten days, "middle" and "mid"
     * the next ten, "end" and "late" the rest.
     */
    private static final Pattern PART_OF_MONTH = Pattern.compile("\\b(?:the\\s+)?(?:(?:(first|second|third|fourth|last)\\s+week"
            + "|(first|second)\\s+half|(beginning|start|middle|end))\\s+of\\s+|(early|mid|late)(?:\\s+|-))(" + MONTHS + ")\\b"
            + "(?:" + BEFORE_YEAR + "((?:19|20)\\d{2})\\b)?", Pattern.CASE_INSENSITIVE);
    private static final List<String> WEEKS = List.of("first", "second", "third", "fourth");
    /** A month without its year, after "in" or "during" (a bare "May" is as often the verb). */
    private static final Pattern MONTH_ALONE = Pattern.compile("\\b(?:in|during)\\s+(" + MONTHS + ")\\b", Pattern.CASE_INSENSITIVE);
    /** A season with its year, or counted from the reference ("last summer", "during the summer"); "the fall of Rome" is none. */
    private static final Pattern SEASON = Pattern.compile("\\b(?:(last|this)\\s+|(?:in|during)\\s+(?:the\\s+)?)?(spring|summer|autumn|fall|winter)"
            + "(?:\\s+(?:of\\s+)?((?:19|20)\\d{2}))?\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern THIS = Pattern.compile("\\bthis\\s+(week|month|year)\\b", Pattern.CASE_INSENSITIVE);
    /** Where a time before or after something begins: the word, then the date or the event. */
    private static final Pattern RELATION = Pattern.compile("\\b(before|until|prior\\s+to|after|since)\\s+", Pattern.CASE_INSENSITIVE);
    /** Where a range begins: "between" or "from", then its first date. */
    private static final Pattern RANGE_START = Pattern.compile("\\b(between|from)\\s+", Pattern.CASE_INSENSITIVE);
    /** The word between a range's two dates, and how far after the range's start it may stand ("the 11th of September "). */
    private static final Pattern RANGE_LINK = Pattern.compile("\\s+(?:and|to|until|till|through)\\s+", Pattern.CASE_INSENSITIVE);
    private static final int RANGE_FIRST_DATE_CHARS = 24;
    private static final Pattern DAY_NUMBER = Pattern.compile("(\\d{1,2})(?:st|nd|rd|th)?");
    private static final Pattern BARE_YEAR = Pattern.compile("((?:19|20)\\d{2})\\b");
    /** The stretch a relation's date is counted from, just before the relation's word. */
    private static final Pattern STRETCH = Pattern.compile("\\b(?:(?:the|last)\\s+(week|weekend|month)|(\\d{1,3}|a|one|two|three)\\s+(day|week|month)s?"
            + "|the\\s+(" + weekdayAlternatives() + "))\\s+$", Pattern.CASE_INSENSITIVE);
    /** Enough characters before a relation for the words that qualify it ("the Wednesday ", "three months ", "named "). */
    private static final int QUALIFIER_CHARS = 24;
    /** An event's words: up to six, to the end of the clause. */
    private static final Pattern EVENT = Pattern.compile("([\\p{L}\\p{N}'’-]+(?:\\s+[\\p{L}\\p{N}'’-]+){0,5})");
    /** Words after "before" or "after" that name no event: a question word, a pronoun, "all". */
    private static final Set<String> NO_EVENT = Set.of("how", "what", "which", "when", "where", "who", "whom",
            "why", "that", "this", "these", "those", "then", "it", "all", "them", "him", "her", "me", "us", "you", "i", "we", "they",
            "he", "she", "now", "long", "each", "every", "yesterday", "today", "tomorrow");
    /** Words that make "after" no time: "named after", "looks after", "takes after". */
    private static final Pattern NOT_A_TIME = Pattern.compile("\\b(?:named|called|look(?:s|ed|ing)?|take(?:s|n)?|took|taking)\\s+$",
            Pattern.CASE_INSENSITIVE);
    private static final Set<String> DETERMINERS = Set.of("the", "a", "an", "my", "his", "her", "their", "our",
            "your", "its");

    /**
     * The languages whose written dates are read as CLDR writes them ({@link #LOCALIZED_DAYS}): the English patterns above
     * read more ways of writing an English date ("the 3rd of Sep."); relative words ("yesterday", "last week") are English.
     */
    static final List<Locale> DATE_LANGUAGES = List.of(Locale.ENGLISH, Locale.GERMAN, Locale.forLanguageTag("es"), Locale.FRENCH,
            Locale.CHINESE);
    /**
     * A day with its month and year in each of {@link #DATE_LANGUAGES}, as its locale writes one, month names full or short
     * ("16. Mai 2023", "16 de mayo de 2023", "16 mai 2023", "2023年5月16日"): java.time's localized patterns (CLDR's
     * skeletons {@code yMMMMd}, {@code yMMMd}), so no month name or word between is typed here. Any case.
     */
    private static final Map<Locale, List<DateTimeFormatter>> LOCALIZED_DAYS = localized("yMMMMd", "yMMMd");
    /** A month and its year in each of those languages ("Mai 2023", "mayo de 2023", "2023年5月"). */
    private static final Map<Locale, List<DateTimeFormatter>> LOCALIZED_MONTHS = localized("yMMMM", "yMMM");
    /** The locale of each of {@link #DATE_LANGUAGES} as {@link MemoryWords} tells a text's language. */
    private static final Map<MemoryWords.Language, Locale> LOCALES = Map.of(MemoryWords.Language.ENGLISH, Locale.ENGLISH,
            MemoryWords.Language.GERMAN, Locale.GERMAN, MemoryWords.Language.SPANISH, Locale.forLanguageTag("es"),
            MemoryWords.Language.FRENCH, Locale.FRENCH, MemoryWords.Language.CJK, Locale.CHINESE);

    private TimeExpressions() {
    }

    public static Optional<Window> window(String text, long referenceMillis) {
        LocalDate today = LocalDate.ofEpochDay(Math.floorDiv(referenceMillis, 86_400_000L));
        Optional<Window> range = range(text);
        if (range.isPresent()) {
            return range;
        }
        Optional<Window> relative = relativeToADate(text, today);
        if (relative.isPresent()) {
            return relative;
        }
        // before the dates: "the fall of 2022" is a season, not the year "of 2022"
        Optional<Window> season = season(text, today, true);
        if (season.isPresent()) {
            return season;
        }
        Optional<Window> named = date(text);
        if (named.isPresent()) {
            return named;
        }
        // before "last week": "the last week of June" is a part of June
        Matcher m = PART_OF_MONTH.matcher(text);
        if (m.find()) {
            return Optional.of(partOfMonth(m, today));
        }
        m = DAY.matcher(text);
        if (m.find()) {
            LocalDate day = m.group(1).equalsIgnoreCase("yesterday") ? today.minusDays(1) : today;
            return Optional.of(window(day, day.plusDays(1)));
        }
        m = LAST_WEEKEND.matcher(text);
        if (m.find()) {
            // the last Saturday and Sunday that are over: on a Sunday, the weekend before this one
            LocalDate saturday = today.with(TemporalAdjusters.previous(DayOfWeek.SATURDAY));
            if (today.getDayOfWeek() == DayOfWeek.SUNDAY) {
                saturday = saturday.minusWeeks(1);
            }
            return Optional.of(window(saturday, saturday.plusDays(2)));
        }
        m = THIS.matcher(text);
        if (m.find()) {
            return Optional.of(switch (m.group(1).toLowerCase(Locale.ROOT)) {
                case "week" -> {
                    LocalDate monday = today.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
                    yield window(monday, monday.plusWeeks(1));
                }
                case "month" -> window(today.withDayOfMonth(1), today.withDayOfMonth(1).plusMonths(1));
                default -> window(today.withDayOfYear(1), today.withDayOfYear(1).plusYears(1));
            });
        }
        m = LAST.matcher(text);
        if (m.find()) {
            return Optional.of(switch (m.group(1).toLowerCase(Locale.ROOT)) {
                case "week" -> {
                    LocalDate monday = today.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY)).minusWeeks(1);
                    yield window(monday, monday.plusWeeks(1));
                }
                case "month" -> window(today.withDayOfMonth(1).minusMonths(1), today.withDayOfMonth(1));
                default -> window(today.withDayOfYear(1).minusYears(1), today.withDayOfYear(1));
            });
        }
        m = AGO.matcher(text);
        if (m.find()) {
            int n = count(m.group(1));
            // "3 weeks ago": the week around that day, not the instant
            return Optional.of(switch (m.group(2).toLowerCase(Locale.ROOT)) {
                case "day" -> window(today.minusDays(n), today.minusDays(n - 1L));
                case "week" -> window(today.minusWeeks(n).minusDays(3), today.minusWeeks(n).plusDays(4));
                case "month" -> window(today.minusMonths(n).withDayOfMonth(1), today.minusMonths(n).withDayOfMonth(1).plusMonths(1));
                default -> window(today.minusYears(n).withDayOfYear(1), today.minusYears(n).withDayOfYear(1).plusYears(1));
            });
        }
        m = MONTH_ALONE.matcher(text);
        if (m.find()) {
            LocalDate first = lastBegun(month(m.group(1)), today);
            return Optional.of(window(first, first.plusMonths(1)));
        }
        return season(text, today, false);
    }

    /** A part of a month that starts at {@code start}, without its year too ("before the end of May"). */
    private static Optional<Window> partOfMonthAt(String text, int start, LocalDate today) {
        Matcher m = PART_OF_MONTH.matcher(text).region(start, text.length());
        return m.lookingAt() ? Optional.of(partOfMonth(m, today)) : Optional.empty();
    }

    /** The first day of the last such month begun by the reference: "in June" asked in May is last year's. */
    private static LocalDate lastBegun(Month month, LocalDate today) {
        LocalDate first = LocalDate.of(today.getYear(), month, 1);
        return first.isAfter(today) ? first.minusYears(1) : first;
    }

    /**
     * The part of a month that {@link #PART_OF_MONTH}'s match names: of its year's month, else of the last such month
     * begun by {@code today} (a match without its year needs one).
     */
    private static Window partOfMonth(Matcher m, LocalDate today) {
        Month month = month(m.group(5));
        LocalDate first = m.group(6) != null ? LocalDate.of(Integer.parseInt(m.group(6)), month, 1) : lastBegun(month, today);
        LocalDate next = first.plusMonths(1);
        if (m.group(1) != null) {
            String week = m.group(1).toLowerCase(Locale.ROOT);
            LocalDate from = week.equals("last") ? next.minusDays(7) : first.plusWeeks(WEEKS.indexOf(week));
            return window(from, from.plusDays(7));
        }
        if (m.group(2) != null) {
            return m.group(2).equalsIgnoreCase("first") ? window(first, first.plusDays(15)) : window(first.plusDays(15), next);
        }
        return switch ((m.group(3) != null ? m.group(3) : m.group(4)).toLowerCase(Locale.ROOT)) {
            case "beginning", "start", "early" -> window(first, first.plusDays(10));
            case "middle", "mid" -> window(first.plusDays(10), first.plusDays(20));
            default -> window(first.plusDays(20), next); // end, late
        };
    }

    /**
     * Meteorological seasons of the northern hemisphere, three months each from March, June, September and December:
     * "summer 2021", "in the fall of 2022"; "last summer" (the last one over by the reference), "this winter" (the one
     * the reference is in, or the coming one), "during the summer" (the last one begun by the reference). A winter
     * with a year is left unread: whether "winter 2022" begins in that year's December or ends in its February varies.
     * {@code dated}: the seasons with a year only, which come before any other date; else those without one, which
     * come after every other time in the text.
     */
    private static Optional<Window> season(String text, LocalDate today, boolean dated) {
        Matcher m = SEASON.matcher(text);
        while (m.find()) {
            String which = m.group(1) == null ? null : m.group(1).toLowerCase(Locale.ROOT);
            boolean prefixed = m.group(1) != null || m.start(2) > m.start();
            Month first = switch (m.group(2).toLowerCase(Locale.ROOT)) {
                case "spring" -> Month.MARCH;
                case "summer" -> Month.JUNE;
                case "winter" -> Month.DECEMBER;
                default -> Month.SEPTEMBER; // autumn, fall
            };
            if (dated != (m.group(3) != null)) {
                continue;
            }
            LocalDate start;
            if (dated) {
                if (first == Month.DECEMBER) {
                    continue;
                }
                start = LocalDate.of(Integer.parseInt(m.group(3)), first, 1);
            } else if (!prefixed) {
                continue; // "I fall asleep", "spring rolls"
            } else {
                start = LocalDate.of(today.getYear(), first, 1);
                while (start.isAfter(today)) { // the last one begun by the reference
                    start = start.minusYears(1);
                }
                boolean over = !start.plusMonths(3).isAfter(today);
                if ("last".equals(which) && !over) {
                    start = start.minusYears(1); // "last summer" asked in a summer: the one before
                } else if ("this".equals(which) && over) {
                    start = start.plusYears(1); // "this winter" asked in June: the coming one
                }
            }
            return Optional.of(window(start, start.plusMonths(3)));
        }
        return Optional.empty();
    }

    /**
     * The event a question dates itself by ("before the wedding", "after the road trip", "since my
     * move to Sweden"): the words after the relation, to the end of the clause, without a leading
     * article or possessive. None when the relation is followed by a date (that is {@link #window}'s),
     * a question word or a pronoun ("after all", "before that"), or is no time ("named after", "looks
     * after", "takes after").
     */
    public static Optional<Anchor> anchor(String text) {
        Matcher relation = RELATION.matcher(text);
        while (relation.find()) {
            if (date(text, relation.end()).isPresent() || PART_OF_MONTH.matcher(text).region(relation.end(), text.length()).lookingAt()
                    || NOT_A_TIME.matcher(qualifier(text, relation)).find()) {
                continue;
            }
            Matcher words = EVENT.matcher(text).region(relation.end(), text.length());
            if (!words.lookingAt()) {
                continue;
            }
            List<String> event = new ArrayList<>(List.of(words.group(1).split("\\s+")));
            // "her wedding": a possessive before the event's words, not the pronoun of "after her"
            while (event.size() > 1 && DETERMINERS.contains(event.get(0).toLowerCase(Locale.ROOT))) {
                event.remove(0);
            }
            if (!NO_EVENT.contains(event.get(0).toLowerCase(Locale.ROOT)) && !DETERMINERS.contains(event.get(0).toLowerCase(Locale.ROOT))) {
                return Optional.of(new Anchor(String.join(" ", event), looksBack(relation.group(1))));
            }
        }
        return Optional.empty();
    }

    /** "before May 2023", "the week before 3 August, 2023", "since 2020" (the class comment says how each is read). */
    private static Optional<Window> relativeToADate(String text, LocalDate today) {
        Matcher relation = RELATION.matcher(text);
        while (relation.find()) {
            Optional<Window> anchor = date(text, relation.end()).or(() -> partOfMonthAt(text, relation.end(), today));
            if (anchor.isEmpty()) {
                continue;
            }
            Window date = anchor.get();
            LocalDate first = LocalDate.ofEpochDay(Math.floorDiv(date.from(), 86_400_000L));
            LocalDate end = LocalDate.ofEpochDay(Math.floorDiv(date.to(), 86_400_000L));
            boolean before = looksBack(relation.group(1));
            Matcher stretch = STRETCH.matcher(qualifier(text, relation));
            if (!stretch.find()) {
                return Optional.of(before ? new Window(Long.MIN_VALUE, date.from())
                        : new Window(relation.group(1).equalsIgnoreCase("since") ? date.from() : date.to(), Long.MAX_VALUE));
            }
            LocalDate from;
            LocalDate to;
            if (stretch.group(4) != null) { // "the Sunday before": that day, through the date
                DayOfWeek weekday = DayOfWeek.valueOf(stretch.group(4).toUpperCase(Locale.ROOT));
                from = before ? first.with(TemporalAdjusters.previous(weekday)) : first;
                to = before ? end : end.minusDays(1).with(TemporalAdjusters.next(weekday)).plusDays(1);
            } else {
                // "the week before", "two weeks before": that many units, and one more for the slack of "two weeks"
                String unit = (stretch.group(1) != null ? stretch.group(1) : stretch.group(3)).toLowerCase(Locale.ROOT);
                int n = stretch.group(1) != null ? 1 : count(stretch.group(2)) + 1;
                Period length = switch (unit) {
                    case "day" -> Period.ofDays(n);
                    case "month" -> Period.ofMonths(n);
                    default -> Period.ofWeeks(n); // week, weekend
                };
                from = before ? first.minus(length) : first;
                to = before ? end : end.plus(length);
            }
            return Optional.of(window(from, to));
        }
        return Optional.empty();
    }

    /**
     * "between August 11 and August 15 2023": from the first date through the second. The first is read as written,
     * else with the second's year ("August 11"), else as a day of the second's month ("between 11 and 15 August 2023").
     * None when the second is no date ("from Paris to Rome in 2023") or comes before the first.
     */
    private static Optional<Window> range(String text) {
        Matcher start = RANGE_START.matcher(text);
        while (start.find()) {
            // only the next few characters: a long query of "from"s is not read to its end from each
            Matcher link = RANGE_LINK.matcher(text).region(start.end(), Math.min(text.length(), start.end() + RANGE_FIRST_DATE_CHARS + 16));
            while (link.find() && link.start() - start.end() <= RANGE_FIRST_DATE_CHARS) {
                Optional<Window> second = date(text, link.end());
                if (second.isEmpty()) {
                    continue;
                }
                String first = text.substring(start.end(), link.start()).strip();
                Optional<Window> from = firstOfRange(first, second.get());
                if (from.isPresent() && from.get().from() < second.get().to()) {
                    return Optional.of(new Window(from.get().from(), second.get().to()));
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<Window> firstOfRange(String first, Window second) {
        Optional<Window> asWritten = date(first, 0);
        if (asWritten.isPresent()) {
            return asWritten;
        }
        LocalDate secondDay = LocalDate.ofEpochDay(Math.floorDiv(second.from(), 86_400_000L));
        Optional<Window> inItsYear = date(first + " " + secondDay.getYear(), 0);
        if (inItsYear.isPresent()) {
            return inItsYear;
        }
        // a bare number is a day only before a day ("between 10 and 2000 people" is no range)
        Matcher dayNumber = DAY_NUMBER.matcher(first);
        if (!dayNumber.matches() || second.to() - second.from() != 86_400_000L) {
            return Optional.empty();
        }
        return Optional.of(day(secondDay.getYear(), secondDay.getMonth(), Integer.parseInt(dayNumber.group(1))));
    }

    /** The few words just before a relation that qualify it (no need to scan a long query's start). */
    private static String qualifier(String text, Matcher relation) {
        return text.substring(Math.max(0, relation.start() - QUALIFIER_CHARS), relation.start());
    }

    /** Whether a relation's word looks back from its date or event: before, until, prior to. */
    private static boolean looksBack(String relation) {
        String word = relation.toLowerCase(Locale.ROOT);
        return word.equals("before") || word.equals("until") || word.startsWith("prior");
    }

    /** A date anywhere in {@code text}: a day, a month and year, or a year ("in 2022"). */
    private static Optional<Window> date(String text) {
        return date(text, -1);
    }

    /**
     * With {@code start} ≥ 0, a date that starts there, where a bare year will do ("since 2020");
     * else one anywhere (matched in place: a long query with many relations copies nothing).
     */
    private static Optional<Window> date(String text, int start) {
        boolean atStart = start >= 0;
        List<Locale> locales = localesOf(text);
        boolean english = locales.contains(Locale.ENGLISH); // English month names (the patterns above) in English only
        Matcher m = DAY_MONTH_YEAR.matcher(text);
        if (english && found(m, start)) {
            return Optional.of(day(Integer.parseInt(m.group(3)), month(m.group(2)), Integer.parseInt(m.group(1))));
        }
        m = MONTH_DAY_YEAR.matcher(text);
        if (english && found(m, start)) {
            return Optional.of(day(Integer.parseInt(m.group(3)), month(m.group(1)), Integer.parseInt(m.group(2))));
        }
        m = ISO_DATE.matcher(text);
        if (found(m, start) && Integer.parseInt(m.group(2)) >= 1 && Integer.parseInt(m.group(2)) <= 12) {
            return Optional.of(day(Integer.parseInt(m.group(1)), Month.of(Integer.parseInt(m.group(2))), Integer.parseInt(m.group(3))));
        }
        m = PART_OF_MONTH.matcher(text);
        while (found(m, start)) {
            if (m.group(6) != null) { // only with its year: a date here knows no reference time
                return Optional.of(partOfMonth(m, null));
            }
            if (atStart) {
                break;
            }
        }
        m = MONTH_YEAR.matcher(text);
        if (english && found(m, start)) {
            LocalDate first = LocalDate.of(Integer.parseInt(m.group(2)), month(m.group(1)), 1);
            return Optional.of(window(first, first.plusMonths(1)));
        }
        Optional<Window> localized = localized(text, start, of(LOCALIZED_DAYS, locales))
                .or(() -> localized(text, start, of(LOCALIZED_MONTHS, locales)));
        if (localized.isPresent()) {
            return localized;
        }
        m = (atStart ? BARE_YEAR : YEAR).matcher(text);
        if (found(m, start)) {
            LocalDate first = LocalDate.of(Integer.parseInt(m.group(1)), 1, 1);
            return Optional.of(window(first, first.plusYears(1)));
        }
        return Optional.empty();
    }

    private static Map<Locale, List<DateTimeFormatter>> localized(String... skeletons) {
        Map<Locale, List<DateTimeFormatter>> formats = new java.util.LinkedHashMap<>();
        for (Locale locale : DATE_LANGUAGES) {
            for (String skeleton : skeletons) {
                formats.computeIfAbsent(locale, l -> new ArrayList<>())
                        .add(new DateTimeFormatterBuilder().parseCaseInsensitive().appendLocalized(skeleton).toFormatter(locale));
            }
        }
        return formats;
    }

    /** The formats of {@code locales}, in that order. */
    private static List<DateTimeFormatter> of(Map<Locale, List<DateTimeFormatter>> formats, List<Locale> locales) {
        List<DateTimeFormatter> chosen = new ArrayList<>();
        for (Locale locale : locales) {
            chosen.addAll(formats.getOrDefault(locale, List.of()));
        }
        return chosen;
    }

    /** The last text each thread asked {@link #localesOf} for, and its locales: a long query asks at each of its relations. */
    private static final ThreadLocal<Object[]> LAST_LOCALES = new ThreadLocal<>();

    /** The locales of {@link #DATE_LANGUAGES} {@code text} may be in ({@link MemoryWords}: one, or the tied ones). */
    @SuppressWarnings("unchecked")
    private static List<Locale> localesOf(String text) {
        Object[] last = LAST_LOCALES.get();
        if (last != null && last[0] == text) {
            return (List<Locale>) last[1];
        }
        List<Locale> locales = new ArrayList<>();
        for (MemoryWords.Language language : MemoryWords.of(false).languagesOf(text)) {
            Locale locale = LOCALES.get(language);
            if (locale != null) {
                locales.add(locale);
            }
        }
        LAST_LOCALES.set(new Object[] {text, locales});
        return locales;
    }

    /**
     * A date written in one of {@code formats}: starting at {@code start} (≥ 0), else the first anywhere, tried where a
     * word or a number begins ("在2023年5月" holds one after the character before it). A month's day, with a year of four
     * digits; a day the month does not have is the month, as above.
     */
    private static Optional<Window> localized(String text, int start, List<DateTimeFormatter> formats) {
        // each holds a year of four digits, at most YEAR_AFTER_START characters after the date's start: only the places
        // just before one are tried (a long query without years costs one scan)
        Matcher year = FOUR_DIGITS.matcher(text);
        if (start >= 0) {
            year.region(Math.min(start, text.length()), Math.min(text.length(), start + YEAR_AFTER_START + 4));
            return year.find() ? localized(text, start, start, formats) : Optional.empty();
        }
        int tried = -1;
        while (year.find()) {
            Optional<Window> found = localized(text, Math.max(tried + 1, year.start() - YEAR_AFTER_START), year.start(), formats);
            if (found.isPresent()) {
                return found;
            }
            tried = year.start();
        }
        return Optional.empty();
    }

    private static final Pattern FOUR_DIGITS = Pattern.compile("(?<!\\d)\\d{4}(?!\\d)");
    /** How far into a written date its year may begin ("6 de septiembre de 2023": 19 characters). */
    private static final int YEAR_AFTER_START = 32;

    /** {@link #localized(String, int, List)} tried at each place from {@code from} through {@code last}. */
    private static Optional<Window> localized(String text, int from, int last, List<DateTimeFormatter> formats) {
        for (int i = from; i <= last && i < text.length(); i++) {
            char c = text.charAt(i);
            char before = i == 0 ? ' ' : text.charAt(i - 1);
            if (!Character.isLetterOrDigit(c) || Character.isDigit(c) == Character.isDigit(before) && Character.isLetterOrDigit(before)) {
                continue; // inside a word or a number
            }
            for (DateTimeFormatter format : formats) {
                ParsePosition position = new ParsePosition(i);
                TemporalAccessor parsed = format.parseUnresolved(text, position);
                int end = position.getIndex();
                if (parsed == null || position.getErrorIndex() >= 0 || end < text.length() && Character.isDigit(text.charAt(end))
                        && Character.isDigit(text.charAt(end - 1)) || !parsed.isSupported(ChronoField.YEAR_OF_ERA)
                        || !parsed.isSupported(ChronoField.MONTH_OF_YEAR)) {
                    continue;
                }
                long year = parsed.getLong(ChronoField.YEAR_OF_ERA);
                if (year < 1000 || year > 9999) {
                    continue;
                }
                // parsed unresolved: a numeric month or day ("2023年13月", "31 févr. 2023") is not checked yet, and no
                // date a text names may fail a search
                try {
                    Month month = Month.of((int) parsed.getLong(ChronoField.MONTH_OF_YEAR));
                    if (parsed.isSupported(ChronoField.DAY_OF_MONTH)) {
                        return Optional.of(day((int) year, month, (int) parsed.getLong(ChronoField.DAY_OF_MONTH)));
                    }
                    LocalDate first = LocalDate.of((int) year, month, 1);
                    return Optional.of(window(first, first.plusMonths(1)));
                } catch (java.time.DateTimeException notADate) {
                    continue;
                }
            }
        }
        return Optional.empty();
    }

    private static boolean found(Matcher m, int start) {
        return start >= 0 ? m.region(start, m.regionEnd()).lookingAt() : m.find();
    }

    private static int count(String word) {
        return switch (word.toLowerCase(Locale.ROOT)) {
            case "a", "one" -> 1;
            case "two" -> 2;
            case "three" -> 3;
            default -> Integer.parseInt(word);
        };
    }

    /** That day, or its month when the day does not exist in it. */
    private static Window day(int year, Month month, int dayOfMonth) {
        LocalDate first = LocalDate.of(year, month, 1);
        if (dayOfMonth < 1 || dayOfMonth > first.lengthOfMonth()) {
            return window(first, first.plusMonths(1));
        }
        LocalDate day = first.withDayOfMonth(dayOfMonth);
        return window(day, day.plusDays(1));
    }

    private static Window window(LocalDate from, LocalDate to) {
        return new Window(millis(from), millis(to));
    }

    private static long millis(LocalDate day) {
        return day.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
    }

    private static Month month(String name) {
        String prefix = name.substring(0, 3).toLowerCase(Locale.ROOT);
        for (Month month : Month.values()) {
            if (month.getDisplayName(TextStyle.FULL, Locale.ENGLISH).toLowerCase(Locale.ROOT).startsWith(prefix)) {
                return month;
            }
        }
        throw new IllegalArgumentException("not a month: " + name);
    }

    /** English weekday names as java.time writes them, for a regular expression. */
    private static String weekdayAlternatives() {
        StringBuilder names = new StringBuilder();
        for (DayOfWeek day : DayOfWeek.values()) {
            names.append(names.isEmpty() ? "" : "|").append(day.getDisplayName(TextStyle.FULL, Locale.ENGLISH).toLowerCase(Locale.ROOT));
        }
        return names.toString();
    }

    private static String monthAlternatives() {
        StringBuilder names = new StringBuilder();
        for (Month month : Month.values()) {
            String full = month.getDisplayName(TextStyle.FULL, Locale.ENGLISH);
            names.append(names.isEmpty() ? "" : "|").append(full).append("|").append(full, 0, 3);
        }
        return names.toString();
    }
}
