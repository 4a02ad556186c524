package org.bftws.core.async;

import org.bftws.core.codec.DecodeException;

/**
 * A message type of one asynchronous protocol, as {@link org.bftws.core.message.Kind} is of an envelope: each
 * protocol names its messages in an enum implementing this, and the code, the u8 that follows the instance id
 * in an {@link AsyncMessage}, is the position in that enum from 1: new types go at the end, so existing codes
 * never change.
 */
public interface AsyncKind {
  /** The position in the enum's declaration order, from 0 (an enum's own). */
  int ordinal();

  default int code() {
    return ordinal() + 1;
  }

  /** The type of {@code kinds} with {@code code}; an unknown code is a malformed message of {@code protocol}. */
  static <E extends Enum<E> & AsyncKind> E of(Class<E> kinds, int code, String protocol) {
    E[] all = kinds.getEnumConstants();
    if (code < 1 || code > all.length) {
      throw new DecodeException("unknown " + protocol + " message type " + code);
    }
    return all[code - 1];
  }
}
