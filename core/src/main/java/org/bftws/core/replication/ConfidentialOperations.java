package org.bftws.core.replication;

import java.util.function.Predicate;
import org.bftws.core.message.Request;

/**
 * Which requests are confidential and where their ciphertext is (SINTRA §2.6: the client encrypts its
 * payload under the group's TDH2 key; replicas order the ciphertext and open it once its position is final).
 * The embedding knows its operations — the Axis2 module from those its services' WSDL declares confidential,
 * the ciphertext being the SOAP payload while service and action stay in clear — and every replica of a group
 * must answer alike for the same request.
 */
public interface ConfidentialOperations {
  /** No request is confidential. */
  ConfidentialOperations NONE = new ConfidentialOperations() {
    @Override
    public byte[] ciphertext(Request request) {
      return null;
    }

    @Override
    public Request opened(Request request, byte[] plaintext) {
      throw new IllegalStateException("no request is confidential");
    }
  };

  /** The encoded TDH2 ciphertext a confidential request carries; null for a request that is not confidential. */
  byte[] ciphertext(Request request);

  /** The request to execute once its ciphertext opened to {@code plaintext}: same id, the plaintext in place. */
  Request opened(Request request, byte[] plaintext);

  /**
   * For embeddings whose whole operation is the ciphertext (the simulator, tests): the requests {@code which}
   * accepts, never a sequence's terminate.
   */
  static ConfidentialOperations wholeOperation(Predicate<Request> which) {
    return new ConfidentialOperations() {
      @Override
      public byte[] ciphertext(Request r) {
        return !r.terminates() && which.test(r) ? r.operation() : null;
      }

      @Override
      public Request opened(Request r, byte[] plaintext) {
        return new Request(r.client(), r.sequenceId(), r.messageNumber(), r.randomized(), plaintext);
      }
    };
  }
}
