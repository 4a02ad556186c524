package org.bftws.core.config;

/** A configuration value that is wrong; the message names the key, the value and what is allowed. */
public final class ConfigException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;
  private final String key;
  private final String detail;

  public ConfigException(String key, String value, String rule) {
    this(key, "has the invalid value '" + value + "'; expected " + rule);
  }

  private ConfigException(String key, String detail) {
    super("configuration key '" + key + "' " + detail);
    this.key = key;
    this.detail = detail;
  }

  /** A value the key's parser refused for the given reason ("is not a URL"). */
  static ConfigException refused(String key, String value, String reason, String rule) {
    return new ConfigException(key, "has the value '" + value + "', which " + reason + "; expected " + rule);
  }

  public String key() {
    return key;
  }

  /** The message without the key: what is wrong with the value and what is allowed. */
  public String detail() {
    return detail;
  }
}
