package org.bftws.core.config;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Typed values of declared {@link ConfigKey}s, read from text: a key that was not given reads as its
 * default (null if it has none). Immutable.
 */
public final class ConfigValues {
  private final Map<ConfigKey<?>, Object> values;

  private ConfigValues(Map<ConfigKey<?>, Object> values) {
    this.values = values;
  }

  /**
   * Parses each of {@code keys} given in {@code text} (name → value as written; a blank value counts as not
   * given), in the order of {@code keys}; other names in {@code text} are left alone.
   *
   * @throws ConfigException naming the first key whose value is wrong
   */
  public static ConfigValues read(Map<String, String> text, List<? extends ConfigKey<?>> keys) {
    Map<ConfigKey<?>, Object> values = new HashMap<>();
    for (ConfigKey<?> key : keys) {
      String v = text.get(key.name());
      if (v != null && !v.isBlank()) {
        values.put(key, key.parse(v));
      }
    }
    return new ConfigValues(values);
  }

  /** The value given for {@code key}, else its default (null if it has none). */
  @SuppressWarnings("unchecked") // every value was put under the key that parsed it
  public <T> T get(ConfigKey<T> key) {
    return values.containsKey(key) ? (T) values.get(key) : key.defaultValue();
  }

  /** True if a value was given for {@code key}. */
  public boolean isSet(ConfigKey<?> key) {
    return values.containsKey(key);
  }

  /** A copy where {@code key} holds {@code value}: a value refined by a rule across keys. */
  public <T> ConfigValues with(ConfigKey<T> key, T value) {
    key.check(value);
    Map<ConfigKey<?>, Object> copy = new HashMap<>(values);
    copy.put(key, value);
    return new ConfigValues(copy);
  }
}
