package org.bftws.samples.beacon;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.Collections;
import java.util.HexFormat;

import org.bftws.core.crypto.threshold.GroupKey;
import org.bftws.core.crypto.threshold.GroupValue;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.crypto.threshold.ThresholdScheme;
import org.bftws.core.crypto.threshold.Thresholds;
import org.junit.Test;

/**
 * Our drand chain against drand's published quicknet chain (its /info, and round 1000 as its relays serve
 * it): the chain hash is drand's {@code chain.Info.Hash}, the signed message and DST are quicknet's, and the
 * round arithmetic is drand-client's {@code roundAt}/{@code roundTime}.
 */
public class DrandChainTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final byte[] QUICKNET_KEY = HEX.parseHex("83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e"
            + "760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9"
            + "c76a4bc09e76eae8991ef5ece45a");
    private static final DrandChain QUICKNET = new DrandChain(QUICKNET_KEY, 3, 1692803367,
            HEX.parseHex("f477d5c89f21a17c863a7f937c6a6d15859414d2be09cd448d4279af331c5d3e"), "quicknet");
    private static final byte[] ROUND_1000 = HEX.parseHex("b44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447"
            + "cb1125e342b73a8dd2bacbe47e4b6b63ed5e39");

    @Test
    public void theChainHashIsDrandsForQuicknet() {
        assertEquals("52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971", QUICKNET.hashHex());
    }

    @Test
    public void quicknetsRound1000VerifiesUnderItsKeyWithOurMessageAndDst() {
        ThresholdScheme bls = Thresholds.scheme(SchemeId.BLS);
        GroupKey key = bls.groupKey(new ThresholdParams(4, 2, 1), QUICKNET_KEY, Collections.nCopies(4, QUICKNET_KEY));
        GroupValue round1000 = new GroupValue(SchemeId.BLS, ROUND_1000, new byte[0]);
        assertTrue(bls.verifyCombined(key, DrandChain.message(1000), round1000));
        assertFalse(bls.verifyCombined(key, DrandChain.message(1001), round1000));
        assertEquals("{\"round\":1000,\"randomness\":\"fe290beca10872ef2fb164d2aa4442de4566183ec51c56ff3cd603d930e54fdd\","
                + "\"signature\":\"" + HEX.formatHex(ROUND_1000) + "\"}", DrandChain.roundJson(1000, ROUND_1000));
    }

    @Test
    public void roundOneIsAtGenesisAndEachPeriodStartsTheNext() {
        long genesisMillis = 1692803367_000L;
        assertEquals(0, QUICKNET.roundAt(genesisMillis - 1));
        assertEquals(1, QUICKNET.roundAt(genesisMillis));
        assertEquals(1, QUICKNET.roundAt(genesisMillis + 2999));
        assertEquals(2, QUICKNET.roundAt(genesisMillis + 3000));
        assertEquals(genesisMillis + 999 * 3000, QUICKNET.roundTimeMillis(1000));
        assertEquals(1000, QUICKNET.roundAt(QUICKNET.roundTimeMillis(1000)));
    }

    @Test
    public void infoIsDrandsV1Json() {
        String info = QUICKNET.infoJson();
        assertTrue(info, info.contains("\"hash\":\"52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971\""));
        assertTrue(info, info.contains("\"schemeID\":\"bls-unchained-g1-rfc9380\""));
        assertTrue(info, info.contains("\"period\":3,\"genesis_time\":1692803367,"));
        assertTrue(info, info.contains("\"metadata\":{\"beaconID\":\"quicknet\"}"));
    }
}
