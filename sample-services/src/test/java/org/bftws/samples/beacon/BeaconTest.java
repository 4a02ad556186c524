package org.bftws.samples.beacon;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.bftws.core.crypto.threshold.Dealt;
import org.bftws.core.crypto.threshold.GroupValue;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.crypto.threshold.ThresholdScheme;
import org.bftws.core.crypto.threshold.Thresholds;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/**
 * Four replicas' beacons on one clock, each asking the others for their partials directly (the HTTP hop
 * replaced by a call to the peer's {@link Beacon#get}): every replica serves the same round, which verifies
 * under the group key; no partial is released before its round is due; a replica whose peers are silent or
 * send bad partials serves nothing rather than a wrong round.
 */
public class BeaconTest {
    private static final ThresholdScheme BLS = Thresholds.scheme(SchemeId.BLS);
    private static final Pattern SIGNATURE = Pattern.compile("\"signature\":\"([0-9a-f]+)\"");
    private final AtomicLong now = new AtomicLong();
    private final Beacon[] beacons = new Beacon[4];
    private final boolean[] silent = new boolean[5];
    private final boolean[] lying = new boolean[5];
    private Dealt dealt;
    private DrandChain chain;
    private ExecutorService pool;

    @Before
    public void group() {
        dealt = BLS.deal(ThresholdParams.forF(1), new SecureRandom());
        chain = DrandChain.ofGroup(dealt.group().commonEncoding(), 3, 1_700_000_000L, "bftws");
        now.set(chain.roundTimeMillis(100));
        pool = Executors.newFixedThreadPool(4);
        for (int i = 0; i < 4; i++) {
            beacons[i] = new Beacon(chain, BLS, dealt.group(), dealt.share(i + 1), this::partial, now::get, pool);
        }
    }

    @After
    public void stop() {
        pool.shutdownNow();
    }

    private String partial(int index, long round) {
        if (silent[index]) {
            return null;
        }
        Beacon.Reply r = beacons[index - 1].get("/partial/" + round);
        if (lying[index] && r.status() == 200) {
            // another round's partial: a valid point, the wrong signature
            return beacons[index - 1].get("/partial/" + (round - 1)).json();
        }
        return r.status() == 200 ? r.json() : null;
    }

    private static byte[] signature(Beacon.Reply r) {
        Matcher m = SIGNATURE.matcher(r.json());
        assertTrue(r.json(), m.find());
        return HexFormat.of().parseHex(m.group(1));
    }

    @Test
    public void everyReplicaServesTheSameRoundAndItVerifiesUnderTheGroupKey() {
        Beacon.Reply latest = beacons[0].get("/public/latest");
        assertEquals(latest.json(), 200, latest.status());
        assertTrue(latest.json(), latest.json().startsWith("{\"round\":100,"));
        byte[] sig = signature(latest);
        assertTrue(BLS.verifyCombined(dealt.group(), DrandChain.message(100), new GroupValue(SchemeId.BLS, sig, new byte[0])));
        for (int i = 1; i < 4; i++) {
            assertEquals(latest.json(), beacons[i].get("/public/100").json());
            assertEquals(latest.json(), beacons[i].get("/" + chain.hashHex() + "/public/100").json());
        }
        assertEquals(chain.infoJson(), beacons[2].get("/" + chain.hashHex() + "/info").json());
    }

    @Test
    public void nothingOfARoundIsReleasedBeforeItIsDue() {
        assertEquals(404, beacons[0].get("/partial/101").status());
        assertEquals(404, beacons[0].get("/public/101").status());
        assertEquals(404, beacons[0].get("/public/0").status());
        assertEquals(404, beacons[0].get("/public/x").status());
        assertEquals(404, beacons[0].get("/elsewhere").status());
        now.set(chain.roundTimeMillis(101));
        assertEquals(200, beacons[0].get("/partial/101").status());
        assertEquals(200, beacons[0].get("/public/101").status());
    }

    @Test
    public void withFSilentOrFLyingPeersTheRoundIsStillRightAndWithMoreNotServed() {
        String honest = beacons[3].get("/public/98").json();
        silent[2] = true;
        assertEquals(honest, beacons[0].get("/public/98").json());
        silent[2] = false;
        lying[3] = true;
        assertEquals(honest, beacons[1].get("/public/98").json());
        silent[2] = true;
        silent[4] = true;
        assertEquals("only lying and silent peers: no round", 503, beacons[0].get("/public/96").status());
        silent[2] = false;
        silent[4] = false;
        lying[3] = false;
        assertEquals(beacons[3].get("/public/96").json(), beacons[0].get("/public/96").json());
    }
}
