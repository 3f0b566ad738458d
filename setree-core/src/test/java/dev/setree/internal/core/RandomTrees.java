package dev.setree.internal.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import dev.setree.spi.TokenCounter;

/**
 * Random valid {@link Tree}s for property tests, built the way the real builder does: leaves first, then
 * internal nodes bottom-up by grouping the current level's members at random into groups of 1..10 (a
 * singleton group carries its member forward), until one root remains.
 */
final class RandomTrees {
  /** Embedding dimension of every generated tree. */
  static final int DIM = 8;

  /**
   * A whitespace-additive token counter: one token per whitespace-separated chunk plus one per punctuation
   * character. The count of two texts joined by whitespace is the sum of their counts.
   */
  static final TokenCounter COUNTER = RandomTrees::countTokens;

  private static final String PUNCT = ".,:;!?-()";

  private static final String[] VOCAB = {
    "alpha", "beta", "gamma", "delta", "river", "stone", "cloud", "north", "paper", "seven",
    "engine", "quiet", "amber", "tower", "signal", "harbor", "orbit", "lemon", "copper", "field",
    "e.g.", "done.", "yes,", "well-known", "(note)", "what?!", "x:y", "end;"
  };

  private RandomTrees() {}

  static int countTokens(String text) {
    int n = 0;
    boolean inChunk = false;
    for (int i = 0; i < text.length(); i++) {
      char ch = text.charAt(i);
      if (Character.isWhitespace(ch)) {
        inChunk = false;
        continue;
      }
      if (!inChunk) {
        n++;
        inChunk = true;
      }
      if (PUNCT.indexOf(ch) >= 0) {
        n++;
      }
    }
    return n;
  }

  /** A random tree with 1..400 leaves. */
  static Tree tree(long seed) {
    Random rnd = new Random(seed);
    return tree(rnd, 1 + rnd.nextInt(400));
  }

  /** A random tree with exactly {@code leaves} leaves (>= 1). */
  static Tree tree(Random rnd, int leaves) {
    List<String> texts = new ArrayList<>();
    List<float[]> emb = new ArrayList<>();
    List<Integer> parent = new ArrayList<>();
    List<Integer> level = new ArrayList<>();
    List<List<Integer>> leavesUnder = new ArrayList<>();
    for (int i = 0; i < leaves; i++) {
      texts.add(words(rnd, 1 + rnd.nextInt(30)));
      emb.add(unit(rnd));
      parent.add(-1);
      level.add(0);
      leavesUnder.add(List.of(i));
    }
    List<Integer> members = new ArrayList<>();
    for (int i = 0; i < leaves; i++) {
      members.add(i);
    }
    int lvl = 0;
    if (leaves == 1 && rnd.nextBoolean()) {
      // A single leaf under a root with one child (the other option is the leaf alone as root).
      addInternal(rnd, List.of(0), 1, texts, emb, parent, level, leavesUnder);
    }
    while (members.size() > 1) {
      lvl++;
      List<Integer> next;
      do {
        Collections.shuffle(members, rnd);
        next = new ArrayList<>();
        List<List<Integer>> groups = new ArrayList<>();
        for (int i = 0; i < members.size(); ) {
          int g = Math.min(1 + rnd.nextInt(10), members.size() - i);
          groups.add(new ArrayList<>(members.subList(i, i + g)));
          i += g;
        }
        if (groups.size() == members.size()) {
          continue; // all singletons: no progress, group again
        }
        for (List<Integer> group : groups) {
          if (group.size() == 1) {
            next.add(group.get(0)); // carried forward to the next level
          } else {
            next.add(addInternal(rnd, group, lvl, texts, emb, parent, level, leavesUnder));
          }
        }
      } while (next.isEmpty());
      members = next;
    }
    int n = texts.size();
    String[] ids = new String[n];
    String[] textArr = new String[n];
    String[] kinds = new String[n];
    int[] tokens = new int[n];
    int[] levelArr = new int[n];
    int[] parentArr = new int[n];
    float[] embeddings = new float[n * DIM];
    float[] centroids = new float[(n - leaves) * DIM];
    int[] faith = new int[n];
    int[][] sources = new int[n][];
    for (int v = 0; v < n; v++) {
      ids[v] = (v < leaves ? "leaf-" : "node-") + v;
      textArr[v] = texts.get(v);
      tokens[v] = COUNTER.count(texts.get(v));
      levelArr[v] = level.get(v);
      parentArr[v] = parent.get(v);
      System.arraycopy(emb.get(v), 0, embeddings, v * DIM, DIM);
      if (v < leaves) {
        faith[v] = 100;
      } else {
        kinds[v] = "random";
        float[] c = new float[DIM];
        for (int leaf : leavesUnder.get(v)) {
          Vectors.addScaled(c, emb.get(leaf), 0, DIM, 1f);
        }
        Vectors.normalize(c);
        System.arraycopy(c, 0, centroids, (v - leaves) * DIM, DIM);
        faith[v] = rnd.nextInt(8) == 0 ? Tree.UNKNOWN_FAITHFULNESS : rnd.nextInt(201) - 100;
      }
    }
    // Sources: some summaries quote leaves under them whole; the quoted text is really in the summary.
    for (int v = leaves; v < n; v++) {
      if (rnd.nextInt(3) == 0) {
        List<Integer> under = new ArrayList<>(leavesUnder.get(v));
        Collections.shuffle(under, rnd);
        int k = 1 + rnd.nextInt(Math.min(3, under.size()));
        int[] src = new int[k];
        StringBuilder sb = new StringBuilder(textArr[v]);
        for (int i = 0; i < k; i++) {
          src[i] = under.get(i);
          sb.append(' ').append(textArr[src[i]]);
        }
        sources[v] = src;
        textArr[v] = sb.toString();
        tokens[v] = COUNTER.count(textArr[v]);
      }
    }
    return new Tree(DIM, leaves, ids, textArr, null, kinds, tokens, levelArr, parentArr, embeddings,
        centroids, faith, sources);
  }

  private static int addInternal(Random rnd, List<Integer> group, int lvl, List<String> texts,
      List<float[]> emb, List<Integer> parent, List<Integer> level, List<List<Integer>> leavesUnder) {
    int v = texts.size();
    texts.add(words(rnd, 1 + rnd.nextInt(12)));
    emb.add(unit(rnd));
    parent.add(-1);
    level.add(lvl);
    List<Integer> under = new ArrayList<>();
    for (int c : group) {
      parent.set(c, v);
      under.addAll(leavesUnder.get(c));
    }
    leavesUnder.add(under);
    return v;
  }

  static String words(Random rnd, int k) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < k; i++) {
      if (i > 0) {
        sb.append(' ');
      }
      sb.append(VOCAB[rnd.nextInt(VOCAB.length)]);
    }
    return sb.toString();
  }

  /** A random unit vector of dimension {@link #DIM}. */
  static float[] unit(Random rnd) {
    float[] v = new float[DIM];
    double s;
    do {
      s = 0;
      for (int i = 0; i < DIM; i++) {
        v[i] = (float) rnd.nextGaussian();
        s += v[i] * v[i];
      }
    } while (s < 1e-6);
    return Vectors.normalize(v);
  }
}
