package dev.openrag.knowledge.memory;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.Month;
import java.time.ZoneOffset;
import java.time.format.TextStyle;
import java.time.temporal.TemporalAdjusters;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The time a question is about, from the words in it, against a reference time: a day ("on 16 June,
 * 2023", "June 16th 2023", "2023-06-16"), "in May 2023", "May, 2023", "in 2022", "yesterday",
 * "today", "last week|month|year", "3 days|weeks|months ago". A day that does not exist
 * ("31 February 2023") is read as its month.
 * Dates are read in UTC; the first expression found wins; anything else is no window at all
 * (rules, offline: an LLM resolver can come with the model providers).
 */
public final class TimeExpressions {

    /** {@code [from, to)} in epoch milliseconds. */
    public record Window(long from, long to) {
    }

    private static final String MONTHS = monthAlternatives();
    private static final Pattern DAY_MONTH_YEAR = Pattern.compile("\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(" + MONTHS
            + ")\\.?,?\\s+(\\d{4})\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern MONTH_DAY_YEAR = Pattern.compile("\\b(" + MONTHS + ")\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern ISO_DATE = Pattern.compile("\\b(\\d{4})-(\\d{2})-(\\d{2})\\b");
    private static final Pattern MONTH_YEAR = Pattern.compile("\\b(" + MONTHS + ")\\.?,?\\s+(\\d{4})\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern YEAR = Pattern.compile("\\b(?:in|during|of)\\s+(\\d{4})\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern AGO = Pattern.compile("\\b(\\d{1,3}|a|one|two|three)\\s+(day|week|month|year)s?\\s+ago\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern LAST = Pattern.compile("\\blast\\s+(week|month|year)\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern DAY = Pattern.compile("\\b(yesterday|today)\\b", Pattern.CASE_INSENSITIVE);

    private TimeExpressions() {
    }

    public static Optional<Window> window(String text, long referenceMillis) {
        LocalDate today = LocalDate.ofEpochDay(Math.floorDiv(referenceMillis, 86_400_000L));
        Matcher m = DAY_MONTH_YEAR.matcher(text);
        if (m.find()) {
            return Optional.of(day(Integer.parseInt(m.group(3)), month(m.group(2)), Integer.parseInt(m.group(1))));
        }
        m = MONTH_DAY_YEAR.matcher(text);
        if (m.find()) {
            return Optional.of(day(Integer.parseInt(m.group(3)), month(m.group(1)), Integer.parseInt(m.group(2))));
        }
        m = ISO_DATE.matcher(text);
        if (m.find() && Integer.parseInt(m.group(2)) >= 1 && Integer.parseInt(m.group(2)) <= 12) {
            return Optional.of(day(Integer.parseInt(m.group(1)), Month.of(Integer.parseInt(m.group(2))), Integer.parseInt(m.group(3))));
        }
        m = MONTH_YEAR.matcher(text);
        if (m.find()) {
            LocalDate first = LocalDate.of(Integer.parseInt(m.group(2)), month(m.group(1)), 1);
            return Optional.of(window(first, first.plusMonths(1)));
        }
        m = YEAR.matcher(text);
        if (m.find()) {
            LocalDate first = LocalDate.of(Integer.parseInt(m.group(1)), 1, 1);
            return Optional.of(window(first, first.plusYears(1)));
        }
        m = DAY.matcher(text);
        if (m.find()) {
            LocalDate day = m.group(1).equalsIgnoreCase("yesterday") ? today.minusDays(1) : today;
            return Optional.of(window(day, day.plusDays(1)));
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
            int n = switch (m.group(1).toLowerCase(Locale.ROOT)) {
                case "a", "one" -> 1;
                case "two" -> 2;
                case "three" -> 3;
                default -> Integer.parseInt(m.group(1));
            };
            // "3 weeks ago": the week around that day, not the instant
            return Optional.of(switch (m.group(2).toLowerCase(Locale.ROOT)) {
                case "day" -> window(today.minusDays(n), today.minusDays(n - 1L));
                case "week" -> window(today.minusWeeks(n).minusDays(3), today.minusWeeks(n).plusDays(4));
                case "month" -> window(today.minusMonths(n).withDayOfMonth(1), today.minusMonths(n).withDayOfMonth(1).plusMonths(1));
                default -> window(today.minusYears(n).withDayOfYear(1), today.minusYears(n).withDayOfYear(1).plusYears(1));
            });
        }
        return Optional.empty();
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
        return new Window(from.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli(),
                to.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli());
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

    private static String monthAlternatives() {
        StringBuilder names = new StringBuilder();
        for (Month month : Month.values()) {
            String full = month.getDisplayName(TextStyle.FULL, Locale.ENGLISH);
            names.append(names.isEmpty() ? "" : "|").append(full).append("|").append(full, 0, 3);
        }
        return names.toString();
    }
}
