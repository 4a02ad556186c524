package org.bftws.module.transport;

/**
 * Where the control port hands a received control message. Called on an HTTP worker thread: it must not
 * block (the Total Order Manager only enqueues).
 */
@FunctionalInterface
public interface ControlSink {
    void deliver(ControlMessage message);
}
