package dev.setree.internal.core;

/**
 * Loads, links and initialises classes by name before the code that uses them runs: work that a process's first
 * maintenance run would otherwise do while it is timed and waited for (docs/adr/0044-run-classes-loaded-on-open.md).
 * Each module lists the classes of its own part of a run.
 */
public final class ClassesAhead {
  private ClassesAhead() {}

  /**
   * Loads, links and initialises each named class with {@code anchor}'s class loader. A name without a dot is a
   * class of {@code anchor}'s package; a nested class is named with {@code $}.
   *
   * @throws IllegalStateException naming the first class that is not there (a list left behind by a rename)
   */
  public static void load(Class<?> anchor, String... names) {
    ClassLoader loader = anchor.getClassLoader();
    String pkg = anchor.getPackageName() + ".";
    for (String name : names) {
      String full = name.indexOf('.') < 0 ? pkg + name : name;
      try {
        Class.forName(full, true, loader);
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException("no class " + full + " to load ahead: the list in " + anchor.getName()
            + " names a class that is not there", e);
      }
    }
  }
}
