package dev.setree.internal.maintain;

import dev.setree.spi.Passage;
import dev.setree.spi.Summarizer;
import dev.setree.spi.TokenCounter;
import dev.setree.internal.core.Vectors;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The embedded default {@link Summarizer}: needs no network and no model call. Three designs
 * (docs/adr/0011-extractive-overview-summaries.md), all deterministic:
 *
 * <ul>
 *   <li>{@link Design#SENTENCE}: the most representative leaves quoted whole, picked by maximal marginal
 *       relevance (Carbonell and Goldstein, SIGIR 1998): first the leaf closest to the node's leaf-centroid,
 *       then leaves close to the centroid and not redundant with those already picked, until the cap.</li>
 *   <li>{@link Design#TERMS}: the node's topic terms by class-based TF-IDF ({@link TopicTerms}, as BERTopic
 *       labels a cluster), best first, comma-separated; each word shown once, and a two-word phrase only
 *       when two of the node's leaves share it.</li>
 *   <li>{@link Design#CLAUSES}: the leaves MMR picks, each compressed to its key clause (the clause with the
 *       most topic-term weight per word; the date prefix dropped, a speaker kept), joined by semicolons.</li>
 *   <li>{@link Design#TOPICS}: {@code TERMS} for the root and its children (the nodes an overview shows),
 *       {@code SENTENCE} below.</li>
 * </ul>
 *
 * <p>The term statistics come from the whole knowledge base ({@link #forCorpus}); without them the node's
 * own leaves stand in. The caller enforces the token cap and the budget-monotone rule; this class also
 * stops at the cap it is given.
 */
public final class ExtractiveSummarizer implements Summarizer {
  /** What an extractive summary is made of. */
  public enum Design {
    /** Whole central leaves (MMR). */
    SENTENCE,
    /** Class-based TF-IDF topic terms. */
    TERMS,
    /** Central leaves compressed to their key clauses. */
    CLAUSES,
    /** Topic terms for the overview's nodes (the root and its children), whole central leaves below. */
    TOPICS
  }

  /** The design of {@link #ExtractiveSummarizer()}. */
  public static final Design DEFAULT_DESIGN = Design.SENTENCE;

  /** Weight of redundancy against the already picked leaves. */
  static final float REDUNDANCY = 0.5f;
  private static final Pattern DATE_PREFIX = Pattern.compile("^\\[[^\\]]{1,40}\\]\\s*");
  private static final Pattern SPEAKER = Pattern.compile("^([\\p{L}][\\p{L}\\p{N} .'-]{0,30}):\\s+");
  private static final Pattern CLAUSE_END = Pattern.compile("(?<=[.!?;:])\\s+|,\\s+(?=(?:and|but|so|because|which|"
      + "while|although|though|since|as|when)\\b)|\\s+-\\s+");

  private final Design design;
  private final TopicTerms corpus;

  /** The default design ({@link #DEFAULT_DESIGN}). */
  public ExtractiveSummarizer() {
    this(DEFAULT_DESIGN);
  }

  /** A summariser of the given design. */
  public ExtractiveSummarizer(Design design) {
    this(design, null);
  }

  private ExtractiveSummarizer(Design design, TopicTerms corpus) {
    this.design = design;
    this.corpus = corpus;
  }

  /** This summariser's design. */
  public Design design() {
    return design;
  }

  /**
   * Whether a summary reads its children's embeddings (the designs that rank terms by child topics): a pass must
   * then give a node's children their new embeddings before the node is summarised.
   */
  public boolean readsChildEmbeddings() {
    return design == Design.TERMS || design == Design.TOPICS;
  }

  /** Whether {@link #forCorpus} makes a different summariser: the designs that weigh terms. */
  public boolean usesCorpus() {
    return design != Design.SENTENCE;
  }

  /**
   * The same design with term statistics of a whole knowledge base (its leaves' texts); the summariser
   * itself is unchanged.
   */
  public ExtractiveSummarizer forCorpus(List<String> leafTexts) {
    return design == Design.SENTENCE ? this : new ExtractiveSummarizer(design, TopicTerms.of(leafTexts));
  }

  @Override
  public String kind() {
    return "extractive";
  }

  @Override
  public Summary summarize(Request request) {
    return switch (design) {
      case SENTENCE -> sentences(request);
      case TERMS -> terms(request);
      case CLAUSES -> clauses(request);
      case TOPICS -> request.depth() <= 1 ? terms(request) : sentences(request);
    };
  }

  /** Leaf indexes in MMR order, lazily, at most {@code limit} ({@link MaximalMarginalRelevance}). */
  static Iterable<Integer> mmrOrder(List<Passage> leaves, float[] centroid, int limit) {
    return MaximalMarginalRelevance.order(leaves, centroid, limit, REDUNDANCY);
  }

  private static String normalise(String s) {
    return s.strip().replaceAll("\\s+", " ");
  }

  private Summary sentences(Request request) {
    List<Passage> leaves = request.leaves();
    StringBuilder text = new StringBuilder();
    List<String> sources = new ArrayList<>();
    int used = 0;
    TokenCounter counter = request.counter();
    int cap = request.maxTokens();
    // Every leaf costs at least one token: no more than cap + 1 picks are ever looked at.
    for (int i : mmrOrder(leaves, request.centroid(), cap + 1)) {
      Passage p = leaves.get(i);
      String sentence = normalise(p.text());
      int cost = counter.count(sentence);
      if (used + cost <= cap) {
        if (text.length() > 0) {
          text.append(' ');
        }
        text.append(sentence);
        used += cost;
        sources.add(p.id());
      } else {
        if (sources.isEmpty()) {
          text.append(TextCut.fit(sentence, cap, counter)); // nothing whole fits: the most central leaf, cut
        }
        break;
      }
    }
    return new Summary(text.toString(), List.copyOf(sources));
  }

  private TopicTerms stats(Request request) {
    if (corpus != null) {
      return corpus;
    }
    return TopicTerms.of(texts(request.leaves()));
  }

  private static List<String> texts(List<Passage> leaves) {
    List<String> out = new ArrayList<>(leaves.size());
    for (int i = 0; i < leaves.size(); i++) {
      out.add(LeafPassages.text(leaves, i));
    }
    return out;
  }

  private Summary terms(Request request) {
    List<TopicTerms.Weighted> ranked = stats(request).rank(texts(request.leaves()));
    List<List<String>> childTopics = childTopics(request);
    if (childTopics.size() >= 2) {
      ranked = roundRobin(childTopics, ranked);
    }
    TokenCounter counter = request.counter();
    int cap = request.maxTokens();
    int n = request.leaves().size();
    Set<String> shownWords = new HashSet<>();
    List<String> chosen = new ArrayList<>();
    for (TopicTerms.Weighted w : ranked) {
      if (chosen.size() >= 64) {
        break;
      }
      List<String> words = Arrays.asList(w.key().split(" "));
      if (words.size() > 1 && n >= 4 && w.leaves() < 2) {
        continue; // a phrase of one leaf among many is that leaf's wording, not the node's topic
      }
      boolean overlaps = false;
      for (String x : words) {
        overlaps |= shownWords.contains(x);
      }
      if (overlaps) {
        continue; // each word once: "sourdough bread" then not "sourdough" nor "bakes sourdough"
      }
      List<String> next = new ArrayList<>(chosen);
      next.add(w.surface());
      if (counter.count(String.join(", ", next)) > cap) {
        if (chosen.isEmpty()) {
          return new Summary(TextCut.fit(w.surface(), cap, counter), List.of());
        }
        continue; // a shorter term further down may still fit
      }
      chosen = next;
      shownWords.addAll(words);
    }
    return new Summary(String.join(", ", chosen), List.of());
  }

  /**
   * The topic terms of the node's summarised children (their summaries' comma-separated terms), most central
   * child first; empty when fewer than two children are summaries of this design.
   */
  private static List<List<String>> childTopics(Request request) {
    List<Passage> kids = new ArrayList<>();
    Set<String> leafIds = new HashSet<>();
    List<Passage> leaves = request.leaves();
    for (int i = 0; i < leaves.size(); i++) {
      leafIds.add(LeafPassages.id(leaves, i));
    }
    for (Passage c : request.children()) {
      boolean leaf = leafIds.contains(c.id());
      if (!leaf && c.text() != null && !c.text().isBlank()) {
        kids.add(c);
      }
    }
    float[] centroid = request.centroid();
    kids.sort((a, b) -> {
      float x = Vectors.dot(a.embedding(), centroid);
      float y = Vectors.dot(b.embedding(), centroid);
      return x != y ? Float.compare(y, x) : a.id().compareTo(b.id());
    });
    List<List<String>> out = new ArrayList<>();
    for (Passage k : kids) {
      List<String> terms = new ArrayList<>();
      boolean list = true;
      for (String t : k.text().split(",\\s*")) {
        list &= t.strip().split("\\s+").length <= 3; // a sentence (another summariser's) is not a topic list
        if (!t.isBlank()) {
          terms.add(t.strip());
        }
      }
      if (list) {
        out.add(terms);
      }
    }
    return out;
  }

  /**
   * A node above other topics names them: the first term of each child topic, then the second of each, and
   * so on, then the node's own ranking; weights fall with the position so the order is kept.
   */
  private static List<TopicTerms.Weighted> roundRobin(List<List<String>> topics, List<TopicTerms.Weighted> own) {
    List<TopicTerms.Weighted> out = new ArrayList<>();
    int longest = 0;
    for (List<String> t : topics) {
      longest = Math.max(longest, t.size());
    }
    double w = 1e9;
    for (int i = 0; i < longest; i++) {
      for (List<String> t : topics) {
        if (i < t.size()) {
          out.add(new TopicTerms.Weighted(t.get(i).toLowerCase(Locale.ROOT), t.get(i), w--, 2));
        }
      }
    }
    out.addAll(own);
    return out;
  }

  private Summary clauses(Request request) {
    List<Passage> leaves = request.leaves();
    List<TopicTerms.Weighted> ranked = stats(request).rank(texts(leaves));
    Map<String, Double> weight = new HashMap<>();
    for (TopicTerms.Weighted w : ranked) {
      if (w.key().indexOf(' ') < 0) {
        weight.put(w.key(), w.weight());
      }
    }
    TokenCounter counter = request.counter();
    int cap = request.maxTokens();
    StringBuilder text = new StringBuilder();
    List<String> sources = new ArrayList<>();
    Set<String> said = new HashSet<>();
    int misses = 0;
    for (int i : mmrOrder(leaves, request.centroid(), 32)) {
      Passage p = leaves.get(i);
      String clause = keyClause(normalise(p.text()), weight, said);
      if (clause.isEmpty()) {
        continue;
      }
      String next = text.length() == 0 ? clause : text + "; " + clause;
      if (counter.count(next) <= cap) {
        text.setLength(0);
        text.append(next);
        if (clause.equals(normalise(p.text()))) {
          sources.add(p.id());
        }
        for (TopicTerms.Term t : TopicTerms.terms(clause)) {
          said.add(t.key());
        }
      } else if (text.length() == 0) {
        text.append(TextCut.fit(clause, cap, counter));
        break;
      } else if (++misses >= 3) {
        break;
      }
    }
    return new Summary(text.toString(), List.copyOf(sources));
  }

  /** The clause of a leaf with the most new topic-term weight per word; its speaker kept, its date dropped. */
  static String keyClause(String leaf, Map<String, Double> weight, Set<String> said) {
    String body = DATE_PREFIX.matcher(leaf).replaceFirst("");
    String speaker = "";
    var sm = SPEAKER.matcher(body);
    if (sm.find()) {
      speaker = sm.group(1) + ": ";
      body = body.substring(sm.end());
    }
    String best = "";
    double bestScore = -1;
    for (String c : CLAUSE_END.split(body)) {
      String clause = c.strip().replaceAll("[,;:]+$", "");
      List<TopicTerms.Term> terms = TopicTerms.terms(clause);
      if (terms.isEmpty()) {
        continue;
      }
      double sum = 0;
      for (TopicTerms.Term t : terms) {
        if (t.key().indexOf(' ') < 0 && !said.contains(t.key())) {
          sum += weight.getOrDefault(t.key(), 0.0);
        }
      }
      int words = clause.split("\\s+").length;
      double score = sum / Math.sqrt(words);
      if (score > bestScore) {
        bestScore = score;
        best = clause;
      }
    }
    if (best.isEmpty()) {
      return "";
    }
    String out = speaker + best;
    return out.equals(leaf) || (speaker + best).toLowerCase(Locale.ROOT).equals(leaf.toLowerCase(Locale.ROOT))
        ? leaf : out;
  }
}
