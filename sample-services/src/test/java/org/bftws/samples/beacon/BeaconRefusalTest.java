package org.bftws.samples.beacon;

import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import org.bftws.core.crypto.threshold.SchemeId;
import org.junit.Test;

/**
 * Which keys can serve the drand beacon: only a threshold BLS group key with this replica's share; a CKS or RSA
 * group key, or no share, is refused with a reason that names the scheme and the keys' parameter.
 */
public class BeaconRefusalTest {
    @Test
    public void aBlsGroupKeyWithItsShareServesTheBeacon() {
        assertNull(BeaconLifeCycle.refusal(SchemeId.BLS, true));
    }

    @Test
    public void cksAndRsaGroupKeysAreRefusedNamingTheSchemeAndTheParameter() {
        for (SchemeId scheme : new SchemeId[] {SchemeId.CKS, SchemeId.RSA}) {
            String reason = BeaconLifeCycle.refusal(scheme, true);
            assertTrue(reason, reason.contains("bftws.keys.public holds a " + scheme.label() + " group key"));
            assertTrue(reason, reason.contains("scripts/keygen --scheme bls"));
            assertTrue(reason, reason.contains("bftws.randomness.scheme"));
        }
    }

    @Test
    public void aReplicaWithoutAThresholdShareIsRefusedNamingItsPrivateKeyParameter() {
        String reason = BeaconLifeCycle.refusal(SchemeId.BLS, false);
        assertTrue(reason, reason.contains("no threshold key share in bftws.keys.private"));
        assertTrue(BeaconLifeCycle.refusal(null, false).contains("bftws.keys.private"));
    }
}
