package org.bftws.module.keys;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
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

/** Keys from keygen's files: replica id i is replica-(i+1).key, client-J.key is core node n + J - 1. */
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
        GroupKeyMaterial r2 = GroupKeyMaterial.load(config("replica", 2, KeyFiles.replicaFileName(3)));
        GroupKeyMaterial c2 = GroupKeyMaterial.load(config("client", -1, KeyFiles.clientFileName(2)));
        assertEquals(2, r2.nodeId());
        assertEquals(4 + 2 - 1, c2.nodeId());
        byte[] data = "signed bytes".getBytes(StandardCharsets.UTF_8);
        byte[] sig = c2.signer().sign(data);
        assertTrue(r2.verifier().verify(5, data, sig));
        assertFalse("another node's key", r2.verifier().verify(4, data, sig));
        assertTrue(c2.verifier().verify(2, data, r2.signer().sign(data)));
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
