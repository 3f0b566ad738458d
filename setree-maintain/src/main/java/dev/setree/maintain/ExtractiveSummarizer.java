package dev.setree.maintain;

import dev.setree.core.Passage;
import dev.setree.core.Summarizer;
import dev.setree.core.Vectors;
import java.util.ArrayList;
import java.util.List;

/**
 * The embedded default {@link Summarizer}: needs no network. It picks the most representative leaves under
 * a node by maximal marginal relevance (Carbonell and Goldstein, SIGIR 1998): first the leaf closest to
 * the node's leaf-centroid, then leaves that are close to the centroid and not redundant with those already
 * picked, until the node's token cap is reached. Leaves are quoted whole; the last one is cut at a word
 * boundary when nothing whole fits.
 */
public final class ExtractiveSummarizer implements Summarizer {
  /** Weight of redundancy against the already picked leaves. */
  static final float REDUNDANCY = 0.5f;
  private static final int MAX_CANDIDATES = 4096;

  @Override
  public String kind() {
    return "extractive";
  }

  @Override
  public Summary summarize(Request request) {
    List<Passage> leaves = request.leaves();
    int n = leaves.size();
    float[] rel = new float[n];
    for (int i = 0; i < n; i++) {
      rel[i] = Vectors.dot(leaves.get(i).embedding(), request.centroid());
    }
    // Very large nodes: consider only the leaves closest to the centroid.
    List<Integer> cand = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      cand.add(i);
    }
    cand.sort((a, b) -> rel[a] != rel[b] ? Float.compare(rel[b], rel[a]) : Integer.compare(a, b));
    if (cand.size() > MAX_CANDIDATES) {
      cand = new ArrayList<>(cand.subList(0, MAX_CANDIDATES));
    }
    float[] maxSim = new float[n];
    java.util.Arrays.fill(maxSim, -1f);
    StringBuilder text = new StringBuilder();
    List<String> sources = new ArrayList<>();
    int used = 0;
    var counter = request.counter();
    int cap = request.maxTokens();
    boolean[] tried = new boolean[n];
    while (true) {
      int best = -1;
      float bestScore = Float.NEGATIVE_INFINITY;
      for (int i : cand) {
        if (tried[i]) {
          continue;
        }
        float score = rel[i] - (sources.isEmpty() ? 0f : REDUNDANCY * maxSim[i]);
        if (score > bestScore) {
          bestScore = score;
          best = i;
        }
      }
      if (best < 0) {
        break;
      }
      tried[best] = true;
      Passage p = leaves.get(best);
      String sentence = p.text().strip().replaceAll("\\s+", " ");
      int cost = counter.count(sentence);
      if (used + cost <= cap) {
        if (text.length() > 0) {
          text.append(' ');
        }
        text.append(sentence);
        used += cost;
        sources.add(p.id());
        for (int i : cand) {
          maxSim[i] = Math.max(maxSim[i], Vectors.dot(leaves.get(i).embedding(), p.embedding()));
        }
      } else if (sources.isEmpty()) {
        // Nothing whole fits: the most representative leaf, cut.
        text.append(TextCut.fit(sentence, cap, counter));
        break;
      } else {
        break;
      }
    }
    return new Summary(text.toString(), List.copyOf(sources));
  }
}
