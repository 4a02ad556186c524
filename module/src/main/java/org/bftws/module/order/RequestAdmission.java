package org.bftws.module.order;

/**
 * Which client requests a replica lets into ordering (a pre-ordering check, paper §3.3.1.4: the In Handler
 * stores application messages of established sequences only). It applies to requests a replica receives
 * from a client (or relayed by a peer), never to requests inside a pre-prepare: a replica that missed a
 * sequence's CreateSequence (it was down) must still execute what the group ordered, or it would diverge.
 */
public interface RequestAdmission {
    /** Every sequence admitted: for embeddings whose clients run no WS-RM handshake. */
    RequestAdmission ALL = new RequestAdmission() {
        @Override
        public boolean admits(String sequenceId) {
            return true;
        }

        @Override
        public void ordered(String sequenceId) {
        }
    };

    boolean admits(String sequenceId);

    /** The group ordered a request of this sequence: f+1 correct replicas admitted it, so admit it here too. */
    void ordered(String sequenceId);
}
