package org.bftws.core.pbft;

import org.bftws.core.message.Request;

/**
 * Which requests may be executed without ordering (Castro-Liskov §5.1.3: the replica checks "that the
 * request is in fact read-only"). The embedding knows its operations — the Axis2 module from the operations
 * declared {@code <bftws:ReadOnly/>} in the service's WSDL — and every correct replica must answer alike. A
 * read-only request for any other operation is refused: a client must not bypass ordering for a write.
 */
@FunctionalInterface
public interface ReadOnlyOperations {
  /** No operation is read-only: every read-only request is refused. */
  ReadOnlyOperations NONE = request -> false;

  boolean isReadOnly(Request request);
}
