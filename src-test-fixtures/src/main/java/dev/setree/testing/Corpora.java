package dev.setree.testing;

import dev.setree.spi.Fact;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Small corpora for tests, bundled with the fixtures: a hand-written personal knowledge base of 240 facts
 * over six topics with twelve niche questions, and a seeded random fact generator.
 */
public final class Corpora {
  private static final Pattern FIELD = Pattern.compile("\"(\\w+)\"\\s*:\\s*(\"((?:[^\"\\\\]|\\\\.)*)\"|\\[([^\\]]*)\\])");

  private Corpora() {}

  /** A fact of the personal corpus with its topic. */
  public record TopicFact(Fact fact, String topic) {}

  /** A niche question of the personal corpus: its gold fact ids and topic. */
  public record Query(String id, String prompt, List<String> gold, String topic) {}

  /** The 240 personal facts (six topics of 40). */
  public static List<TopicFact> personalFacts() {
    List<TopicFact> out = new ArrayList<>();
    for (String line : lines("personal-facts.jsonl")) {
      Matcher m = FIELD.matcher(line);
      String id = null;
      String topic = null;
      String text = null;
      while (m.find()) {
        switch (m.group(1)) {
          case "id" -> id = unescape(m.group(3));
          case "topic" -> topic = unescape(m.group(3));
          case "text" -> text = unescape(m.group(3));
          default -> { }
        }
      }
      out.add(new TopicFact(Fact.of(id, text), topic));
    }
    return out;
  }

  /** The twelve niche questions of the personal corpus. */
  public static List<Query> personalQueries() {
    List<Query> out = new ArrayList<>();
    for (String line : lines("personal-queries.jsonl")) {
      Matcher m = FIELD.matcher(line);
      String id = null;
      String prompt = null;
      String topic = null;
      List<String> gold = new ArrayList<>();
      while (m.find()) {
        switch (m.group(1)) {
          case "id" -> id = unescape(m.group(3));
          case "prompt" -> prompt = unescape(m.group(3));
          case "topic" -> topic = unescape(m.group(3));
          case "gold" -> {
            for (String g : m.group(4).split(",")) {
              gold.add(g.trim().replaceAll("^\"|\"$", ""));
            }
          }
          default -> { }
        }
      }
      out.add(new Query(id, prompt, List.copyOf(gold), topic));
    }
    return out;
  }

  /** Just the facts of {@link #personalFacts()}. */
  public static List<Fact> personal() {
    return personalFacts().stream().map(TopicFact::fact).toList();
  }

  /**
   * {@code n} synthetic facts from a seeded generator: sentences over a few dozen topics, so that a
   * hierarchy has structure. Same seed, same facts.
   */
  public static List<Fact> synthetic(int n, long seed) {
    String[] subjects = {"the user", "Anna", "Bruno", "Chen", "Dara", "Emil", "Fatima", "Goran"};
    String[][] topics = {
      {"cooks", "pasta", "curry", "soup", "bread", "risotto", "tacos"},
      {"hikes", "mountains", "forest", "ridge", "valley", "glacier", "canyon"},
      {"codes", "java", "rust", "compilers", "databases", "kernels", "parsers"},
      {"plays", "piano", "guitar", "violin", "drums", "cello", "flute"},
      {"reads", "novels", "poetry", "history", "physics", "biographies", "comics"},
      {"visits", "paris", "lisbon", "kyoto", "oslo", "lima", "cairo"},
      {"trains", "marathon", "swimming", "cycling", "rowing", "climbing", "yoga"},
      {"collects", "stamps", "coins", "vinyl", "maps", "shells", "postcards"},
    };
    String[] times = {"on mondays", "every weekend", "since 2019", "at night", "with friends", "alone"};
    Random r = new Random(seed);
    List<Fact> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String[] t = topics[r.nextInt(topics.length)];
      String text = subjects[r.nextInt(subjects.length)] + " " + t[0] + " " + t[1 + r.nextInt(t.length - 1)]
          + " " + times[r.nextInt(times.length)] + " (note " + i + ")";
      out.add(Fact.of("f" + i, text));
    }
    return out;
  }

  private static List<String> lines(String resource) {
    try (InputStream in = Corpora.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing fixture resource " + resource);
      }
      BufferedReader br = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      return br.lines().filter(s -> !s.isBlank()).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String unescape(String s) {
    return s.replace("\\\"", "\"").replace("\\\\", "\\");
  }
}
