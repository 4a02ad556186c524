package org.bftws.core.dkg;

import java.util.List;
import org.bftws.core.crypto.threshold.GroupKey;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.ThresholdParams;

/**
 * What every replica taking part in one run of the protocol agrees on before it starts: the mode, the scheme
 * whose keys are made, a session id bound into every encryption and proof (group id and key epoch, so nothing
 * replays across runs), the dealers' (n, k, t), the receivers' (n', k', t'), each receiver's individual
 * encryption key ({@link ShareCipher}) and, for a refresh or a resharing, the current group key.
 *
 * <p>Quorums over the ordered sequence ({@link Dkg}) need k' ≤ n' − 2t' (at least k' correct receivers among
 * the n' − t' whose complaints count) and, for a resharing, k ≤ n − 2t (as many qualified dealers as the old
 * sharing needs); n = 3f+1, k = f+1 satisfies both.
 */
public record DkgConfig(Mode mode, SchemeId scheme, byte[] session, ThresholdParams dealers,
    ThresholdParams receivers, List<byte[]> encryptionKeys, GroupKey current) {

  public enum Mode {
    /** A fresh key (GJKR 1999/2007, Pedersen-VSS by every replica, then the extraction of y). */
    GENERATE,
    /** Proactive refresh (Herzberg-Jarecki-Krawczyk-Yung 1995, share renewal): every replica deals a sharing of 0. */
    REFRESH,
    /** Redistribution to new members (Desmedt-Jajodia 1997): each old holder deals a sharing of its share. */
    RESHARE
  }

  public DkgConfig {
    session = session.clone();
    encryptionKeys = List.copyOf(encryptionKeys);
    if (scheme == SchemeId.RSA) {
      throw new IllegalArgumentException("rsa: no distributed key generation (shared safe primes); use the dealer");
    }
    if (encryptionKeys.size() != receivers.n()) {
      throw new IllegalArgumentException("need one encryption key per receiver: " + receivers.n() + ", got "
          + encryptionKeys.size());
    }
    for (int j = 1; j <= encryptionKeys.size(); j++) {
      ShareCipher.publicKey(encryptionKeys.get(j - 1), j);
    }
    if (receivers.k() > receivers.n() - 2 * receivers.t()) {
      throw new IllegalArgumentException("need k' <= n' - 2t', got " + receivers);
    }
    if (mode == Mode.GENERATE ? current != null : current == null) {
      throw new IllegalArgumentException(mode + (current == null ? " needs" : " takes no") + " current group key");
    }
    if (mode != Mode.RESHARE && !dealers.equals(receivers)) {
      throw new IllegalArgumentException(mode + ": dealers and receivers are the same replicas");
    }
    if (current != null && (current.scheme() != scheme || !current.params().equals(dealers))) {
      throw new IllegalArgumentException("current group key is not a " + scheme.label() + " key with " + dealers);
    }
    if (mode == Mode.RESHARE && dealers.k() > dealers.n() - 2 * dealers.t()) {
      throw new IllegalArgumentException("resharing needs k <= n - 2t of the old group, got " + dealers);
    }
  }

  /** Dealings that close the dealing phase: n − t (GJKR's broadcast round, counted instead of timed). */
  int dealingQuorum() {
    return dealers.n() - dealers.t();
  }

  /** Receivers whose complaints count: n' − t'. */
  int complaintQuorum() {
    return receivers.n() - receivers.t();
  }

  /** Qualified dealers that close the justification phase: n − 2t, more than t, so one at least is correct. */
  int qualifiedTarget() {
    return dealers.n() - 2 * dealers.t();
  }

  /** Whether dealings are Pedersen (hiding, GJKR) rather than Feldman commitments. */
  boolean pedersen() {
    return mode == Mode.GENERATE;
  }
}
