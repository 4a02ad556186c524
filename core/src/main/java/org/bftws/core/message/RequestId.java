package org.bftws.core.message;

/** (WS-RM sequence id, message number): what exactly-once execution is keyed on. */
public record RequestId(String sequenceId, long messageNumber) {
  @Override
  public String toString() {
    return sequenceId + "#" + messageNumber;
  }
}
