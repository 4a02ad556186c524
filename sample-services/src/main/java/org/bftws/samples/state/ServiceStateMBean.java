package org.bftws.samples.state;

/**
 * A stateful sample service's state as text, readable inside the replica's JVM (e.g. by a test bed comparing
 * the replicas' executed state after faults): the same text as the service's {@code get_state} reply would
 * carry, so equal texts mean equal states.
 */
public interface ServiceStateMBean {
    /** The service's current state, canonical text (the same state gives the same text on every replica). */
    String getState();
}
