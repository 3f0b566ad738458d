package dev.setree.maintain;

import dev.setree.core.Passage;
import dev.setree.core.Summarizer;
import dev.setree.core.TokenCounter;
import dev.setree.core.Vectors;
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
 *       labels a cluster), comma-separated, a term skipped when chosen terms already hold its words.</li>
 *   <li>{@link Design#CLAUSES}: the leaves MMR picks, each compressed to its key clause (the clause with the
 *       most topic-term weight per word; the date prefix dropped, a speaker kept), joined by semicolons.</li>
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
    CLAUSES
  }

  /** The design of {@link #ExtractiveSummarizer()}. */
  public static final Design DEFAULT_DESIGN = Design.SENTENCE;

  /** Weight of redundancy against the already picked leaves. */
  static final float REDUNDANCY = 0.5f;
  private static final int MAX_CANDIDATES = 4096;
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
    };
  }

  /** Leaf indexes in MMR order (closest to the centroid first, redundancy against picked ones). */
  private static List<Integer> mmrOrder(List<Passage> leaves, float[] centroid, int limit) {
    int n = leaves.size();
    float[] rel = new float[n];
    for (int i = 0; i < n; i++) {
      rel[i] = Vectors.dot(leaves.get(i).embedding(), centroid);
    }
    List<Integer> cand = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      cand.add(i);
    }
    cand.sort((a, b) -> rel[a] != rel[b] ? Float.compare(rel[b], rel[a]) : Integer.compare(a, b));
    if (cand.size() > MAX_CANDIDATES) {
      cand = new ArrayList<>(cand.subList(0, MAX_CANDIDATES));
    }
    float[] maxSim = new float[n];
    Arrays.fill(maxSim, -1f);
    boolean[] taken = new boolean[n];
    List<Integer> order = new ArrayList<>();
    while (order.size() < Math.min(limit, cand.size())) {
      int best = -1;
      float bestScore = Float.NEGATIVE_INFINITY;
      for (int i : cand) {
        if (taken[i]) {
          continue;
        }
        float score = rel[i] - (order.isEmpty() ? 0f : REDUNDANCY * maxSim[i]);
        if (score > bestScore) {
          bestScore = score;
          best = i;
        }
      }
      taken[best] = true;
      order.add(best);
      for (int i : cand) {
        maxSim[i] = Math.max(maxSim[i], Vectors.dot(leaves.get(i).embedding(), leaves.get(best).embedding()));
      }
    }
    return order;
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
    List<String> texts = new ArrayList<>();
    for (Passage p : request.leaves()) {
      texts.add(p.text());
    }
    return TopicTerms.of(texts);
  }

  private static List<String> texts(List<Passage> leaves) {
    List<String> out = new ArrayList<>(leaves.size());
    for (Passage p : leaves) {
      out.add(p.text());
    }
    return out;
  }

  private Summary terms(Request request) {
    List<TopicTerms.Weighted> ranked = stats(request).rank(texts(request.leaves()));
    TokenCounter counter = request.counter();
    int cap = request.maxTokens();
    List<String> chosenKeys = new ArrayList<>();
    List<String> chosen = new ArrayList<>();
    for (TopicTerms.Weighted w : ranked) {
      if (chosen.size() >= 64) {
        break;
      }
      Set<String> words = new HashSet<>(Arrays.asList(w.key().split(" ")));
      int replace = -1;
      boolean redundant = false;
      for (int i = 0; i < chosenKeys.size(); i++) {
        Set<String> have = new HashSet<>(Arrays.asList(chosenKeys.get(i).split(" ")));
        if (have.containsAll(words)) {
          redundant = true;
          break;
        }
        if (words.containsAll(have) && replace < 0) {
          replace = i; // a phrase replaces its own word ("support" -> "support group")
        }
      }
      if (redundant) {
        continue;
      }
      List<String> next = new ArrayList<>(chosen);
      List<String> nextKeys = new ArrayList<>(chosenKeys);
      if (replace >= 0) {
        next.set(replace, w.surface());
        nextKeys.set(replace, w.key());
      } else {
        next.add(w.surface());
        nextKeys.add(w.key());
      }
      if (counter.count(String.join(", ", next)) > cap) {
        if (chosen.isEmpty()) {
          return new Summary(TextCut.fit(w.surface(), cap, counter), List.of());
        }
        continue; // a shorter term further down may still fit
      }
      chosen = next;
      chosenKeys = nextKeys;
    }
    return new Summary(String.join(", ", chosen), List.of());
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
