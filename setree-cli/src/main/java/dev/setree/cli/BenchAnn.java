package dev.setree.cli;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.LeafNeighbours;
import dev.setree.internal.core.Ranking;
import dev.setree.internal.core.Tree;
import dev.setree.internal.embed.MiniLmEmbedder;
import dev.setree.internal.store.SqliteTreeStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.store.ByteBuffersDirectory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code setree bench ann}: the nearest-leaf index of the candidate path against the exact scan and Lucene's
 * HNSW, on one knowledge base: recall@K of the exact top K, and latency per prompt (docs/adr/0018).
 */
@Command(name = "ann", mixinStandardHelpOptions = true,
    description = "Approximate nearest leaves: the tree-seeded kNN-graph search vs Lucene HNSW vs the exact scan.")
final class BenchAnn implements Callable<Integer> {
  @Option(names = "--db", required = true, description = "A knowledge base built with the MiniLM embedder.")
  Path db;

  @Option(names = "--corpus", defaultValue = "corpus/sotu-sentences.txt",
      description = "Prompts: the last --prompts sentences of this file, first 12 words.")
  Path corpus;

  @Option(names = "--prompts", defaultValue = "200", description = "Prompts.")
  int prompts;

  @Option(names = "--k", defaultValue = "256", description = "Nearest leaves wanted (recall@K).")
  int k;

  @Option(names = "--ef", split = ",", defaultValue = "256,512", description = "Search beams to try.")
  List<Integer> efs;

  @Option(names = "--hnsw-m", defaultValue = "16", description = "Lucene HNSW: neighbours per node.")
  int hnswM;

  @Option(names = "--hnsw-beam", defaultValue = "100", description = "Lucene HNSW: construction beam.")
  int hnswBeam;

  @Option(names = "--json", description = "Write the figures as JSON here.")
  Path json;

  @Override
  public Integer call() throws Exception {
    Tree tree;
    HierarchyState hierarchy;
    try (SqliteTreeStore store = SqliteTreeStore.openReadOnly(db)) {
      var state = store.load();
      tree = state.tree();
      hierarchy = state.hierarchy();
    }
    List<String> lines = FactsFile.readLines(corpus).stream().filter(s -> !s.isBlank()).toList();
    List<String> held = new ArrayList<>();
    for (int i = Math.max(0, lines.size() - prompts); i < lines.size(); i++) {
      held.add(BenchLadder.truncate(lines.get(i)));
    }
    int n = tree.leafCount();
    int dim = tree.dimension();
    ProgressBar bar = ProgressBar.onStderr();
    float[][] qs = new float[held.size()][];
    try (MiniLmEmbedder e = MiniLmEmbedder.load()) {
      for (int i = 0; i < qs.length; i++) {
        qs[i] = e.embed(held.get(i));
        bar.update("embedding prompts", i + 1, qs.length);
      }
    }
    bar.finish();
    int[][] truth = new int[qs.length][];
    double[] exactMs = new double[qs.length];
    for (int i = 0; i < qs.length; i++) {
      long t0 = System.nanoTime();
      float[] cos = new float[n];
      for (int v = 0; v < n; v++) {
        cos[v] = tree.embeddingDot(v, qs[i]);
      }
      truth[i] = Arrays.copyOf(Ranking.descending(cos), Math.min(k, n));
      exactMs[i] = (System.nanoTime() - t0) / 1e6;
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("leaves", n);
    out.put("k", k);
    out.put("prompts", qs.length);
    out.put("exact_scan_p50_ms", percentile(exactMs, 0.5));
    System.out.printf(Locale.ROOT, "%d leaves, %d prompts, recall@%d of the exact top %d%n", n, qs.length, k, k);
    System.out.printf(Locale.ROOT, "  exact scan: P50 %.3f ms%n", percentile(exactMs, 0.5));
    long t0 = System.nanoTime();
    LeafNeighbours graph = LeafNeighbours.of(tree, hierarchy);
    out.put("graph_derive_ms", (System.nanoTime() - t0) / 1e6);
    LeafNeighbours descentOnly = LeafNeighbours.of(tree, HierarchyState.empty());
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int ef : efs) {
      if (graph.hasGraph()) {
        rows.add(measure("tree-seeded kNN graph", ef, q -> graph.search(q, k, ef).leaves(), qs, truth));
      }
      rows.add(measure("tree descent only", ef, q -> descentOnly.search(q, k, ef).leaves(), qs, truth));
    }
    t0 = System.nanoTime();
    try (ByteBuffersDirectory dir = new ByteBuffersDirectory()) {
      IndexWriterConfig cfg = new IndexWriterConfig()
          .setCodec(new org.apache.lucene.codecs.lucene912.Lucene912Codec() {
            @Override
            public org.apache.lucene.codecs.KnnVectorsFormat getKnnVectorsFormatForField(String field) {
              return new org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat(hnswM, hnswBeam);
            }
          });
      cfg.setRAMBufferSizeMB(1024);
      try (IndexWriter w = new IndexWriter(dir, cfg)) {
        for (int v = 0; v < n; v++) {
          Document d = new Document();
          d.add(new KnnFloatVectorField("v", tree.embedding(v), VectorSimilarityFunction.DOT_PRODUCT));
          d.add(new StoredField("leaf", v));
          w.addDocument(d);
          if ((v & 1023) == 0 || v == n - 1) {
            bar.update("Lucene HNSW build", v + 1, n);
          }
        }
        w.forceMerge(1);
      }
      bar.finish();
      double buildS = (System.nanoTime() - t0) / 1e9;
      out.put("hnsw_build_s", buildS);
      System.out.printf(Locale.ROOT, "  Lucene HNSW (M %d, beam %d): built in %.1f s%n", hnswM, hnswBeam, buildS);
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        IndexSearcher searcher = new IndexSearcher(reader);
        int[] leafOfDoc = new int[n];
        for (int doc = 0; doc < n; doc++) {
          leafOfDoc[doc] = reader.storedFields().document(doc).getField("leaf").numericValue().intValue();
        }
        for (int ef : efs) {
          rows.add(measure("Lucene HNSW", ef, q -> {
            try {
              ScoreDoc[] hits = searcher.search(new KnnFloatVectorQuery("v", q, Math.max(ef, k)), Math.max(ef, k))
                  .scoreDocs;
              int[] leaves = new int[Math.min(k, hits.length)];
              for (int i = 0; i < leaves.length; i++) {
                leaves[i] = leafOfDoc[hits[i].doc];
              }
              return leaves;
            } catch (IOException ex) {
              throw new java.io.UncheckedIOException(ex);
            }
          }, qs, truth));
        }
      }
    }
    out.put("rows", rows);
    if (json != null) {
      Files.writeString(json, new com.fasterxml.jackson.databind.ObjectMapper().writerWithDefaultPrettyPrinter()
          .writeValueAsString(out));
      System.out.println("wrote " + json);
    }
    return 0;
  }

  private static Map<String, Object> measure(String index, int ef, java.util.function.Function<float[], int[]> search,
      float[][] qs, int[][] truth) {
    for (int i = 0; i < Math.min(20, qs.length); i++) {
      search.apply(qs[i]); // warm-up
    }
    double[] ms = new double[qs.length];
    double recall = 0;
    for (int i = 0; i < qs.length; i++) {
      long t0 = System.nanoTime();
      int[] found = search.apply(qs[i]);
      ms[i] = (System.nanoTime() - t0) / 1e6;
      int[] want = truth[i].clone();
      Arrays.sort(want);
      int hit = 0;
      for (int v : found) {
        if (Arrays.binarySearch(want, v) >= 0) {
          hit++;
        }
      }
      recall += want.length == 0 ? 1 : (double) hit / want.length;
    }
    recall /= qs.length;
    System.out.printf(Locale.ROOT, "  %-22s ef %4d: recall %.4f, P50 %.3f ms, P99 %.3f ms%n", index, ef, recall,
        percentile(ms, 0.5), percentile(ms, 0.99));
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("index", index);
    row.put("ef", ef);
    row.put("recall", recall);
    row.put("p50_ms", percentile(ms, 0.5));
    row.put("p99_ms", percentile(ms, 0.99));
    return row;
  }

  private static double percentile(double[] xs, double p) {
    double[] s = xs.clone();
    Arrays.sort(s);
    return Evaluation.percentile(s, p);
  }
}
