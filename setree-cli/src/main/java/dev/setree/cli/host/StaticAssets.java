package dev.setree.cli.host;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The page's files, read once from this package's resources: {@code index.html}, {@code app.js},
 * {@code app.css}. They hold no knowledge-base text and no token, so they are served without one; all
 * data comes from the API, and the script puts it in the page as text, never as markup.
 */
final class StaticAssets {
  private static final Map<String, String> FILES = Map.of(
      "/", "index.html",
      "/index.html", "index.html",
      "/app.js", "app.js",
      "/app.css", "app.css");

  void register(Map<String, WebHost.Route> routes) {
    for (Map.Entry<String, String> f : FILES.entrySet()) {
      String name = f.getValue();
      byte[] bytes = read(name);
      String type = name.endsWith(".js") ? "text/javascript; charset=utf-8"
          : name.endsWith(".css") ? "text/css; charset=utf-8" : "text/html; charset=utf-8";
      routes.put("GET " + f.getKey(), ex -> Exchanges.send(ex, 200, type, bytes));
    }
  }

  private static byte[] read(String name) {
    try (InputStream in = StaticAssets.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("the web host's resource " + name + " is missing from the jar");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
