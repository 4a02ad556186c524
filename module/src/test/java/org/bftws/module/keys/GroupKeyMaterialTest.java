package org.bftws.module.keys;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;

import org.bftws.core.keys.KeyFiles;
import org.bftws.core.keys.KeyGen;
import org.bftws.module.config.BftwsConfig;
import org.bftws.module.config.BftwsConfigException;
import org.bftws.module.config.BftwsKeys;
import org.bftws.module.config.BftwsParameters;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Keys from keygen's files: replica id i is replica-(i+1).key, client-J.key is core node b + J - 1, where the
 * client base b is bftws.maxReplicas (n when not given).
 */
public class GroupKeyMaterialTest {
    @ClassRule
    public static final TemporaryFolder TMP = new TemporaryFolder();

    private static Path keys;

    @BeforeClass
    public static void deal() throws Exception {
        keys = TMP.newFolder("keys").toPath();
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        assertEquals(log.toString(), 0, KeyGen.run(new String[] {"--out", keys.toString(), "--replicas", "4",
                "--clients", "3"}, new SecureRandom(), new PrintStream(log), new PrintStream(log)));
    }

    @Test
    public void replicaIdsAndClientIndicesMapToCoreNodeIds() {
        assertClientKeysMapFrom(4, Map.of());
    }

    /** The same files under bftws.maxReplicas = 7: clients number from 7, replicas keep 0..3. */
    @Test
    public void withMaxReplicasClientKeysMapFromTheClientBase() {
        assertClientKeysMapFrom(7, Map.of("bftws.maxReplicas", "7"));
    }

    /** replica-3.key is node 2 and client-2.key node base + 1, each verifying the other's signatures. */
    private static void assertClientKeysMapFrom(int base, Map<String, String> extra) {
        Map<String, String> rp = params("replica", 2, KeyFiles.replicaFileName(3));
        Map<String, String> cp = params("client", -1, KeyFiles.clientFileName(2));
        rp.putAll(extra);
        cp.putAll(extra);
        GroupKeyMaterial r2 = GroupKeyMaterial.load(BftwsParameters.parse(rp));
        GroupKeyMaterial c2 = GroupKeyMaterial.load(BftwsParameters.parse(cp));
        assertEquals(2, r2.nodeId());
        assertEquals(base + 2 - 1, c2.nodeId());
        byte[] data = "signed bytes".getBytes(StandardCharsets.UTF_8);
        byte[] sig = c2.signer().sign(data);
        assertTrue(r2.verifier().verify(base + 1, data, sig));
        assertFalse("another node's key", r2.verifier().verify(base, data, sig));
        assertFalse("no client key below the client base", r2.verifier().verify(base - 1, data, sig));
        assertTrue(c2.verifier().verify(2, data, r2.signer().sign(data)));
    }

    /** Configuration III under bftws.maxReplicas = 7: execution node 8 signs with client-2.key. */
    @Test
    public void withMaxReplicasAnExecutionNodeSignsWithTheClientKeyOfItsNodeId() {
        Map<String, String> p = params("replica", 8, KeyFiles.clientFileName(2));
        p.put("bftws.maxReplicas", "7");
        p.put("bftws.executionNodes", "7 8 9");
        p.put("bftws.replicas", p.get("bftws.replicas") + " 7=http://h/s/E 8=http://h/s/F 9=http://h/s/G");
        GroupKeyMaterial e8 = GroupKeyMaterial.load(BftwsParameters.parse(p));
        assertEquals(8, e8.nodeId());
        p.put("bftws.keys.private", keys.resolve(KeyFiles.clientFileName(3)).toString());
        BftwsConfigException e = assertThrows(BftwsConfigException.class,
                () -> GroupKeyMaterial.load(BftwsParameters.parse(p)));
        assertEquals(BftwsKeys.PRIVATE_KEY.name(), e.key());
        assertTrue(e.getMessage(), e.getMessage().contains(KeyFiles.clientFileName(2)));
    }

    @Test
    public void anotherReplicasKeyFileIsRefusedNamingTheKey() {
        try {
            GroupKeyMaterial.load(config("replica", 0, KeyFiles.replicaFileName(2)));
            fail("loaded replica 2's key as replica 0's");
        } catch (BftwsConfigException e) {
            assertEquals(BftwsKeys.PRIVATE_KEY.name(), e.key());
        }
    }

    @Test
    public void aGroupFileOfAnotherSizeIsRefusedNamingTheKey() throws Exception {
        Map<String, String> p = params("replica", 0, KeyFiles.replicaFileName(1));
        p.put("bftws.f", "2");
        p.put("bftws.replicas", "0=http://h/s/A 1=http://h/s/B 2=http://h/s/C 3=http://h/s/D 4=http://h/s/E"
                + " 5=http://h/s/F 6=http://h/s/G");
        try {
            GroupKeyMaterial.load(BftwsParameters.parse(p));
            fail("loaded a 4-replica group.pub for 7 replicas");
        } catch (BftwsConfigException e) {
            assertEquals(BftwsKeys.PUBLIC_KEYS.name(), e.key());
        }
        Path garbage = Files.writeString(TMP.newFile().toPath(), "format = nonsense\n");
        Map<String, String> q = params("client", -1, KeyFiles.clientFileName(1));
        q.put("bftws.keys.public", garbage.toString());
        try {
            GroupKeyMaterial.load(BftwsParameters.parse(q));
            fail("loaded a malformed group.pub");
        } catch (BftwsConfigException e) {
            assertEquals(BftwsKeys.PUBLIC_KEYS.name(), e.key());
        }
    }

    /** Configuration III: execution node I (from n on) signs with client-(I-n+1).key, another is refused. */
    @Test
    public void anExecutionNodeSignsWithTheClientKeyOfItsNodeId() {
        Map<String, String> p = params("replica", 5, KeyFiles.clientFileName(2));
        p.put("bftws.executionNodes", "4 5 6");
        p.put("bftws.replicas", p.get("bftws.replicas") + " 4=http://h/s/E 5=http://h/s/F 6=http://h/s/G");
        GroupKeyMaterial e5 = GroupKeyMaterial.load(BftwsParameters.parse(p));
        assertEquals(5, e5.nodeId());
        byte[] data = "an execution checkpoint".getBytes(StandardCharsets.UTF_8);
        GroupKeyMaterial r0 = GroupKeyMaterial.load(config("replica", 0, KeyFiles.replicaFileName(1)));
        assertTrue(r0.verifier().verify(5, data, e5.signer().sign(data)));
        p.put("bftws.keys.private", keys.resolve(KeyFiles.clientFileName(1)).toString());
        try {
            GroupKeyMaterial.load(BftwsParameters.parse(p));
            fail("loaded node 4's key as execution node 5's");
        } catch (BftwsConfigException e) {
            assertEquals(BftwsKeys.PRIVATE_KEY.name(), e.key());
        }
    }

    private static BftwsConfig config(String role, int id, String privateFile) {
        return BftwsParameters.parse(params(role, id, privateFile));
    }

    private static Map<String, String> params(String role, int id, String privateFile) {
        Map<String, String> p = new HashMap<>();
        p.put("bftws.replicated", "true");
        p.put("bftws.role", role);
        p.put("bftws.group.endpoint", "http://group.example/axis2/services/Echo");
        p.put("bftws.replicas", "0=http://h/s/A 1=http://h/s/B 2=http://h/s/C 3=http://h/s/D");
        if (id >= 0) {
            p.put("bftws.replica.id", String.valueOf(id));
        }
        p.put("bftws.keys.public", keys.resolve(KeyFiles.GROUP_FILE).toString());
        p.put("bftws.keys.private", keys.resolve(privateFile).toString());
        return p;
    }
}
