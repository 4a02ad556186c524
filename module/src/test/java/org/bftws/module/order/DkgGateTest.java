package org.bftws.module.order;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;

import org.bftws.core.dkg.GroupDkg;
import org.bftws.core.dkg.GroupRefresh;
import org.bftws.core.dkg.ShareCipher;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.keys.GroupMembers;
import org.bftws.core.keys.ReplicaIdentity;
import org.bftws.core.message.Request;
import org.bftws.module.api.ApplicationResult;
import org.bftws.module.keys.GroupKeyMaterial;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.junit.Test;

/**
 * The service gate of a group without a dealer once its keys are in use: the key generation's requests (of the
 * reserved node ids after the clients') never reach the service, the reserved operation from a client is
 * refused alike at every replica, and everything else passes unchanged.
 */
public class DkgGateTest {
    private static final int N = 4;
    private static final int CLIENTS = 2;

    private final List<Request> executed = new ArrayList<>();
    private final ReplicatedService service = new ReplicatedService() {
        @Override
        public byte[] execute(Request request, byte[] random) {
            executed.add(request);
            return ApplicationResult.empty().encode();
        }

        @Override
        public byte[] getState() {
            return new byte[0];
        }

        @Override
        public void setState(byte[] state) {
        }
    };

    private static GroupKeyMaterial.Pending pending() {
        SecureRandom random = new SecureRandom();
        List<Ed25519PublicKeyParameters> sign = new ArrayList<>();
        List<byte[]> enc = new ArrayList<>();
        Ed25519PrivateKeyParameters mine = null;
        byte[] secret = null;
        for (int i = 1; i <= N; i++) {
            Ed25519PrivateKeyParameters sk = new Ed25519PrivateKeyParameters(random);
            ShareCipher.KeyPair kp = ShareCipher.generate(random);
            sign.add(sk.generatePublicKey());
            enc.add(kp.publicKey());
            if (i == 1) {
                mine = sk;
                secret = kp.secret();
            }
        }
        List<Ed25519PublicKeyParameters> clients = List.of(new Ed25519PrivateKeyParameters(random).generatePublicKey(),
                new Ed25519PrivateKeyParameters(random).generatePublicKey());
        return new GroupKeyMaterial.Pending(new GroupMembers(SchemeId.CKS, N, 1, 2, sign, enc, clients),
                new ReplicaIdentity(1, mine, secret), N);
    }

    /** With bftws.maxReplicas = 7 the clients number from 7, and the replicas submit after them. */
    @Test
    public void replicasSubmitAfterTheClientsFromTheClientBase() {
        GroupKeyMaterial.Pending base4 = pending();
        GroupKeyMaterial.Pending base7 = new GroupKeyMaterial.Pending(base4.members(), base4.identity(), 7);
        assertEquals(7 + CLIENTS, base7.submitter(0));
        assertEquals(3, base7.replicaOf(7 + CLIENTS + 3));
        assertEquals("replica 1's node under base n is a client's now", -1, base7.replicaOf(N + CLIENTS + 1));
    }

    @Test
    public void keyGenerationRequestsNeverReachTheServiceAndClientsCannotSendThem() {
        GroupKeyMaterial.Pending pending = pending();
        assertEquals("replica 2 submits as the node after the clients' and replica 1's", N + CLIENTS + 2,
                pending.submitter(2));
        assertEquals(2, pending.replicaOf(N + CLIENTS + 2));
        assertEquals(-1, pending.replicaOf(N + CLIENTS - 1));
        assertEquals(-1, pending.replicaOf(N + CLIENTS + N));
        ReplicatedService gate = DkgBootstrap.afterwards(service, pending, null);
        byte[] dkgOp = new byte[GroupDkg.MAGIC.length + 3];
        System.arraycopy(GroupDkg.MAGIC, 0, dkgOp, 0, GroupDkg.MAGIC.length);
        // a late key generation request (from a journal, say): answered empty, the service never sees it
        ApplicationResult late = ApplicationResult.decode(gate.execute(
                new Request(pending.submitter(3), "urn:bftws:client:9:dkg", 4, false, dkgOp), new byte[0]));
        assertEquals(ApplicationResult.Kind.EMPTY, late.kind());
        // the reserved operation from a client: a fault, the service never sees it
        ApplicationResult forged = ApplicationResult.decode(gate.execute(
                new Request(N, "urn:bftws:client:4:x", 1, false, dkgOp), new byte[0]));
        assertEquals(ApplicationResult.Kind.FAULT, forged.kind());
        assertTrue(forged.faultReason(), forged.faultReason().contains("reserved"));
        // a refresh's operation from a client: refused alike; from a replica's reserved id: never the service's
        byte[] refreshOp = new byte[GroupRefresh.MAGIC.length + 5];
        System.arraycopy(GroupRefresh.MAGIC, 0, refreshOp, 0, GroupRefresh.MAGIC.length);
        ApplicationResult forgedVote = ApplicationResult.decode(gate.execute(
                new Request(N, "urn:bftws:client:4:v", 1, false, refreshOp), new byte[0]));
        assertEquals(ApplicationResult.Kind.FAULT, forgedVote.kind());
        assertTrue(forgedVote.faultReason(), forgedVote.faultReason().contains("reserved"));
        assertEquals(ApplicationResult.Kind.EMPTY, ApplicationResult.decode(gate.execute(
                new Request(pending.submitter(1), "urn:bftws:client:8:r", 1, false, refreshOp), new byte[0])).kind());
        assertTrue(executed.isEmpty());
        Request plain = new Request(N + 1, "urn:bftws:client:5:y", 1, false,
                "anything".getBytes(StandardCharsets.US_ASCII));
        gate.execute(plain, new byte[0]);
        assertEquals(List.of(plain), executed);
    }
}
