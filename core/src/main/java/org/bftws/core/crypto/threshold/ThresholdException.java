package org.bftws.core.crypto.threshold;

/** Base of the named errors of this package: the shares handed in cannot give a group value. */
public class ThresholdException extends Exception {
  public ThresholdException(String message) {
    super(message);
  }
}
