package org.bftws.client.random;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.soap.SOAPEnvelope;
import org.bftws.core.crypto.threshold.GroupValue;
import org.bftws.core.crypto.threshold.SignatureShare;
import org.bftws.core.crypto.threshold.ThresholdScheme;
import org.bftws.core.keys.GroupKeys;
import org.bftws.core.keys.KeyFiles;
import org.bftws.core.keys.KeyGen;
import org.bftws.core.replication.CoinConfig;
import org.bftws.module.api.CollectiveRandom;
import org.bftws.module.api.RandomProof;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * A third party's check of a CT random number (integrity paper §5; docs/design/cryptography.md: threshold BLS
 * values are publicly verifiable): keys from keygen, the number combined from k replicas' shares as the engine
 * does, the header written as the Total Order Invoker writes it.
 */
public class RandomVerifierTest {
    @ClassRule
    public static final TemporaryFolder TMP = new TemporaryFolder();
    private static final byte[] GROUP_ID = "http://group.example/axis2/services/Dealer".getBytes(StandardCharsets.UTF_8);
    private static Path blsPub;
    private static Path cksPub;
    private static byte[] message;
    private static byte[] signature;
    private static byte[] random;
    private static RandomVerifier verifier;

    @BeforeClass
    public static void dealAndToss() throws Exception {
        Path bls = deal("bls");
        cksPub = deal("cks").resolve(KeyFiles.GROUP_FILE);
        blsPub = bls.resolve(KeyFiles.GROUP_FILE);
        GroupKeys group = KeyFiles.readGroup(blsPub);
        ThresholdScheme scheme = group.thresholdScheme();
        message = CoinConfig.requestCoinMessage(GROUP_ID, 7, "a request".getBytes(StandardCharsets.UTF_8));
        List<SignatureShare> shares = List.of(
                scheme.share(group.threshold(), KeyFiles.readReplica(bls, 2).share(), message),
                scheme.share(group.threshold(), KeyFiles.readReplica(bls, 4).share(), message));
        GroupValue v = scheme.combine(group.threshold(), message, shares);
        signature = v.unique();
        random = scheme.coinValue(v);
        verifier = new RandomVerifier(group);
    }

    private static Path deal(String scheme) throws Exception {
        Path dir = TMP.newFolder(scheme).toPath();
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        assertEquals(log.toString(), 0, KeyGen.run(new String[] {"--out", dir.toString(), "--replicas", "4",
            "--scheme", scheme}, new SecureRandom(), new PrintStream(log), new PrintStream(log)));
        return dir;
    }

    private static RandomProof bls(byte[] msg, byte[] sig) {
        return new RandomProof("ct", "bls", verifier.keyId(), msg, sig);
    }

    @Test
    public void theGroupsSignatureOnTheCoinMessageIsValidAndSaysWhatWasSigned() {
        RandomVerifier.Verdict v = verifier.verify(random, bls(message, signature));
        assertTrue(v.toString(), v.valid());
        assertTrue(v.reason(), v.reason().contains("at sequence number 7 of group http://group.example/"));
    }

    @Test
    public void aTamperedNumberMessageOrSignatureIsRefusedWithTheReason() {
        byte[] other = random.clone();
        other[0] ^= 1;
        assertInvalid(verifier.verify(other, bls(message, signature)), "not SHA-256 of the signature");
        byte[] otherMessage = CoinConfig.requestCoinMessage(GROUP_ID, 8, "a request".getBytes(StandardCharsets.UTF_8));
        assertInvalid(verifier.verify(random, bls(otherMessage, signature)), "does not verify");
        byte[] otherSignature = signature.clone();
        otherSignature[47] ^= 1;
        assertInvalid(verifier.verify(RandomVerifier.sha256(otherSignature), bls(message, otherSignature)),
                "does not verify");
        assertInvalid(verifier.verify(random, bls(message, new byte[0])), "no combined signature");
        assertInvalid(verifier.verify(random, null), "no <bftws:RandomProof>");
        assertInvalid(verifier.verify(random, new RandomProof("ct", "bls", "00", message, signature)),
                "this group.pub holds");
        assertInvalid(verifier.verify(random, new RandomProof("ct", "ed448", "", message, signature)),
                "unknown threshold scheme");
    }

    @Test
    public void cksCoinsAndBaNumbersAreRefusedAsNotPubliclyVerifiable() {
        assertInvalid(verifier.verify(random, new RandomProof("ct", "cks", verifier.keyId(), message, new byte[0])),
                "a cks coin is not publicly verifiable");
        assertInvalid(verifier.verify(random, new RandomProof("ba", "", "", new byte[0], new byte[0])),
                "the ba algorithm's numbers are not publicly verifiable");
        assertInvalid(verifier.verify(random, new RandomProof("ba-hardened", "", "", new byte[0], new byte[0])),
                "not publicly verifiable");
    }

    @Test
    public void aHeaderWrittenByTheInvokerIsReadBackAndMalformedOnesAreRefused() {
        SOAPEnvelope env = OMAbstractFactory.getSOAP11Factory().getDefaultEnvelope();
        CollectiveRandom.addHeader(env, random);
        bls(message, signature).addHeader(env);
        assertTrue(verifier.verifyCaptured(env.toString()).valid());
        assertTrue(verifier.verifyCaptured(env.getHeader().toString()).valid());
        assertInvalid(verifier.verifyCaptured(env.toString().replace(HexFormat.of().formatHex(signature), "zz")),
                "malformed header: Signature is not hex");
        assertInvalid(verifier.verifyCaptured("<a/>"), "no <bftws:Random>");
        assertInvalid(verifier.verifyCaptured("not xml"), "not an XML document");
        assertInvalid(verifier.verifyCaptured("<!DOCTYPE a [<!ENTITY x 'y'>]><a/>"), "document type declaration");
    }

    @Test
    public void theCommandAnswersValidOrInvalidByItsExitStatus() throws Exception {
        HexFormat hex = HexFormat.of();
        assertEquals(0, run("--group-pub", blsPub.toString(), "--random", hex.formatHex(random), "--message",
                hex.formatHex(message), "--signature", hex.formatHex(signature)));
        assertEquals(1, run("--group-pub", cksPub.toString(), "--random", hex.formatHex(random), "--message",
                hex.formatHex(message), "--signature", hex.formatHex(signature)));
        SOAPEnvelope env = OMAbstractFactory.getSOAP12Factory().getDefaultEnvelope();
        CollectiveRandom.addHeader(env, random);
        bls(message, signature).addHeader(env);
        Path captured = TMP.newFile("captured.xml").toPath();
        Files.writeString(captured, env.toString());
        assertEquals(0, run("--group-pub", blsPub.toString(), "--header", captured.toString()));
        assertEquals(2, run("--group-pub", blsPub.toString()));
        assertEquals(2, run("--group-pub", TMP.getRoot().toPath().resolve("absent").toString(), "--header",
                captured.toString()));
    }

    private static int run(String... args) {
        return VerifyRandom.run(args, new PrintStream(new ByteArrayOutputStream()), new PrintStream(new ByteArrayOutputStream()));
    }

    private static void assertInvalid(RandomVerifier.Verdict v, String reason) {
        assertFalse(v.toString(), v.valid());
        assertTrue(v.toString(), v.reason().contains(reason));
    }
}
