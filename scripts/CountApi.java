import java.io.File;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Counts the public surface of SETree's library modules: public types (top-level or nested in a public type)
 * and their public methods (declared, not synthetic; constructors not counted), per package. The modules
 * counted are the ones under setree-cli (setree-langchain4j, an adapter whose classes need langchain4j-core,
 * is left out).
 *
 * <p>Run after {@code mvn -o -q package -DskipTests -pl setree-cli -am}:
 * {@code java scripts/CountApi.java [PACKAGE...]}; with no package every library package is counted, with
 * packages (e.g. {@code dev.setree dev.setree.spi}) only those. Prints one line per package and a total.
 */
public class CountApi {
  static final String[] MODULES = {"setree-core", "setree-embed", "setree-store", "setree-maintain",
      "setree-retrieve", "setree-mcp"};

  public static void main(String[] args) throws Exception {
    List<URL> urls = new ArrayList<>();
    List<Path> roots = new ArrayList<>();
    for (String m : MODULES) {
      Path p = Path.of(m, "target", "classes");
      roots.add(p);
      urls.add(p.toUri().toURL());
    }
    File[] libs = new File("setree-cli/target/lib").listFiles();
    if (libs != null) {
      for (File f : libs) {
        urls.add(f.toURI().toURL());
      }
    }
    List<String> only = List.of(args);
    TreeMap<String, int[]> counts = new TreeMap<>();
    try (URLClassLoader cl = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
      for (Path root : roots) {
        List<Path> files;
        try (Stream<Path> s = Files.walk(root)) {
          files = s.filter(f -> f.toString().endsWith(".class")).toList();
        }
        for (Path f : files) {
          String rel = root.relativize(f).toString();
          String name = rel.substring(0, rel.length() - 6).replace(File.separatorChar, '.');
          String pkg = name.substring(0, name.lastIndexOf('.'));
          if (!only.isEmpty() && !only.contains(pkg) || name.endsWith("package-info")
              || name.endsWith("module-info")) {
            continue;
          }
          Class<?> c = Class.forName(name, false, cl);
          if (c.isAnonymousClass() || c.isLocalClass() || c.isSynthetic() || !reachable(c)) {
            continue;
          }
          int methods = 0;
          for (Method m : c.getDeclaredMethods()) {
            if (Modifier.isPublic(m.getModifiers()) && !m.isSynthetic() && !m.isBridge()) {
              methods++;
            }
          }
          int[] n = counts.computeIfAbsent(pkg, k -> new int[2]);
          n[0]++;
          n[1] += methods;
        }
      }
    }
    int types = 0;
    int methods = 0;
    for (var e : counts.entrySet()) {
      System.out.printf("%-28s %4d types %5d methods%n", e.getKey(), e.getValue()[0], e.getValue()[1]);
      types += e.getValue()[0];
      methods += e.getValue()[1];
    }
    System.out.printf("%-28s %4d types %5d methods%n", "total", types, methods);
  }

  /** Public, and every enclosing type public too. */
  static boolean reachable(Class<?> c) {
    for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
      if (!Modifier.isPublic(k.getModifiers())) {
        return false;
      }
    }
    return true;
  }
}
