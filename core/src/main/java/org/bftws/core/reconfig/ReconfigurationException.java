package org.bftws.core.reconfig;

/**
 * A reconfiguration refused, or a membership that does not check out; the message says why in words an
 * operator reads in a reply or a SOAP fault. A refused reconfiguration changes nothing.
 */
public final class ReconfigurationException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ReconfigurationException(String message) {
    super(message);
  }
}
