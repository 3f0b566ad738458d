package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ClassesAheadTest {
  /** Set by {@link Probe}'s static initialiser (read here, so that reading it does not initialise the probe). */
  static volatile boolean probeInitialised;

  static final class Probe {
    static {
      probeInitialised = true;
    }
  }

  @Test
  void aSimpleNameIsAClassOfTheAnchorsPackageAndIsInitialised() {
    assertFalse(probeInitialised);
    ClassesAhead.load(ClassesAheadTest.class, "ClassesAheadTest$Probe", "dev.setree.spi.Passage");
    assertTrue(probeInitialised);
  }

  @Test
  void aMissingClassIsNamed() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> ClassesAhead.load(ClassesAheadTest.class, "Tree", "NoSuchRunClass"));
    assertTrue(e.getMessage().contains("dev.setree.internal.core.NoSuchRunClass"), e.getMessage());
    assertTrue(e.getMessage().contains(ClassesAheadTest.class.getName()), e.getMessage());
  }
}
