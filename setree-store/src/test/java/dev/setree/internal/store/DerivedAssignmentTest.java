package dev.setree.internal.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Whether a level's assignment is stored: the check without a map agrees with numbering the parent ids. */
class DerivedAssignmentTest {

  @Test
  void theCheckAgreesWithTheNumberingOnRandomLevels() {
    Random r = new Random(11);
    int derivable = 0;
    for (int round = 0; round < 3_000; round++) {
      int n = 1 + r.nextInt(40);
      int parents = 1 + r.nextInt(n);
      String[] parentIds = new String[n];
      for (int i = 0; i < n; i++) {
        parentIds[i] = new String("_n" + r.nextInt(parents)); // equal ids, not always the same object
      }
      int[] assignment = OracleRows.derivedAssignment(parentIds);
      switch (r.nextInt(5)) {
        case 0 -> assignment[r.nextInt(n)] = r.nextInt(parents + 1); // maybe another community
        case 1 -> { // two communities' numbers swapped
          int a = r.nextInt(parents);
          int b = r.nextInt(parents);
          for (int i = 0; i < n; i++) {
            assignment[i] = assignment[i] == a ? b : assignment[i] == b ? a : assignment[i];
          }
        }
        case 2 -> assignment[r.nextInt(n)] = -1;
        default -> { } // as derived
      }
      boolean expected = Arrays.equals(OracleRows.derivedAssignment(parentIds), assignment);
      assertEquals(expected, OracleRows.derivable(parentIds, assignment),
          Arrays.toString(parentIds) + " " + Arrays.toString(assignment));
      derivable += expected ? 1 : 0;
    }
    assertTrue(derivable > 1_000 && derivable < 2_900, "both answers were tried: " + derivable);
  }

  @Test
  void twoCommunitiesUnderOneParentAreNotDerivable() {
    assertFalse(OracleRows.derivable(new String[] {"p", "p"}, new int[] {0, 1}));
    assertFalse(OracleRows.derivable(new String[] {"p", "q"}, new int[] {0, 0}));
    assertFalse(OracleRows.derivable(new String[] {"p"}, null));
    assertTrue(OracleRows.derivable(new String[] {"p", "q", "p"}, new int[] {0, 1, 0}));
  }
}
