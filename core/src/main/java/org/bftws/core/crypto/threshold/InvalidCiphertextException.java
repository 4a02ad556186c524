package org.bftws.core.crypto.threshold;

/**
 * A TDH2 ciphertext that must not be decrypted: malformed, its validity proof fails (Shoup-Gennaro 1998:
 * a party refuses to release a decryption share for it), or its payload does not decrypt under the key its
 * valid shares give (the encryptor's fault, found alike by every party that combines).
 */
public class InvalidCiphertextException extends ThresholdException {
  public InvalidCiphertextException(String message) {
    super(message);
  }
}
