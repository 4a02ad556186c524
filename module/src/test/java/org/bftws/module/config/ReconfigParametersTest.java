package org.bftws.module.config;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;

import org.apache.axis2.AxisFault;
import org.bftws.core.keys.AdminKeys;
import org.bftws.core.keys.KeyGen;
import org.bftws.module.order.BftwsReplica;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

public class ReconfigParametersTest {
    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    private Map<String, String> replica;
    private Path admins;

    /** Replica 1 of a 4-replica group with two administrators, in the one setting the epoch engine runs. */
    @Before
    public void reconfigurableReplica() throws IOException {
        Path dir = tmp.newFolder("admins").toPath();
        for (int j = 1; j <= 2; j++) {
            assertEquals(0, KeyGen.run(new String[] {"--admin", "" + j, "--out", dir.toString()}, new SecureRandom(),
                    new PrintStream(new ByteArrayOutputStream()), new PrintStream(new ByteArrayOutputStream())));
        }
        admins = dir.resolve(AdminKeys.LIST_FILE);
        StringBuilder replicas = new StringBuilder();
        for (int i = 0; i < 4; i++) {
            replicas.append(i).append("=http://127.0.0.1:").append(9000 + i).append("/a ");
        }
        replica = new HashMap<>(Map.of("bftws.replicated", "true", "bftws.role", "replica", "bftws.replica.id", "1",
                "bftws.group.endpoint", "http://group.example/axis2/services/Counter",
                "bftws.replicas", replicas.toString(), "bftws.authentication", "signatures",
                "bftws.keys.private", tmp.newFile("replica1.key").getPath(),
                "bftws.keys.public", tmp.newFile("group.pub").getPath(),
                "bftws.reconfig.administrators", admins.toString()));
        replica.put("bftws.reconfig.threshold", "2");
    }

    @Test
    public void theAdministratorsFileAndThresholdGiveTheGroupsAdministrators() {
        BftwsConfig c = BftwsParameters.parse(replica);
        assertEquals(2, c.administrators().count());
        assertEquals(2, c.administrators().required());
    }

    @Test
    public void aGroupWithoutAdministratorsHasNoneAndRefusesAThreshold() {
        replica.remove("bftws.reconfig.administrators");
        assertRefused(replica, "bftws.reconfig.threshold", "never reconfigures");
        replica.remove("bftws.reconfig.threshold");
        assertNull(BftwsParameters.parse(replica).administrators());
    }

    @Test
    public void aThresholdAboveTheAdministratorsListedIsRefused() {
        replica.put("bftws.reconfig.threshold", "3");
        assertRefused(replica, "bftws.reconfig.threshold", "at most the 2 administrators");
    }

    @Test
    public void aMissingOrMalformedAdministratorsFileIsRefusedNamingTheKey() throws IOException {
        replica.put("bftws.reconfig.administrators", tmp.getRoot().toPath().resolve("absent.pub").toString());
        assertRefused(replica, "bftws.reconfig.administrators", "cannot read");
        Files.writeString(admins, "format = bftws-admins-1\nadmins = 1\nadmin.1.ed25519 = AAAA\n");
        replica.put("bftws.reconfig.administrators", admins.toString());
        assertRefused(replica, "bftws.reconfig.administrators", "admin.1.ed25519");
    }

    /** Each setting the epoch engine does not run is refused at start-up naming its own key, not ignored. */
    @Test
    public void whatTheEpochEngineDoesNotRunIsRefusedNamingItsKey() throws IOException {
        assertRefusedWith("bftws.ordering", "async", "bftws.ordering");
        assertRefusedWith("bftws.ordering", "hybrid", "bftws.ordering");
        assertRefusedWith("bftws.executingReplicas", "0,1,2", "bftws.executingReplicas");
        assertRefusedWith("bftws.authentication", "macs", "bftws.authentication");
        assertRefusedWith("bftws.randomness.algorithm", "ba", "bftws.randomness.algorithm");
        assertRefusedWith("bftws.dataDir", tmp.newFolder("data").getPath(), "bftws.dataDir");
        assertRefusedWith("bftws.replicatedClients", "4-7", "bftws.replicatedClients");
        Map<String, String> p = new HashMap<>(replica);
        p.remove("bftws.authentication"); // the default, macs, needs session keys per pair of members
        assertRefused(p, "bftws.authentication", "signatures");
    }

    @Test
    public void aClientOfTheGroupReadsTheSameKeys() {
        replica.put("bftws.role", "client");
        replica.remove("bftws.replica.id");
        assertEquals(2, BftwsParameters.parse(replica).administrators().count());
    }

    /** Running a fixed group would ignore every reconfiguration: the replica refuses to start, naming the key. */
    @Test
    public void aReplicaWithAdministratorsStopsAtStartUpNamingTheKey() {
        BftwsConfig c = BftwsParameters.parse(replica);
        try {
            BftwsReplica.start(null, c, null, null);
            fail("a reconfigurable replica started");
        } catch (AxisFault e) {
            assertTrue(e.getMessage(), e.getMessage().contains("bftws.reconfig.administrators"));
        }
    }

    private void assertRefusedWith(String key, String value, String refusedKey) {
        Map<String, String> p = new HashMap<>(replica);
        p.put(key, value);
        assertRefused(p, refusedKey, "bftws.reconfig.administrators");
    }

    private static void assertRefused(Map<String, String> params, String key, String messagePart) {
        try {
            BftwsParameters.parse(params);
            fail("accepted " + key + " in " + params);
        } catch (BftwsConfigException e) {
            assertEquals(e.getMessage(), key, e.key());
            assertTrue(e.getMessage(), e.getMessage().contains(messagePart));
        }
    }
}
