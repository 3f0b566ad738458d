package dev.setree;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The <em>period</em> a prompt names, as a span of days: "in May 2023", "on 8 May 2023", "May 8, 2023",
 * "2023-05", "2023-05-08", or a year alone ("in 2023"). Several dates in one prompt give the span from the
 * first one's start to the last one's end. English month names, full or abbreviated, in any case; a month
 * counts only when a year follows it, so "may" the verb is not a month. Immutable.
 *
 * @param fromDay the first day of the span (epoch day)
 * @param untilDay the day after its last day (epoch day, exclusive)
 */
record PromptPeriod(long fromDay, long untilDay) {
  private static final Map<String, Integer> MONTHS = months();
  private static final String MONTH = "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?"
      + "|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?";
  private static final String DAY = "(\\d{1,2})(?:st|nd|rd|th)?";
  private static final String YEAR = "((?:1[6-9]|2\\d)\\d\\d)";
  /** Alternatives, most specific first; each match is consumed so that a shorter form does not match again. */
  private static final Pattern DATES = Pattern.compile(
      "\\b(?:" + "(\\d{4})-(\\d{2})-(\\d{2})" // 1-3: ISO day
          + "|(\\d{4})-(\\d{2})(?!\\d)" // 4-5: ISO month
          + "|" + DAY + "\\s+(?:of\\s+)?" + MONTH + ",?\\s+" + YEAR // 6-8: 8 May 2023
          + "|" + MONTH + "\\s+" + DAY + ",?\\s+" + YEAR // 9-11: May 8, 2023
          + "|" + MONTH + ",?\\s+(?:of\\s+)?" + YEAR // 12-13: May 2023
          + "|((?:19|20)\\d\\d)" + ")\\b", // 14: 2023 (a bare number is a year only from 1900 to 2099)
      Pattern.CASE_INSENSITIVE);

  PromptPeriod {
    if (untilDay <= fromDay) {
      throw new IllegalArgumentException("empty period: " + fromDay + " to " + untilDay);
    }
  }

  /** The period named by {@code prompt}, or null when it names none. */
  static PromptPeriod of(String prompt) {
    Matcher m = DATES.matcher(prompt);
    long from = Long.MAX_VALUE;
    long until = Long.MIN_VALUE;
    while (m.find()) {
      PromptPeriod p = span(m);
      if (p != null) {
        from = Math.min(from, p.fromDay);
        until = Math.max(until, p.untilDay);
      }
    }
    return from == Long.MAX_VALUE ? null : new PromptPeriod(from, until);
  }

  /** True when the day lies in the period. */
  boolean contains(long epochDay) {
    return epochDay >= fromDay && epochDay < untilDay;
  }

  private static PromptPeriod span(Matcher m) {
    try {
      if (m.group(1) != null) {
        return day(LocalDate.of(num(m, 1), num(m, 2), num(m, 3)));
      }
      if (m.group(4) != null) {
        return month(YearMonth.of(num(m, 4), num(m, 5)));
      }
      if (m.group(6) != null) {
        return day(LocalDate.of(num(m, 8), month(m.group(7)), num(m, 6)));
      }
      if (m.group(9) != null) {
        return day(LocalDate.of(num(m, 11), month(m.group(9)), num(m, 10)));
      }
      if (m.group(12) != null) {
        return month(YearMonth.of(num(m, 13), month(m.group(12))));
      }
      int year = num(m, 14);
      return new PromptPeriod(LocalDate.of(year, 1, 1).toEpochDay(), LocalDate.of(year + 1, 1, 1).toEpochDay());
    } catch (DateTimeException e) {
      return null; // "2023-13" or "31 February 2023": no date
    }
  }

  private static PromptPeriod day(LocalDate d) {
    return new PromptPeriod(d.toEpochDay(), d.toEpochDay() + 1);
  }

  private static PromptPeriod month(YearMonth ym) {
    return new PromptPeriod(ym.atDay(1).toEpochDay(), ym.plusMonths(1).atDay(1).toEpochDay());
  }

  private static int num(Matcher m, int group) {
    return Integer.parseInt(m.group(group));
  }

  private static int month(String name) {
    return MONTHS.get(name.toLowerCase(Locale.ROOT).substring(0, 3));
  }

  private static Map<String, Integer> months() {
    String[] names = {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"};
    Map<String, Integer> m = new HashMap<>();
    for (int i = 0; i < names.length; i++) {
      m.put(names[i], i + 1);
    }
    return Map.copyOf(m);
  }

  /**
   * The day of an ISO-8601 time stamp ({@code 2023-05-08T13:56}, {@code 2023-05-08}, also a bare
   * {@code 2023-05} or {@code 2023}, taken as their first day), or {@link Long#MIN_VALUE} when it has none.
   */
  static long epochDay(String time) {
    if (time == null || time.length() < 4) {
      return Long.MIN_VALUE;
    }
    try {
      int year = Integer.parseInt(time, 0, 4, 10);
      int month = time.length() >= 7 && time.charAt(4) == '-' ? Integer.parseInt(time, 5, 7, 10) : 1;
      int day = time.length() >= 10 && time.charAt(7) == '-' ? Integer.parseInt(time, 8, 10, 10) : 1;
      return LocalDate.of(year, month, day).toEpochDay();
    } catch (NumberFormatException | DateTimeException e) {
      return Long.MIN_VALUE;
    }
  }
}
