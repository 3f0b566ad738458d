package dev.setree.internal.maintain;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Class-based TF-IDF topic terms (the c-TF-IDF of BERTopic, Grootendorst 2022): a node's leaves are one
 * class; a term's weight is its frequency in the class (per word of the class) times
 * {@code log(1 + A / f)}, where {@code f} is the term's frequency in the whole knowledge base and {@code A}
 * the words of a class of this size on average. Terms are words and two-word phrases of content words
 * (lower-cased, English stop words and one-letter words removed); each keeps its most frequent surface form
 * for display. Deterministic: ties are broken by the term's text.
 */
final class TopicTerms {
  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N}'’-]*");
  /** English stop words and conversational fillers that never make a topic. */
  static final Set<String> STOP = Set.copyOf(List.of("a", "an", "the", "and", "or", "but", "of", "to", "in", "on", "at",
      "for", "with", "by", "from", "as", "is", "was", "are", "were", "be", "been", "being", "it", "its", "this",
      "that", "these", "those", "he", "she", "they", "them", "his", "her", "hers", "their", "i", "you", "we",
      "my", "your", "our", "me", "him", "us", "do", "does", "did", "has", "have", "had", "not", "no", "so",
      "if", "than", "then", "there", "about", "into", "over", "also", "will", "would", "can", "could",
      "which", "who", "what", "when", "where", "how", "some", "any", "all", "both", "each", "other", "such",
      "only", "just", "really", "very", "too", "much", "more", "most", "lot", "lots", "like", "get", "got",
      "going", "go", "know", "think", "thanks", "thank", "yeah", "yes", "hey", "hi", "oh", "wow", "great",
      "good", "nice", "awesome", "cool", "amazing", "glad", "sure", "sounds", "sound", "totally", "definitely",
      "it's", "i'm", "that's", "you're", "i've", "don't", "can't", "what's", "there's", "let's", "i'll",
      "he's", "she's", "they're", "we're", "you've", "didn't", "isn't", "wasn't", "doesn't",
      "something", "things", "thing", "way", "really", "always", "still", "even", "well", "one", "make",
      "made", "feel", "feels", "felt", "love", "loved", "see", "time", "been", "being", "am", "because",
      "while", "after", "before", "up", "out", "down", "off", "again", "here", "now", "new", "keep", "every",
      // generic verbs: a topic is a thing, a place, a person or an activity
      "take", "takes", "took", "taking", "make", "makes", "making", "get", "gets", "getting", "back", "use",
      "uses", "used", "using", "want", "wants", "wanted", "go", "goes", "went", "come", "comes", "came",
      "say", "says", "said", "try", "tries", "tried", "start", "starts", "started", "give", "gives", "gave",
      "put", "puts", "let", "lets", "help", "helps", "helped", "need", "needs", "needed", "find", "found",
      "look", "looks", "looking", "looked", "told", "tell", "tells", "hope", "means", "mean", "kind", "bit",
      "day", "days", "week", "weeks", "many", "few", "own", "never", "ever", "once", "since", "until",
      "usually", "often", "recently", "currently", "next", "last", "first", "two", "three", "four", "five"));

  private final Map<String, Integer> corpusFreq;
  private final double wordsPerLeaf;

  private TopicTerms(Map<String, Integer> corpusFreq, double wordsPerLeaf) {
    this.corpusFreq = corpusFreq;
    this.wordsPerLeaf = wordsPerLeaf;
  }

  /** Term frequencies of a whole knowledge base (the IDF side), from its leaves' texts. */
  static TopicTerms of(List<String> leafTexts) {
    Map<String, Integer> f = new HashMap<>();
    long words = 0;
    for (String t : leafTexts) {
      Set<String> seen = new HashSet<>();
      for (Term term : terms(t)) {
        if (!seen.add(term.key())) {
          continue;
        }
        f.merge(term.key(), 1, Integer::sum);
        if (term.key().indexOf(' ') < 0) {
          words++;
        }
      }
    }
    return new TopicTerms(f, leafTexts.isEmpty() ? 1 : Math.max(1.0, words / (double) leafTexts.size()));
  }

  /** One term occurrence: its key (lower case) and its surface text. */
  record Term(String key, String surface) {}

  /** A weighted term of a class, with the number of the class's leaves that hold it. */
  record Weighted(String key, String surface, double weight, int leaves) {}

  /** The content words and two-word phrases of a text, in order. */
  static List<Term> terms(String text) {
    List<Term> out = new ArrayList<>();
    Matcher m = WORD.matcher(text);
    String prevKey = null;
    String prevSurface = null;
    int prevEnd = -1;
    while (m.find()) {
      String surface = m.group().replaceAll("['’]s$", "").replaceAll("['’-]+$", "");
      String key = surface.toLowerCase(Locale.ROOT);
      boolean number = key.chars().allMatch(Character::isDigit) && key.length() != 4; // years stay
      boolean content = !number && key.length() > 1 && !STOP.contains(key) && !STOP.contains(m.group().toLowerCase(Locale.ROOT));
      if (!content) {
        prevKey = null;
        continue;
      }
      out.add(new Term(key, surface));
      // a phrase only across plain whitespace (no punctuation between the words)
      if (prevKey != null && text.substring(prevEnd, m.start()).isBlank()) {
        out.add(new Term(prevKey + " " + key, prevSurface + " " + surface));
      }
      prevKey = key;
      prevSurface = surface;
      prevEnd = m.end();
    }
    return out;
  }

  /** The c-TF-IDF weight of every term of the class made of {@code texts}, best first. */
  List<Weighted> rank(List<String> texts) {
    Map<String, Integer> tf = new HashMap<>();
    Map<String, Map<String, Integer>> surfaces = new HashMap<>();
    long words = 0;
    for (String t : texts) {
      Set<String> seen = new HashSet<>();
      for (Term term : terms(t)) {
        if (!seen.add(term.key())) {
          continue; // a term counts once per leaf: a topic is what many leaves share
        }
        tf.merge(term.key(), 1, Integer::sum);
        surfaces.computeIfAbsent(term.key(), k -> new HashMap<>()).merge(term.surface(), 1, Integer::sum);
        if (term.key().indexOf(' ') < 0) {
          words++;
        }
      }
    }
    double a = wordsPerLeaf * texts.size();
    List<Weighted> out = new ArrayList<>();
    for (Map.Entry<String, Integer> e : tf.entrySet()) {
      int f = Math.max(e.getValue(), corpusFreq.getOrDefault(e.getKey(), 0));
      double w = e.getValue() / (double) Math.max(1, words) * Math.log(1 + a / f);
      out.add(new Weighted(e.getKey(), surface(surfaces.get(e.getKey())), w, e.getValue()));
    }
    out.sort((x, y) -> x.weight() != y.weight() ? Double.compare(y.weight(), x.weight()) : x.key().compareTo(y.key()));
    return out;
  }

  private static String surface(Map<String, Integer> forms) {
    String best = null;
    int n = -1;
    for (Map.Entry<String, Integer> e : forms.entrySet()) {
      if (e.getValue() > n || (e.getValue() == n && e.getKey().compareTo(best) < 0)) {
        best = e.getKey();
        n = e.getValue();
      }
    }
    return best;
  }
}
