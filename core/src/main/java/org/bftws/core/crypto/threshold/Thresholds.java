package org.bftws.core.crypto.threshold;

/** Entry point: the scheme object for a {@link SchemeId}. */
public final class Thresholds {
  private static final ThresholdScheme CKS = new CksCoin();
  private static final ThresholdScheme RSA = new ShoupRsa();

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
    };
  }

  private static final class BlsHolder {
    static final ThresholdScheme BLS = new BlsThreshold();
  }
}
