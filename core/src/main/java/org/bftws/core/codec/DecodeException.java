package org.bftws.core.codec;

/** Bytes that are not a canonical encoding of the expected message. A peer's fault, never ours. */
public final class DecodeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public DecodeException(String message) {
    super(message);
  }
}
