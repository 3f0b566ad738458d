package dev.setree;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * One setting of {@link SETreeConfig}: its key in the JSON file (docs/config.md), its Java type, its default and
 * its check. The builder, {@link RetrieveOptions}' per-call overrides and {@link ConfigFile} all check a value
 * here, so a bad value gets the same message wherever it comes from: {@code KEY must be RANGE, got VALUE} (the
 * file adds its name: {@code config key 'KEY' in FILE must be RANGE, got VALUE}).
 *
 * @param <T> the Java type of the value
 */
abstract class Setting<T> {
  /** The dotted key of the JSON file, for example {@code calibration.beta}. */
  final String key;
  /** The value when none is given. */
  final T defaultValue;
  private final BiConsumer<SETreeConfig.Builder, T> apply;
  private final Function<SETreeConfig, T> get;

  private Setting(String key, T defaultValue, BiConsumer<SETreeConfig.Builder, T> apply,
      Function<SETreeConfig, T> get) {
    this.key = key;
    this.defaultValue = defaultValue;
    this.apply = apply;
    this.get = get;
  }

  /** The key's section in the file ({@code calibration}), or "" for a top-level key. */
  String section() {
    int dot = key.indexOf('.');
    return dot < 0 ? "" : key.substring(0, dot);
  }

  /** The key within its section ({@code beta}). */
  String name() {
    return key.substring(key.indexOf('.') + 1);
  }

  /**
   * Why {@code v} is refused, as {@code must be ..., got ...}, or null when it is allowed.
   */
  abstract String problem(T v);

  /**
   * Returns {@code v} if it is allowed.
   *
   * @throws IllegalArgumentException {@code KEY must be RANGE, got VALUE}
   */
  final T check(T v) {
    String p = v == null ? "must be given, got null" : problem(v);
    if (p != null) {
      throw new IllegalArgumentException(key + " " + p);
    }
    return v;
  }

  /**
   * The value of a JSON node, or a problem phrase ({@code must be ..., got ...}) in {@link Read#problem}.
   */
  abstract Read<T> read(JsonNode v);

  /** The value of a JSON node, checked: a problem phrase when it has the wrong type or is not allowed. */
  final Read<T> readChecked(JsonNode v) {
    Read<T> r = read(v);
    return r.problem != null ? r : new Read<>(r.value, problem(r.value));
  }

  /** Sets a value on a config builder (a setting of {@link SETreeConfig.Builder}; checked by its build). */
  final void apply(SETreeConfig.Builder b, T v) {
    apply.accept(b, v);
  }

  /** The value in a config. */
  final T get(SETreeConfig c) {
    return get.apply(c);
  }

  /** A value read from JSON, or why it could not be. */
  record Read<T>(T value, String problem) {
    static <T> Read<T> of(T v) {
      return new Read<>(v, null);
    }

    static <T> Read<T> refused(String problem) {
      return new Read<>(null, problem);
    }

    static <T> Read<T> wrongType(String expected, JsonNode v) {
      return refused("must be " + expected + ", got " + v + " (" + kind(v) + ")");
    }
  }

  /** A finite number in a range; {@code min} excluded when {@code minExcluded} (only the range text says so). */
  static final class Decimal extends Setting<Double> {
    private final double min;
    private final double max;
    private final String range;

    Decimal(String key, double defaultValue, double min, double max, String range,
        BiConsumer<SETreeConfig.Builder, Double> apply,
        Function<SETreeConfig, Double> get) {
      super(key, defaultValue, apply, get);
      this.min = min;
      this.max = max;
      this.range = range;
    }

    @Override
    String problem(Double v) {
      if (!Double.isFinite(v)) {
        return "must be a finite number, got " + v;
      }
      return v < min || v > max ? "must be " + range + ", got " + fmt(v) : null;
    }

    @Override
    Read<Double> read(JsonNode v) {
      if (!v.isNumber()) {
        return Read.wrongType("a number", v);
      }
      double d = v.decimalValue().doubleValue();
      return Double.isFinite(d) ? Read.of(d) : Read.refused("must be a finite number, got " + v.asText());
    }
  }

  /** An integer in {@code [min, max]}; {@code max} of {@link Integer#MAX_VALUE} means no upper bound. */
  static final class Whole extends Setting<Long> {
    private final long min;
    private final long max;

    Whole(String key, long defaultValue, long min, long max, BiConsumer<SETreeConfig.Builder, Long> apply,
        Function<SETreeConfig, Long> get) {
      super(key, defaultValue, apply, get);
      this.min = min;
      this.max = max;
    }

    /** {@link #check(Object)} for an {@code int} field. */
    int checkInt(int v) {
      return (int) (long) check((long) v);
    }

    @Override
    String problem(Long v) {
      return v < min || v > max ? outOfRange(v.toString(), v < min) : null;
    }

    private String outOfRange(String got, boolean below) {
      String range = max == Integer.MAX_VALUE && below ? ">= " + min : "in [" + min + ", " + max + "]";
      return "must be " + range + ", got " + got;
    }

    @Override
    Read<Long> read(JsonNode v) {
      if (!v.isNumber()) {
        return Read.wrongType("an integer", v);
      }
      BigDecimal d = v.decimalValue();
      if (d.signum() != 0 && d.stripTrailingZeros().scale() > 0) {
        return Read.refused("must be an integer, got " + v.asText());
      }
      if (d.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) < 0 || d.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
        return Read.refused(outOfRange(v.asText(), d.signum() < 0));
      }
      return Read.of(d.longValueExact());
    }
  }

  /** True or false. */
  static final class Flag extends Setting<Boolean> {
    Flag(String key, boolean defaultValue, BiConsumer<SETreeConfig.Builder, Boolean> apply,
        Function<SETreeConfig, Boolean> get) {
      super(key, defaultValue, apply, get);
    }

    @Override
    String problem(Boolean v) {
      return null;
    }

    @Override
    Read<Boolean> read(JsonNode v) {
      return v.isBoolean() ? Read.of(v.asBoolean()) : Read.wrongType("true or false", v);
    }
  }

  /** One of a list of names. */
  static final class Choice extends Setting<String> {
    private final List<String> names;

    Choice(String key, String defaultValue, List<String> names, BiConsumer<SETreeConfig.Builder, String> apply,
        Function<SETreeConfig, String> get) {
      super(key, defaultValue, apply, get);
      this.names = names;
    }

    @Override
    String problem(String v) {
      return names.contains(v) ? null : "must be one of " + String.join(", ", names) + ", got '" + v + "'";
    }

    @Override
    Read<String> read(JsonNode v) {
      return v.isTextual() ? Read.of(v.asText()) : Read.wrongType("a string", v);
    }
  }

  /** The second hop: 0 (off), 1 or 2 leaves; the file writes 0 as {@code "off"} (or 0). */
  static final class Hops extends Setting<Integer> {
    Hops(String key, BiConsumer<SETreeConfig.Builder, Integer> apply,
        Function<SETreeConfig, Integer> get) {
      super(key, 0, apply, get);
    }

    @Override
    String problem(Integer v) {
      return v < 0 || v > 2 ? refusal(v.toString()) : null;
    }

    private static String refusal(String got) {
      return "must be \"off\", 1 or 2 (0 is off), got " + got;
    }

    @Override
    Read<Integer> read(JsonNode v) {
      if (v.isTextual() && v.asText().equals("off")) {
        return Read.of(0);
      }
      if (v.isIntegralNumber() && v.canConvertToInt()) {
        return Read.of(v.asInt());
      }
      return Read.refused(refusal(v.toString()));
    }
  }

  /** A number as the messages print it: {@code 2}, not {@code 2.0}. */
  static String fmt(double d) {
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
  }

  static String kind(JsonNode v) {
    return switch (v.getNodeType()) {
      case STRING -> "a string";
      case NUMBER -> "a number";
      case BOOLEAN -> "a boolean";
      case NULL -> "null";
      case ARRAY -> "an array";
      case OBJECT -> "an object";
      default -> v.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
    };
  }
}
