package dev.setree.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A JUnit 5 extension that hands a test a fresh knowledge-base file path, in its own temporary folder that
 * is deleted when the test ends. Use {@code @ExtendWith(TempKnowledgeBase.class)} and a parameter
 * {@code @TempKnowledgeBase.File Path kb}; the file does not exist yet.
 */
public final class TempKnowledgeBase implements ParameterResolver {
  private static final ExtensionContext.Namespace NS =
      ExtensionContext.Namespace.create(TempKnowledgeBase.class);

  /** Marks a {@link Path} parameter that receives a fresh knowledge-base file. */
  @Target(ElementType.PARAMETER)
  @Retention(RetentionPolicy.RUNTIME)
  public @interface File {}

  @Override
  public boolean supportsParameter(ParameterContext pc, ExtensionContext ec) {
    return pc.getParameter().getType() == Path.class && pc.isAnnotated(File.class);
  }

  @Override
  public Object resolveParameter(ParameterContext pc, ExtensionContext ec) {
    try {
      Path dir = Files.createTempDirectory("setree-kb-");
      ec.getStore(NS).put(dir.toString(), (ExtensionContext.Store.CloseableResource) () -> deleteTree(dir));
      return dir.resolve("kb.db");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temporary knowledge-base folder", e);
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
