package org.bftws.module.config;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.bftws.core.config.ConfigKey;
import org.bftws.core.config.GroupConfig;
import org.bftws.module.transport.MulticastSettings;
import org.bftws.module.xml.XmlLimits;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

public class BftwsParametersTest {
    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    private Map<String, String> replica;

    /** A valid replica 2 of a 4-replica group; each test breaks one thing. */
    @Before
    public void validReplica() throws IOException {
        File priv = tmp.newFile("replica2.key");
        File pub = tmp.newFile("group.pub");
        replica = new HashMap<>();
        replica.put("bftws.replicated", "true");
        replica.put("bftws.role", "replica");
        replica.put("bftws.f", "1");
        replica.put("bftws.group.endpoint", "http://group.example/axis2/services/Echo");
        replica.put("bftws.replicas", " 0=http://127.0.0.1:9000/a, 1=http://127.0.0.1:9001/a\n"
                + " 3=http://127.0.0.1:9003/a 2=http://127.0.0.1:9002/a ");
        replica.put("bftws.replica.id", "2");
        replica.put("bftws.keys.private", priv.getPath());
        replica.put("bftws.keys.public", pub.getPath());
        replica.put("bftws.randomness.algorithm", "CT");
        replica.put("bftws.randomness.scheme", "bls");
        replica.put("unrelated.axis2.parameter", "anything");
    }

    @Test
    public void emptyConfigurationGivesPlainWsRmWithDocumentedDefaults() {
        BftwsConfig c = BftwsParameters.parse(Map.of());
        assertFalse(c.replicated());
        assertFalse(c.isReplica());
        assertFalse(c.isGroupClient());
        assertEquals(0, c.n());
        assertEquals(Side.CLIENT, c.side());
        // The protocol keys come from core, with core's defaults: no second declaration here.
        assertEquals(1, c.f());
        assertEquals(GroupConfig.CHECKPOINT_INTERVAL.defaultValue().intValue(), c.group().checkpointInterval());
        assertEquals(GroupConfig.MAX_BATCH_SIZE.defaultValue(), (Integer) c.group().get(GroupConfig.MAX_BATCH_SIZE));
        assertEquals(20, c.tickMillis());
        assertEquals(16 << 20, c.controlMaxBytes());
        assertEquals(24 << 20, c.httpMaxRequestBytes());
        assertEquals(new XmlLimits(256, 100_000, 64), c.xmlLimits());
        assertEquals(RandomnessAlgorithm.NONE, c.randomness());
        assertEquals(ThresholdScheme.CKS, c.thresholdScheme());
        assertEquals(SecurityMode.NONE, c.security());
        assertNull(c.securityPolicy());
        assertTrue(c.replicas().isEmpty());
    }

    /** bftws.maxReplicas: the first client node id, n when not given, never below n (named when it is). */
    @Test
    public void maxReplicasGivesTheClientBaseAtLeastN() {
        assertEquals(4, BftwsParameters.parse(replica).clientBase());
        replica.put("bftws.maxReplicas", "7");
        BftwsConfig c = BftwsParameters.parse(replica);
        assertEquals(4, c.n());
        assertEquals(7, c.clientBase());
        replica.put("bftws.maxReplicas", "3");
        try {
            BftwsParameters.parse(replica);
            fail("a client base below n");
        } catch (BftwsConfigException e) {
            assertEquals("bftws.maxReplicas", e.key());
            assertTrue(e.getMessage(), e.getMessage().contains("bftws.maxReplicas"));
        }
    }

    @Test
    public void validReplicaIsParsedWithReplicasOrderedById() {
        BftwsConfig c = BftwsParameters.parse(replica);
        assertTrue(c.isReplica());
        assertEquals(4, c.n());
        assertEquals(2, c.replicaId());
        assertEquals(URI.create("http://127.0.0.1:9003/a"), c.replicas().get(3).endpoint());
        assertEquals(3, c.replicas().get(3).id());
        assertEquals(RandomnessAlgorithm.CT, c.randomness());
        assertEquals(ThresholdScheme.BLS, c.thresholdScheme());
    }

    @Test
    public void protocolKeysAreParsedByCore() {
        replica.put("bftws.f", "2");
        replica.put("bftws.replicas", "0=http://h/a 1=http://h/b 2=http://h/c 3=http://h/d 4=http://h/e"
                + " 5=http://h/f 6=http://h/g");
        replica.put("bftws.checkpointInterval", "8");
        replica.put("bftws.logWindow", "16");
        replica.put("bftws.viewChangeTimeoutTicks", "300");
        replica.put("bftws.tickMillis", "5");
        BftwsConfig c = BftwsParameters.parse(replica);
        assertEquals(7, c.n());
        assertEquals(8, c.group().checkpointInterval());
        assertEquals(16, c.group().logWindow());
        assertEquals(300, c.group().get(GroupConfig.VIEW_CHANGE_TIMEOUT));
        assertEquals(5, c.tickMillis());
    }

    @Test
    public void everyCoreKeyIsAcceptedAndNoneIsRedeclared() {
        for (ConfigKey<Integer> k : GroupConfig.KEYS) {
            assertTrue(k.name(), BftwsParameters.KEYS.contains(k.name()));
            assertFalse(k.name(), BftwsParameters.MODULE_KEYS.contains(k.name()));
        }
        for (ConfigKey<Boolean> k : GroupConfig.FLAGS) {
            assertTrue(k.name(), BftwsParameters.KEYS.contains(k.name()));
            assertFalse(k.name(), BftwsParameters.MODULE_KEYS.contains(k.name()));
        }
    }

    @Test
    public void coinPerBatchIsACoreFlag() {
        assertFalse(BftwsParameters.parse(replica).group().flag(GroupConfig.COIN_PER_BATCH));
        replica.put("bftws.coinPerBatch", "true");
        assertTrue(BftwsParameters.parse(replica).group().flag(GroupConfig.COIN_PER_BATCH));
    }

    @Test
    public void clientNeedsNoReplicaId() {
        replica.put("bftws.role", "client");
        replica.remove("bftws.replica.id");
        BftwsConfig c = BftwsParameters.parse(replica);
        assertTrue(c.isGroupClient());
        assertEquals(-1, c.replicaId());
    }

    @Test
    public void everyRandomnessAlgorithmIsAcceptedAsWritten() {
        for (RandomnessAlgorithm a : RandomnessAlgorithm.values()) {
            replica.put("bftws.randomness.algorithm", a.configValue());
            assertEquals(a, BftwsParameters.parse(replica).randomness());
        }
        assertEquals("ba-hardened", RandomnessAlgorithm.BA_HARDENED.configValue());
    }

    @Test
    public void theGroupEndpointAndItsSiblingServicesAreTheGroups() {
        BftwsConfig c = BftwsParameters.parse(replica);
        assertEquals("", c.groupService("http://group.example/axis2/services/Echo"));
        assertEquals("Dealer", c.groupService("http://group.example/axis2/services/Dealer"));
        assertNull(c.groupService("http://group.example/axis2/services/"));
        assertNull(c.groupService("http://group.example/axis2/services/Dealer/x"));
        assertNull(c.groupService("http://other.example/axis2/services/Dealer"));
        assertNull(c.groupService("http://127.0.0.1:9000/a"));
        assertTrue(c.isGroupEndpoint("http://group.example/axis2/services/IdGenerator"));
    }

    @Test
    public void theThresholdShareHasNoKeyOfItsOwn() {
        // The share lives in the replica's bftws.keys.private file (replica-I.key); the old key is unknown.
        assertRejected("bftws.keys.threshold.share", "/some/file", "not a BFT-WS parameter");
    }

    @Test
    public void groupKeysAreNotRequiredWhileReplicationIsOff() {
        Map<String, String> p = Map.of("bftws.replicated", "false", "bftws.f", "2");
        BftwsConfig c = BftwsParameters.parse(p);
        assertFalse(c.replicated());
        assertNull(c.groupEndpoint());
    }

    @Test
    public void valuesAreTypeCheckedEvenWhileReplicationIsOff() {
        expectFault(Map.of("bftws.maxBatchSize", "0"), "bftws.maxBatchSize");
    }

    @Test
    public void eachWrongValueNamesItsKey() {
        assertRejected("bftws.replicated", "yes", "true or false");
        assertRejected("bftws.role", "primary", "client|replica");
        assertRejected("bftws.f", "0", "from 1");
        assertRejected("bftws.f", "one", "integer");
        assertRejected("bftws.group.endpoint", "mailto:x@y", "http");
        assertRejected("bftws.group.endpoint", "http://bad host/", "URL");
        assertRejected("bftws.replica.id", "4", "between 0 and 3");
        assertRejected("bftws.keys.private", "/nonexistent/key", "no readable file");
        assertRejected("bftws.keys.public", "", "required");
        assertRejected("bftws.f", "33", "from 1 to 32");
        assertRejected("bftws.maxBatchSize", "-3", "from 1");
        assertRejected("bftws.maxOutstandingBatches", "many", "integer");
        assertRejected("bftws.checkpointInterval", "x", "integer");
        assertRejected("bftws.logWindow", "31", "at least twice");
        assertRejected("bftws.viewChangeTimeoutTicks", "0", "from 2");
        assertRejected("bftws.clientRetransmitTicks", "99999999999", "integer");
        assertRejected("bftws.tickMillis", "0", "between 1");
        assertRejected("bftws.control.maxMessageBytes", "1048576", "must exceed bftws.maxRequestBytes");
        assertRejected("bftws.http.maxRequestBytes", "1000", "between 4096");
        assertRejected("bftws.http.maxRequestBytes", "20000000", "to carry a control message");
        assertRejected("bftws.xml.maxDepth", "1001", "between 1 and 1000");
        assertRejected("bftws.xml.maxElements", "0", "between 1");
        assertRejected("bftws.xml.maxAttributes", "many", "integer");
        assertRejected("bftws.randomness.algorithm", "coin", "none|ba|ba-hardened|ct");
        assertRejected("bftws.randomness.scheme", "ecdsa", "cks|bls|rsa");
    }

    @Test
    public void replicaListMustMatchThreeFPlusOne() {
        replica.put("bftws.f", "2");
        expectFault(replica, "bftws.replicas");
    }

    @Test
    public void replicaListRejectsDuplicatesGapsAndGarbage() {
        assertRejected("bftws.replicas", "0=http://h/a 1=http://h/b 2=http://h/c 2=http://h/d", "twice");
        assertRejected("bftws.replicas", "0=http://h/a 1=http://h/b 2=http://h/c 3=http://h/a", "twice");
        assertRejected("bftws.replicas", "0=http://h/a 1=http://h/b 2=http://h/c", "3f+1 = 4");
        assertRejected("bftws.replicas", "0=http://h/a 1=http://h/b 2=http://h/c http://h/d", "id=endpoint");
        assertRejected("bftws.replicas",
                "0=http://h/a 1=http://h/b 2=http://h/c 3=http://group.example/axis2/services/Echo",
                "group endpoint");
    }

    @Test
    public void replicaIdIsRequiredOnReplicasAndForbiddenOnClients() {
        replica.remove("bftws.replica.id");
        expectFault(replica, "bftws.replica.id");
        replica.put("bftws.replica.id", "1");
        replica.put("bftws.role", "client");
        expectFault(replica, "bftws.replica.id");
    }

    @Test
    public void misspeltKeyStopsStartUp() {
        expectFault(Map.of("bftws.checkpointIntervall", "64"), "bftws.checkpointIntervall");
        // the keys of the previous release, now declared in core under other names
        expectFault(Map.of("bftws.batch.size", "10"), "bftws.batch.size");
    }

    @Test
    public void everyDeclaredKeyCarriesThePrefix() {
        for (String key : BftwsParameters.KEYS) {
            assertTrue(key, key.startsWith(BftwsParameters.PREFIX));
        }
    }

    /** Sets one key of the valid replica to a bad value and expects a fault naming that key. */
    @Test
    public void clientReplyEndpointIsAClientKeyAndAnHttpUrl() {
        assertRejected("bftws.client.replyEndpoint", "http://127.0.0.1:9100/axis2/services/BftwsControl",
                "role is replica");
        Map<String, String> client = new HashMap<>(replica);
        client.remove("bftws.replica.id");
        client.put("bftws.role", "client");
        client.put("bftws.client.replyEndpoint", "ftp://127.0.0.1/x");
        expectFault(client, "bftws.client.replyEndpoint");
        client.put("bftws.client.replyEndpoint", "http://127.0.0.1:9100/axis2/services/BftwsControl");
        BftwsConfig c = BftwsParameters.parse(client);
        assertTrue(c.isGroupClient());
        assertEquals(URI.create("http://127.0.0.1:9100/axis2/services/BftwsControl"), c.clientReplyEndpoint());
        assertNull(BftwsParameters.parse(replica).clientReplyEndpoint());
    }

    /** A bigger control message needs a bigger HTTP body: raising one alone names the other. */
    @Test
    public void theHttpBodyLimitMustCarryTheLargestControlMessage() {
        replica.put("bftws.control.maxMessageBytes", String.valueOf(32 << 20));
        BftwsConfigException e = expectFaultOf(replica);
        assertEquals("bftws.http.maxRequestBytes", e.key());
        assertTrue(e.getMessage(), e.getMessage().contains("bftws.control.maxMessageBytes"));
        replica.put("bftws.http.maxRequestBytes", String.valueOf(48 << 20));
        assertEquals(48 << 20, BftwsParameters.parse(replica).httpMaxRequestBytes());
    }

    @Test
    public void rampartSigningNeedsAReadablePolicyAndNoneForbidsOne() throws IOException {
        assertRejected("bftws.security", "wss4j", "none|rampart");
        assertEquals(SecurityMode.NONE, BftwsParameters.parse(replica).security());
        replica.put("bftws.security", "rampart");
        expectFault(replica, "bftws.security.policy");
        replica.put("bftws.security.policy", "/nonexistent/policy.xml");
        expectFault(replica, "bftws.security.policy");
        File policy = tmp.newFile("policy.xml");
        replica.put("bftws.security.policy", policy.getPath());
        BftwsConfig c = BftwsParameters.parse(replica);
        assertEquals(SecurityMode.RAMPART, c.security());
        assertEquals(policy.toPath(), c.securityPolicy());
        replica.put("bftws.security", "none");
        assertRejected("bftws.security.policy", policy.getPath(), "bftws.security is none");
    }

    @Test
    public void multicastKeysHaveDefaultsAndRanges() {
        MulticastSettings d = BftwsParameters.parse(replica).multicast();
        assertEquals(MulticastSettings.defaults(), d);
        assertEquals((int) BftwsKeys.MULTICAST_WINDOW.defaultValue(), d.window());
        replica.put("bftws.multicast.window", "1");
        replica.put("bftws.multicast.retransmissions", "0");
        replica.put("bftws.multicast.retransmitMillis", "250");
        replica.put("bftws.multicast.bufferBytes", "65536");
        MulticastSettings m = BftwsParameters.parse(replica).multicast();
        assertEquals(List.of(1, 0, 250, 65536), List.of(m.window(), m.retransmissions(), m.retransmitMillis(),
                m.bufferBytes()));
        assertRejected("bftws.multicast.window", "0", "between 1 and 64");
        assertRejected("bftws.multicast.retransmissions", "-1", "between 0 and 16");
        assertRejected("bftws.multicast.retransmitMillis", "soon", "integer");
        assertRejected("bftws.multicast.bufferBytes", "1024", "between 65536");
    }

    /** BFT-WS §3.3.2: the executing replicas, at least 2f+1 of the group's ids; not given, all of them. */
    @Test
    public void executingReplicasAreCheckedAgainstTheGroup() {
        assertEquals(List.of(0, 1, 2, 3), BftwsParameters.parse(replica).group().executingReplicas());
        replica.put("bftws.executingReplicas", "3 1, 2");
        assertEquals(List.of(1, 2, 3), BftwsParameters.parse(replica).group().executingReplicas());
        assertRejected("bftws.executingReplicas", "1 2", "at least 2f+1 = 3");
        assertRejected("bftws.executingReplicas", "1 2 4", "0..3");
        assertRejected("bftws.executingReplicas", "1 2 two", null);
    }

    /**
     * bftws.ordering: pbft by default; async refuses what its engine cannot run (BA randomness, agreement-only
     * replicas, replicated clients), each naming the key that must change, and names the PBFT-only keys it ignores.
     */
    @Test
    public void asynchronousOrderingRefusesWhatItsEngineCannotRun() {
        assertEquals(Ordering.PBFT, BftwsParameters.parse(replica).ordering());
        assertRejected("bftws.ordering", "sintra", "pbft|async|hybrid");
        replica.put("bftws.ordering", "async");
        assertEquals(Ordering.ASYNC, BftwsParameters.parse(replica).ordering());
        replica.put("bftws.randomness.algorithm", "none");
        assertEquals(Ordering.ASYNC, BftwsParameters.parse(replica).ordering());
        assertRejected("bftws.randomness.algorithm", "ba", "draw through PBFT's primary");
        assertRejected("bftws.randomness.algorithm", "ba-hardened", "ct or none with bftws.ordering=async");
        assertRejected("bftws.executingReplicas", "1 2 3", "configuration I");
        assertRejected("bftws.replicatedClients", "4-7", "must be none with bftws.ordering=async");
        replica.put("bftws.viewChangeTimeoutTicks", "400");
        replica.put("bftws.authentication", "signatures");
        assertEquals(List.of("bftws.viewChangeTimeoutTicks", "bftws.authentication"),
                BftwsParameters.ignoredByOrdering(BftwsParameters.parse(replica), replica));
        replica.put("bftws.ordering", "pbft");
        assertEquals(List.of(), BftwsParameters.ignoredByOrdering(BftwsParameters.parse(replica), replica));
    }

    /**
     * bftws.ordering=hybrid refuses what async refuses (its fallback is the asynchronous stack), naming the key
     * and the mode, and ignores fewer PBFT keys: its lane reads the leader's window and the view-change timeout
     * (the switch budget's cap) and the authentication (its lane's messages by MACs or signatures), not the
     * timeout's doubling cap.
     */
    @Test
    public void hybridOrderingRefusesWhatItsFallbackCannotRunAndIgnoresOnlyWhatItsLaneDoesNotRead()
            throws IOException {
        replica.put("bftws.ordering", "hybrid");
        assertEquals(Ordering.HYBRID, BftwsParameters.parse(replica).ordering());
        assertRejected("bftws.randomness.algorithm", "ba", "ct or none with bftws.ordering=hybrid");
        assertRejected("bftws.executingReplicas", "1 2 3", "configuration I");
        assertRejected("bftws.replicatedClients", "4-7", "must be none with bftws.ordering=hybrid");
        replica.put("bftws.maxOutstandingBatches", "4");
        replica.put("bftws.viewChangeTimeoutTicks", "400");
        replica.put("bftws.viewChangeTimeoutMaxTicks", "4000");
        replica.put("bftws.authentication", "signatures");
        assertEquals(List.of("bftws.viewChangeTimeoutMaxTicks"),
                BftwsParameters.ignoredByOrdering(BftwsParameters.parse(replica), replica));
    }

    /**
     * bftws.dataDir: unset by default (no journal, restart empty); taken on a PBFT, asynchronous or hybrid
     * replica with either durability; refused, naming the key, on a client and on an execution node.
     */
    @Test
    public void aDataDirectoryIsTakenByAnOrderingReplicaOnly() throws IOException {
        BftwsConfig plain = BftwsParameters.parse(replica);
        assertNull(plain.dataDir());
        assertEquals(JournalDurability.OS, plain.journalDurability());
        String dir = tmp.newFolder("data").getPath();
        replica.put("bftws.dataDir", dir);
        replica.put("bftws.journal.durability", "fsync");
        BftwsConfig journaled = BftwsParameters.parse(replica);
        assertEquals(java.nio.file.Path.of(dir), journaled.dataDir());
        assertEquals(JournalDurability.FSYNC, journaled.journalDurability());
        assertRejected("bftws.journal.durability", "sometimes", "os|fsync");
        replica.put("bftws.ordering", "async");
        assertEquals(java.nio.file.Path.of(dir), BftwsParameters.parse(replica).dataDir());
        replica.put("bftws.ordering", "hybrid");
        assertEquals(java.nio.file.Path.of(dir), BftwsParameters.parse(replica).dataDir());
        replica.put("bftws.ordering", "pbft");
        Map<String, String> node = configurationThree("5");
        node.put("bftws.dataDir", dir);
        BftwsConfigException e = expectFaultOf(node);
        assertEquals("bftws.dataDir", e.key());
        assertTrue(e.getMessage(), e.getMessage().contains("execution node 5"));
        node.put("bftws.replica.id", "2");
        assertEquals(java.nio.file.Path.of(dir), BftwsParameters.parse(node).dataDir());
        replica.put("bftws.role", "client");
        replica.remove("bftws.replica.id");
        assertRejected("bftws.dataDir", dir, "only replicas keep a journal");
    }

    /** BFT-WS §3.3.3: {@code bftws.replicas} names the execution nodes beside the agreement replicas. */
    @Test
    public void executionNodesAreListedBesideTheReplicas() {
        Map<String, String> p = configurationThree("5");
        BftwsConfig c = BftwsParameters.parse(p);
        assertTrue(c.isExecutionNode());
        assertEquals(4, c.replicas().size());
        assertEquals(URI.create("http://127.0.0.1:9003/a"), c.replicas().get(3).endpoint());
        assertEquals(List.of(5, 6, 7), c.executionNodes().stream().map(ReplicaEndpoint::id).toList());
        assertEquals(URI.create("http://127.0.0.1:9006/a"), c.member(6).endpoint());
        p.put("bftws.replica.id", "2");
        assertFalse(BftwsParameters.parse(p).isExecutionNode());
    }

    @Test
    public void executionNodesNeedAnEndpointAndNoRandomnessOrSigning() {
        Map<String, String> p = configurationThree("5");
        p.put("bftws.replicas", p.get("bftws.replicas").replace("7=http://127.0.0.1:9007/a", ""));
        assertEquals("bftws.replicas", expectFaultOf(p).key());
        p = configurationThree("5");
        p.put("bftws.randomness.algorithm", "ct");
        assertEquals("bftws.randomness.algorithm", expectFaultOf(p).key());
        p = configurationThree("8");
        assertEquals("bftws.replica.id", expectFaultOf(p).key());
    }

    /** Replica 2's parameters in a group with execution nodes 5, 6 and 7, as node {@code id}. */
    private Map<String, String> configurationThree(String id) {
        Map<String, String> p = new HashMap<>(replica);
        p.put("bftws.executionNodes", "5 6 7");
        p.put("bftws.replicas", replica.get("bftws.replicas") + " 5=http://127.0.0.1:9005/a 6=http://127.0.0.1:9006/a"
                + " 7=http://127.0.0.1:9007/a");
        p.put("bftws.randomness.algorithm", "none");
        p.remove("bftws.randomness.scheme");
        p.put("bftws.replica.id", id);
        return p;
    }

    /** Keys without a dealer: default dealer; dkg refuses what it cannot serve, naming the key at fault. */
    @Test
    public void keysModeDkgIsValidatedAgainstSchemeOrderingAndDataDirectory() throws IOException {
        assertEquals(KeysMode.DEALER, BftwsParameters.parse(replica).keysMode());
        replica.put("bftws.keys.mode", "dkg");
        assertEquals("bftws.dataDir", expectFaultOf(replica).key());
        replica.put("bftws.dataDir", tmp.newFolder("data").getPath());
        assertEquals(KeysMode.DKG, BftwsParameters.parse(replica).keysMode());
        assertRejected("bftws.keys.mode", "trusted", "dealer|dkg");
        assertRejected("bftws.randomness.scheme", "rsa", "Shoup RSA keys have no distributed generation");
        assertRejected("bftws.randomness.algorithm", "none", "must be ct with bftws.keys.mode=dkg");
        assertRejected("bftws.randomness.algorithm", "ba", "must be ct with bftws.keys.mode=dkg");
        Map<String, String> async = new HashMap<>(replica);
        async.remove("bftws.dataDir");
        async.put("bftws.ordering", "async");
        BftwsConfigException e = expectFaultOf(async);
        assertEquals("bftws.keys.mode", e.key());
        assertTrue(e.getMessage(), e.getMessage().contains("bftws.ordering=async"));
    }

    @Test
    public void refreshEveryCheckpointsIsOffByDefaultBoundedAndOnlyForGeneratedKeys() throws IOException {
        assertEquals(0, BftwsParameters.parse(replica).refreshEveryCheckpoints());
        assertRejected("bftws.keys.refreshEveryCheckpoints", "4", "must be 0 with bftws.keys.mode=dealer");
        replica.put("bftws.keys.mode", "dkg");
        replica.put("bftws.dataDir", tmp.newFolder("data").getPath());
        replica.put("bftws.keys.refreshEveryCheckpoints", "4");
        assertEquals(4, BftwsParameters.parse(replica).refreshEveryCheckpoints());
        assertRejected("bftws.keys.refreshEveryCheckpoints", "-1", null);
        assertRejected("bftws.keys.refreshEveryCheckpoints", "many", null);
    }

    private void assertRejected(String key, String value, String messagePart) {
        Map<String, String> p = new HashMap<>(replica);
        p.put(key, value);
        BftwsConfigException e = expectFaultOf(p);
        assertEquals(key, e.key());
        assertTrue(e.getMessage(), e.getMessage().contains("'" + key + "'"));
        if (messagePart != null) {
            assertTrue(e.getMessage(), e.getMessage().contains(messagePart));
        }
    }

    private static void expectFault(Map<String, String> params, String key) {
        assertEquals(key, expectFaultOf(params).key());
    }

    private static BftwsConfigException expectFaultOf(Map<String, String> params) {
        try {
            BftwsParameters.parse(params);
        } catch (BftwsConfigException e) {
            return e;
        }
        fail("accepted " + params);
        return null;
    }
}
