package org.bftws.module.transport;

import org.apache.axiom.soap.SOAPEnvelope;

/**
 * A check of a well-formed control message's envelope before the {@link ControlSink} gets it: a rampart
 * client's control port admits only replies WS-Security signed by their replica (paper §3.3.1). A refused
 * message is dropped silently (answered 202 like any other), as the sink drops forged ones.
 */
@FunctionalInterface
public interface ControlGuard {
    /** Admits everything: the replicas' control ports and a client with {@code bftws.security=none}. */
    ControlGuard NONE = (envelope, message) -> true;

    boolean admit(SOAPEnvelope envelope, ControlMessage message);
}
