package org.bftws.client.group;

import static org.junit.Assert.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.bftws.client.faults.Testbed;
import org.bftws.client.group.GroupLauncher.Configuration;
import org.bftws.core.keys.KeyGen;
import org.bftws.module.config.BftwsConfig;
import org.bftws.module.config.BftwsParameters;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The axis2.xml {@link GroupLauncher} writes for each replica (scripts/start-group) and the parameters
 * {@link DemoClient} gives a client (scripts/group-client) give every group size its own f: each member of a
 * group of n = 7 or 10 validates its configuration as one of 3f+1 with f = 2 or 3, in each configuration and
 * key mode, exactly as the module reads it at start-up. conf/axis2-replica.xml says f = 1; without the group's
 * {@code bftws.f} after it, a replica listed among 7 refused to start. The fault campaign's group file
 * ({@link Testbed}) gives its f alike.
 */
public class GroupParametersTest {
    /** Top-level and nested parameters alike; the later of two with one name wins, as in Axis2's own reading. */
    private static final Pattern PARAM = Pattern.compile("<parameter name=\"(bftws\\.[^\"]+)\">([^<]*)</parameter>");

    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    @Test
    public void dealtKeysGroupsOfSevenAndTenRunWithTheirF() throws Exception {
        for (int n : new int[] {4, 7, 10}) {
            Path keys = tmp.newFolder("dealt-" + n).toPath();
            keyGen("--out", keys.toString(), "--replicas", String.valueOf(n), "--clients", "1", "--scheme", "cks");
            for (Configuration c : new Configuration[] {Configuration.I, Configuration.II}) {
                assertMembersRunWithF(n, n, c, keys);
            }
            assertClientVotesWithF(n, n, Configuration.I, keys);
        }
    }

    @Test
    public void configurationThreeCountsOnlyItsAgreementReplicas() throws Exception {
        for (int f = 1; f <= 2; f++) {
            int n = 3 * f + 1;
            int members = 5 * f + 2;
            Path keys = tmp.newFolder("three-" + f).toPath();
            // the execution nodes sign with client keys 1..2f+1, the clients with the next
            keyGen("--out", keys.toString(), "--replicas", String.valueOf(n), "--clients",
                    String.valueOf(2 * f + 2), "--scheme", "cks");
            assertMembersRunWithF(n, members, Configuration.III, keys);
            assertClientVotesWithF(n, members, Configuration.III, keys);
        }
    }

    @Test
    public void groupsWithoutADealerOfSevenRunWithTheirF() throws Exception {
        int n = 7;
        Path keys = tmp.newFolder("dkg").toPath();
        for (int i = 1; i <= n; i++) {
            keyGen("--replica", String.valueOf(i), "--out", keys.toString());
        }
        keyGen("--client", "1", "--out", keys.toString());
        keyGen("--group-from", keys.toString(), "--out", keys.toString(), "--scheme", "cks");
        assertMembersRunWithF(n, n, Configuration.I, keys);
    }

    @Test
    public void theFaultCampaignsGroupOfSevenRunsWithItsF() throws Exception {
        int n = 7;
        Path keys = tmp.newFolder("testbed").toPath();
        keyGen("--out", keys.toString(), "--replicas", String.valueOf(n), "--clients", "1", "--scheme", "cks");
        StringBuilder lines = new StringBuilder();
        for (int r = 0; r < n; r++) {
            lines.append(r).append(" 9000 198.18.1.").append(r + 1).append('\n');
        }
        Path group = tmp.newFile("group").toPath();
        Files.writeString(group, lines);
        Testbed testbed = Testbed.read(group);
        String client = Files.readString(layout(keys).conf().resolve("axis2-client.xml"))
                + testbed.groupParameters(keys) + GroupLauncher.clientParameters(1, keys);
        BftwsConfig config = BftwsParameters.parse(parameters(client));
        assertEquals("f of the fault campaign's client of " + n, 2, config.group().f());
        assertEquals(n, config.group().n());
    }

    private void assertMembersRunWithF(int n, int members, Configuration c, Path keys) throws IOException {
        int[] ports = ports(members);
        GroupLauncher.Layout layout = layout(keys);
        for (int id = 0; id < members; id++) {
            Path dir = tmp.newFolder().toPath();
            Path xml = GroupLauncher.replicaXml(id, ports, layout, dir.resolve("axis2.xml"),
                    c == Configuration.III ? "none" : "ct", c,
                    c.memberParameters(id, members, keys), c.parameters(members)
                            + (id < n ? GroupLauncher.journalParameters(dir.resolve("data"), "os") : ""));
            BftwsConfig config = BftwsParameters.parse(parameters(Files.readString(xml)));
            assertEquals("f of member " + id + " of " + members + " in configuration " + c, (n - 1) / 3,
                    config.group().f());
            assertEquals("n of member " + id + " of " + members, n, config.group().n());
        }
    }

    private void assertClientVotesWithF(int n, int members, Configuration c, Path keys) throws IOException {
        String client = Files.readString(layout(keys).conf().resolve("axis2-client.xml"))
                + GroupLauncher.groupParameters(ports(members), keys, c)
                + GroupLauncher.clientParameters(c.clientKey(members), keys) + c.parameters(members);
        BftwsConfig config = BftwsParameters.parse(parameters(client));
        assertEquals("f of a client of " + members + " in configuration " + c, (n - 1) / 3, config.group().f());
    }

    private static GroupLauncher.Layout layout(Path keys) {
        return new GroupLauncher.Layout(Path.of(System.getProperty("bftws.test.artifacts")),
                Path.of(System.getProperty("bftws.conf")), keys);
    }

    private static int[] ports(int members) {
        int[] ports = new int[members];
        for (int i = 0; i < members; i++) {
            ports[i] = 20000 + i; // written into the configuration only; nothing listens
        }
        return ports;
    }

    private static Map<String, String> parameters(String xml) {
        Map<String, String> p = new HashMap<>();
        Matcher m = PARAM.matcher(xml.replaceAll("(?s)<!--.*?-->", ""));
        while (m.find()) {
            p.put(m.group(1), m.group(2).trim());
        }
        return p;
    }

    private static void keyGen(String... args) {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        assertEquals(log.toString(), 0, KeyGen.run(args, new SecureRandom(), new PrintStream(log),
                new PrintStream(log)));
    }
}
