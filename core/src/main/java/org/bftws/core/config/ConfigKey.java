package org.bftws.core.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One typed configuration key: its name (as written in axis2.xml or on the command line), who reads it
 * ({@link ConfigScope}), its default, its parser and its validity rule, declared once in the manner of
 * Apache Ratis's {@code *_KEY}/{@code *_DEFAULT} pairs. The protocol's keys are declared in
 * {@link GroupConfig}; an embedding declares its own with these factories (the Axis2 module in its
 * {@code BftwsKeys}), handing in a parser for structures core does not know.
 */
public final class ConfigKey<T> {
  private final String name;
  private final ConfigScope scope;
  private final T defaultValue;
  private final Function<String, T> parser;
  private final Predicate<T> rule;
  private final String ruleText;
  private final Function<T, String> printer;

  private ConfigKey(String name, ConfigScope scope, T defaultValue, Function<String, T> parser, Predicate<T> rule,
      String ruleText, Function<T, String> printer) {
    this.name = Objects.requireNonNull(name);
    this.scope = Objects.requireNonNull(scope);
    this.defaultValue = defaultValue;
    this.parser = parser;
    this.rule = rule;
    this.ruleText = ruleText;
    this.printer = printer;
  }

  /**
   * A key of any type: {@code parser} turns the text into a value or throws (a {@link Refused} says why),
   * {@code ruleText} says what is allowed. {@code defaultValue} may be null: the key has no default.
   */
  public static <T> ConfigKey<T> of(String name, ConfigScope scope, T defaultValue, Function<String, T> parser,
      String ruleText, Function<T, String> printer) {
    return new ConfigKey<>(name, scope, defaultValue, parser, v -> true, ruleText, printer);
  }

  /** An integer from {@code min} to {@code max}, both included; {@code def} may be null (no default). */
  public static ConfigKey<Integer> integer(String name, ConfigScope scope, Integer def, int min, int max) {
    return new ConfigKey<>(name, scope, def, Integer::valueOf, v -> v >= min && v <= max,
        "an integer between " + min + " and " + max + " (from " + min + " to " + max + " inclusive)",
        String::valueOf);
  }

  /** true or false, in any case. */
  public static ConfigKey<Boolean> bool(String name, ConfigScope scope, boolean def) {
    return new ConfigKey<>(name, scope, def, ConfigKey::parseBool, v -> true, "true or false", String::valueOf);
  }

  /** One of an enum's constants, written as {@link #choiceText} and matched in any case. */
  public static <E extends Enum<E>> ConfigKey<E> choice(String name, ConfigScope scope, Class<E> type, E def) {
    List<String> allowed = new ArrayList<>();
    for (E e : type.getEnumConstants()) {
      allowed.add(choiceText(e));
    }
    return new ConfigKey<>(name, scope, def, text -> parseChoice(type, text), v -> true,
        "one of " + String.join("|", allowed), ConfigKey::choiceText);
  }

  /** An absolute http or https URL with a host; no default. */
  public static ConfigKey<URI> httpUrl(String name, ConfigScope scope) {
    return new ConfigKey<>(name, scope, null, ConfigKey::parseHttpUrl, v -> true,
        "an absolute http(s) URL with a host", URI::toString);
  }

  /** A file system path (whether the file is there is the embedding's check, at start-up); no default. */
  public static ConfigKey<Path> path(String name, ConfigScope scope) {
    return new ConfigKey<>(name, scope, null, ConfigKey::parsePath, v -> true, "a file path", Path::toString);
  }

  /**
   * A list of entries separated by whitespace or commas, each parsed by {@code entry} (say an
   * {@code id=endpoint} pair); no default. A refused entry is named in the error.
   */
  public static <E> ConfigKey<List<E>> list(String name, ConfigScope scope, Function<String, E> entry,
      Function<E, String> entryText, String entryRule) {
    return new ConfigKey<>(name, scope, null, text -> parseList(text, entry), v -> !v.isEmpty(),
        "whitespace- or comma-separated " + entryRule, v -> String.join(" ", v.stream().map(entryText).toList()));
  }

  /** An enum constant as written in configuration: lower case, '-' for '_' (BA_HARDENED is ba-hardened). */
  public static String choiceText(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  public String name() {
    return name;
  }

  public ConfigScope scope() {
    return scope;
  }

  /** The default, or null if the key has none (it is then required where it is read, or optional). */
  public T defaultValue() {
    return defaultValue;
  }

  /** What a value must be, in words ("an integer between 1 and 32 ..."). */
  public String ruleText() {
    return ruleText;
  }

  /** A value as it is written in configuration; parsing the result gives the value back. */
  public String text(T value) {
    return printer.apply(value);
  }

  /** The default as written in configuration, or "none" if the key has no default. */
  public String defaultText() {
    return defaultValue == null ? "none" : text(defaultValue);
  }

  /** Parses and validates a textual value; the exception names the key and the rule. */
  public T parse(String text) {
    T v;
    try {
      v = parser.apply(text.trim());
    } catch (Refused e) {
      throw ConfigException.refused(name, text, e.getMessage(), ruleText);
    } catch (RuntimeException e) {
      throw new ConfigException(name, text, ruleText);
    }
    if (v == null || !rule.test(v)) {
      throw new ConfigException(name, text, ruleText); // the text as written, not the parsed value
    }
    return v;
  }

  void check(T v) {
    if (v == null || !rule.test(v)) {
      throw new ConfigException(name, String.valueOf(v), ruleText);
    }
  }

  @Override
  public String toString() {
    return name;
  }

  /** Thrown by a parser to say why it refuses a text; {@link #parse} adds the key and the rule. */
  public static final class Refused extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public Refused(String reason) {
      super(reason);
    }
  }

  private static Boolean parseBool(String s) {
    String v = s.toLowerCase(Locale.ROOT);
    if (!v.equals("true") && !v.equals("false")) {
      throw new IllegalArgumentException(s);
    }
    return Boolean.valueOf(v);
  }

  private static <E extends Enum<E>> E parseChoice(Class<E> type, String text) {
    for (E e : type.getEnumConstants()) {
      if (choiceText(e).equalsIgnoreCase(text)) {
        return e;
      }
    }
    throw new IllegalArgumentException(text);
  }

  /** The parser of {@link #httpUrl} keys, for URLs inside the entries of other keys. */
  public static URI parseHttpUrl(String text) {
    URI uri;
    try {
      uri = new URI(text);
    } catch (URISyntaxException e) {
      throw new Refused("is not a URL");
    }
    String scheme = uri.getScheme();
    if (uri.getHost() == null || scheme == null
        || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))) {
      throw new Refused("lacks an http(s) scheme or a host");
    }
    return uri;
  }

  private static Path parsePath(String text) {
    try {
      return Path.of(text);
    } catch (InvalidPathException e) {
      throw new Refused("is not a valid path");
    }
  }

  private static <E> List<E> parseList(String text, Function<String, E> entry) {
    List<E> out = new ArrayList<>();
    for (String item : text.split("[\\s,]+")) {
      try {
        out.add(entry.apply(item));
      } catch (Refused e) {
        throw new Refused("has the entry '" + item + "', which " + e.getMessage());
      } catch (RuntimeException e) {
        throw new Refused("has the invalid entry '" + item + "'");
      }
    }
    return List.copyOf(out);
  }
}
