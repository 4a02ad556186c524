package org.bftws.core.config;

import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One typed configuration key: its name (as written in axis2.xml or on the command line), its default,
 * its parser and its validity rule. Declared once, in {@link GroupConfig}, in the manner of Apache
 * Ratis's {@code *_KEY}/{@code *_DEFAULT} pairs.
 */
public final class ConfigKey<T> {
  private final String name;
  private final T defaultValue;
  private final Function<String, T> parser;
  private final Predicate<T> rule;
  private final String ruleText;

  ConfigKey(String name, T defaultValue, Function<String, T> parser, Predicate<T> rule, String ruleText) {
    this.name = name;
    this.defaultValue = defaultValue;
    this.parser = parser;
    this.rule = rule;
    this.ruleText = ruleText;
  }

  static ConfigKey<Integer> integer(String name, int def, int min, int max) {
    return new ConfigKey<>(name, def, Integer::valueOf, v -> v >= min && v <= max,
        "an integer from " + min + " to " + max);
  }

  static ConfigKey<Boolean> bool(String name, boolean def) {
    return new ConfigKey<>(name, def, ConfigKey::parseBool, v -> true, "true or false");
  }

  private static Boolean parseBool(String s) {
    if (!s.equals("true") && !s.equals("false")) {
      throw new IllegalArgumentException(s);
    }
    return Boolean.valueOf(s);
  }

  public String name() {
    return name;
  }

  public T defaultValue() {
    return defaultValue;
  }

  /** Parses and validates a textual value; the exception names the key and the rule. */
  public T parse(String text) {
    T v;
    try {
      v = parser.apply(text.trim());
    } catch (RuntimeException e) {
      throw new ConfigException(name, text, ruleText);
    }
    check(v);
    return v;
  }

  void check(T v) {
    if (v == null || !rule.test(v)) {
      throw new ConfigException(name, String.valueOf(v), ruleText);
    }
  }
}
