package org.bftws.core.crypto.threshold;

/** Entry point: the scheme object for a {@link SchemeId}. */
public final class Thresholds {
  private static final ThresholdScheme CKS = new CksCoin();
  private static final ThresholdScheme RSA = new ShoupRsa();
  private static final Tdh2 TDH2 = new Tdh2();

  private Thresholds() {}

  /**
   * The scheme for {@code id}. The BLS scheme is created on first use because it loads blst's native
   * library; RSA uses {@link ShoupRsa#DEFAULT_MODULUS_BITS} when dealing (other sizes: {@code new ShoupRsa(bits)}).
   */
  public static ThresholdScheme scheme(SchemeId id) {
    return switch (id) {
      case CKS -> CKS;
      case BLS -> BlsHolder.BLS;
      case RSA -> RSA;
      case TDH2 -> throw new IllegalArgumentException("tdh2 is a threshold cryptosystem (Tdh2), not a coin scheme");
    };
  }

  /** Whoever rebuilds keys of {@code id} from their encodings (every scheme, TDH2 included). */
  public static ThresholdKeys keys(SchemeId id) {
    return id == SchemeId.TDH2 ? TDH2 : scheme(id);
  }

  private static final class BlsHolder {
    static final ThresholdScheme BLS = new BlsThreshold();
  }
}
