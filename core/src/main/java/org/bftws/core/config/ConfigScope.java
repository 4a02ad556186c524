package org.bftws.core.config;

/**
 * Who reads a configuration key, and whether the members of a group must agree on it. The configuration
 * reference (docs/configuration.md) shows GROUP and INSTANCE as "both", REPLICA as "R" and CLIENT as "C".
 */
public enum ConfigScope {
  /** Read by replicas and clients, and the same on every member of the group (f, the replica list). */
  GROUP("both"),
  /** Read by replicas and clients, each Axis2 instance its own value (its key file, its local limits). */
  INSTANCE("both"),
  /** Read by replicas only (the ordering protocol's settings, a replica's id, payload limits). */
  REPLICA("R"),
  /** Read by clients only. */
  CLIENT("C");

  private final String readers;

  ConfigScope(String readers) {
    this.readers = readers;
  }

  /** Who reads the key, as the configuration reference's "who" column writes it: both, R or C. */
  public String readers() {
    return readers;
  }
}
