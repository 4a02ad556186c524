package org.bftws.module.transport;

/**
 * A SOAP message the {@link MulticastSender} posts: BFT-WS control messages between replicas and a group
 * client's WS-RM application messages to the replicas' service endpoints (paper §3.3.1.2). The envelope is
 * built once and shared by every destination of a multicast.
 */
public interface OutboundSoap {
    /** The serialised envelope, UTF-8. */
    byte[] envelope();

    /** The SOAP action (SOAPAction header in SOAP 1.1, the content type's action parameter in SOAP 1.2). */
    String soapAction();

    /** True for a SOAP 1.2 envelope. */
    boolean soap12();

    /**
     * About the size of {@link #envelope()} without building it: the Multicast Sender bounds its buffers with
     * it on the caller's thread (the ordering thread must not serialise envelopes).
     */
    int estimatedEnvelopeBytes();
}
