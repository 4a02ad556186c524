package org.bftws.core.config;

/** A configuration value that is wrong; the message names the key, the value and what is allowed. */
public final class ConfigException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;
  private final String key;

  public ConfigException(String key, String value, String rule) {
    super("configuration key '" + key + "': value '" + value + "' is invalid; expected " + rule);
    this.key = key;
  }

  public String key() {
    return key;
  }
}
