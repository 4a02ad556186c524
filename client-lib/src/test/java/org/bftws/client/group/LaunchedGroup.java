package org.bftws.client.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.bftws.client.embedded.Axis2Server;
import org.bftws.client.embedded.TomcatAxis2Server;
import org.bftws.core.keys.KeyGen;
import org.bftws.module.BftwsRuntime;
import org.bftws.module.order.TotalOrderManager;
import org.junit.rules.ExternalResource;
import org.junit.rules.TemporaryFolder;

/**
 * The one way the HTTP-level tests assemble a replica group: the demo group as scripts/start-group makes it, in
 * one JVM. Keys from {@link KeyGen} (4 replicas, 1 client unless {@link #clientKeys}), four {@link GroupLauncher}
 * replicas on free loopback ports (echo the main service; dealer, id generator, counter and any {@link #service}
 * beside it) in Axis2's own HTTP server or in Tomcat, {@link DemoClient}s as the group's clients; all stopped
 * after the test (or the class, as a {@code ClassRule}). Use inside the {@link TemporaryFolder} it writes to
 * ({@code RuleChain.outerRule(tmp).around(group)}). The options apply to replicas started after they are set.
 */
public final class LaunchedGroup extends ExternalResource {
    public static final int N = 4;
    /**
     * Checkpoint every 4 batches, window 8, quick retransmission (replicas and client): a replica down for a dozen
     * calls falls behind and catches up by state transfer within a test.
     */
    public static final String FAST_CHECKPOINTS = GroupLauncher.param("bftws.checkpointInterval", "4")
            + GroupLauncher.param("bftws.logWindow", "8") + GroupLauncher.param("bftws.retransmitTicks", "5")
            + GroupLauncher.param("bftws.clientRetransmitTicks", "25");
    /** Configuration III's execution nodes beside the N replicas: 2f+1, ids N..N+2f. */
    public static final int EXECUTION_NODES = 2 * ((N - 1) / 3) + 1;

    private final TemporaryFolder tmp;
    /** By member id; sized by {@link #configuration}. */
    private Axis2Server[] replicas = new Axis2Server[N];
    private Path[] dirs = new Path[N];
    private final List<DemoClient> clients = new ArrayList<>();
    private final List<Path> services = new ArrayList<>();
    private int clientKeys = 1;
    private String scheme = "cks";
    private String randomness = GroupLauncher.RANDOMNESS_DEFAULT;
    private String parameters = "";
    private String clientParameters = "";
    private GroupSecurity security = GroupSecurity.NONE;
    private GroupLauncher.Container container = GroupLauncher.Container.AXIS2;
    private GroupLauncher.Configuration configuration = GroupLauncher.Configuration.I;
    private boolean installed;
    private boolean serversOnly;
    private GroupLauncher.Layout layout;
    /** Null, or the replicas' bftws.journal.durability: each keeps a journal in {@link #dataDir}. */
    private String journal;
    private int[] ports;
    private boolean withoutDealer;

    public LaunchedGroup(TemporaryFolder tmp) {
        this.tmp = tmp;
    }

    /** How many client keys keygen makes ({@code client-1.key} ...; the demo clients sign with the first). */
    public LaunchedGroup clientKeys(int count) {
        if (layout != null) {
            throw new IllegalStateException("the keys are made already");
        }
        clientKeys = count;
        return this;
    }

    /** The threshold scheme keygen deals (cks, bls, rsa; cks otherwise); the replicas follow the keys. */
    public LaunchedGroup scheme(String label) {
        if (layout != null) {
            throw new IllegalStateException("the keys are made already");
        }
        scheme = label;
        return this;
    }

    /**
     * No dealer: each replica's own keys ({@code keygen --replica}), the clients' ({@code --client}) and
     * members.pub ({@code --group-from}) in the key directory; the replicas run with {@code bftws.keys.mode=dkg}
     * and generate the threshold keys at first start (needs {@link #journaled}, whose data directories keep
     * them). Clients need a group.pub there, which a test copies from a replica once generated.
     */
    public LaunchedGroup withoutDealer() {
        if (layout != null) {
            throw new IllegalStateException("the keys are made already");
        }
        withoutDealer = true;
        return this;
    }

    /** {@code bftws.randomness.algorithm} of the replicas (none|ct|ba|ba-hardened; the demo's ct otherwise). */
    public LaunchedGroup randomness(String algorithm) {
        randomness = algorithm;
        return this;
    }

    /** Further axis2.xml {@code <parameter>}s of every replica ({@link GroupLauncher#param}). */
    public LaunchedGroup parameters(String extra) {
        parameters = extra;
        return this;
    }

    /** Further axis2.xml {@code <parameter>}s of every demo client (e.g. its retransmission timeout). */
    public LaunchedGroup clientParameters(String extra) {
        clientParameters = extra;
        return this;
    }

    /**
     * BFT-WS §3.3's configuration of replicas and clients (II: replicas 0..f-1 only order and deploy no
     * service); in Axis2's own server.
     */
    public LaunchedGroup configuration(GroupLauncher.Configuration c) {
        if (layout != null) {
            throw new IllegalStateException("the members' ports are picked already");
        }
        configuration = c;
        replicas = new Axis2Server[members()];
        dirs = new Path[members()];
        return this;
    }

    /**
     * Gives each PBFT replica a data directory ({@link #dataDir}) for its journal with this
     * {@code bftws.journal.durability}: started again, it restarts with state (docs/journal.md); in Axis2's own
     * server.
     */
    public LaunchedGroup journaled(String durability) {
        journal = durability;
        return this;
    }

    /** Replica {@code r}'s data directory, the same across its restarts; outside its (fresh) start directory. */
    public Path dataDir(int r) {
        return tmp.getRoot().toPath().resolve("data-replica" + r);
    }

    /** Waits until every replica of a group without a dealer wrote its group.cert (its keys generated, certified). */
    public void awaitCertified(long waitMillis) throws InterruptedException {
        org.bftws.module.testing.Conditions.await("every replica certified its generated group.pub", waitMillis, () -> {
            for (int r = 0; r < N; r++) {
                if (!Files.exists(dataDir(r).resolve(org.bftws.core.keys.GroupCertificate.FILE))) {
                    return false;
                }
            }
            return true;
        });
    }

    /** How the replicas and the clients sign their CreateSequence exchange. */
    public LaunchedGroup security(GroupSecurity signing) {
        security = signing;
        return this;
    }

    /** Runs the replicas as Axis2's servlet in an embedded Tomcat ({@link GroupLauncher.Container#TOMCAT}). */
    public LaunchedGroup inTomcat() {
        container = GroupLauncher.Container.TOMCAT;
        return this;
    }

    /**
     * Runs each replica in Tomcat as an installed Axis2 web application does: AxisServlet, Axis2, Sandesha2 and
     * bftws loaded by the application's own class loader from its WEB-INF/lib (docs/installing.md: installation into an
     * existing Axis2 web application), so the replicas share no class with each other or with the test, and
     * their {@code context()} is null.
     */
    public LaunchedGroup installedInTomcat() {
        inTomcat();
        installed = true;
        return this;
    }

    /**
     * Starts each replica as a server only, on its group port: conf/axis2-replica.xml without the group's
     * parameters (bftws engaged, nothing replicated) and the echo service. The test attaches the ordering to
     * the server's context itself ({@code BftwsReplica.start}), as OrderingOverHttpTest does to measure ordering
     * without Axis2 invocation.
     */
    public LaunchedGroup serversOnly() {
        serversOnly = true;
        return this;
    }

    /** A further service archive every replica deploys, reached under the group endpoint's sibling. */
    public LaunchedGroup service(Path aar) {
        services.add(aar);
        return this;
    }

    /** Generates the keys and picks the ports; no replica runs yet. */
    public GroupLauncher.Layout layout() throws IOException {
        if (layout == null) {
            Path keys = tmp.newFolder("keys").toPath();
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            // configuration III's execution nodes sign with the first client keys (GroupLauncher.Configuration)
            int keysMade = clientKeys + configuration.clientKey(members()) - 1;
            if (withoutDealer) {
                individualKeys(keys, keysMade, log);
            } else {
                assertEquals(log.toString(), 0, KeyGen.run(new String[] {"--out", keys.toString(), "--replicas",
                    String.valueOf(N), "--clients", String.valueOf(keysMade), "--scheme", scheme}, new SecureRandom(),
                    new PrintStream(log), new PrintStream(log)));
            }
            layout = new GroupLauncher.Layout(Path.of(System.getProperty("bftws.test.artifacts")),
                    Path.of(System.getProperty("bftws.conf")), keys);
            ports = GroupLauncher.freePorts(members());
        }
        return layout;
    }

    /** As each host would: its own keys; then members.pub from the public files alone. */
    private void individualKeys(Path keys, int clients, ByteArrayOutputStream log) {
        List<String[]> commands = new ArrayList<>();
        for (int i = 1; i <= N; i++) {
            commands.add(new String[] {"--replica", String.valueOf(i), "--out", keys.toString()});
        }
        for (int j = 1; j <= clients; j++) {
            commands.add(new String[] {"--client", String.valueOf(j), "--out", keys.toString()});
        }
        commands.add(new String[] {"--group-from", keys.toString(), "--out", keys.toString(), "--scheme", scheme});
        for (String[] c : commands) {
            assertEquals(log.toString(), 0, KeyGen.run(c, new SecureRandom(), new PrintStream(log),
                    new PrintStream(log)));
        }
    }

    /** The group's members: the N replicas, and in configuration III the execution nodes after them. */
    public int members() {
        return configuration == GroupLauncher.Configuration.III ? N + EXECUTION_NODES : N;
    }

    /** The replicas' ports, by replica id. */
    public int[] ports() throws IOException {
        layout();
        return ports;
    }

    /** Starts all replicas, each in a fresh directory {@code replicaR}. */
    public LaunchedGroup start() throws IOException {
        if (security == GroupSecurity.RAMPART) {
            GroupSecurity.keystores(layout().keys(), N); // as scripts/start-group does, before the parties start
        }
        for (int r = 0; r < members(); r++) {
            start(r, "replica" + r);
        }
        return this;
    }

    /**
     * (Re)starts replica {@code r} in a fresh directory named {@code dirName}: with an empty state, or with
     * {@link #journaled} from its journal in {@link #dataDir}.
     */
    public Axis2Server start(int r, String dirName) throws IOException {
        dirs[r] = tmp.newFolder(dirName).toPath();
        if (serversOnly) {
            if (container != GroupLauncher.Container.AXIS2 || !parameters.isEmpty() || !services.isEmpty()) {
                throw new IllegalStateException("a server-only replica is Axis2's own server with the echo service");
            }
            replicas[r] = GroupLauncher.startReplica(layout(), dirs[r], ports()[r], "", "echo.aar");
        } else if (container == GroupLauncher.Container.AXIS2) {
            String journaling = journal != null && r < N
                    ? GroupLauncher.journalParameters(dataDir(r), journal) : "";
            replicas[r] = GroupLauncher.start(r, ports(), layout(), dirs[r], randomness, parameters + journaling,
                    security, services, configuration);
        } else if (!parameters.isEmpty() || !services.isEmpty() || configuration != GroupLauncher.Configuration.I
                || journal != null) {
            throw new IllegalStateException("GroupLauncher runs replicas in Tomcat without further parameters"
                    + " or services");
        } else if (installed) {
            if (security != GroupSecurity.NONE || !randomness.equals(GroupLauncher.RANDOMNESS_DEFAULT)) {
                throw new IllegalStateException("an installed web application is the demo replica as it is");
            }
            Path webapp = GroupLauncher.webApplication(r, ports(), layout(), dirs[r]);
            webInfLib(webapp);
            replicas[r] = TomcatAxis2Server.startInstalled(webapp, ports()[r], dirs[r].resolve("tomcat"));
        } else {
            replicas[r] = GroupLauncher.start(container, r, ports(), layout(), dirs[r], randomness, security);
        }
        return replicas[r];
    }

    /** Stops replica {@code r} (as a crash would: its state is gone). */
    public void stop(int r) throws Exception {
        replicas[r].close();
        replicas[r] = null;
    }

    public Axis2Server replica(int r) {
        assertNotNull("replica " + r + " is running", replicas[r]);
        return replicas[r];
    }

    /** The replicas by id, as they are now (null where stopped): the group's own array, not a copy. */
    public Axis2Server[] replicas() {
        return replicas;
    }

    public TotalOrderManager manager(int r) {
        return BftwsRuntime.replica(replica(r).context()).manager();
    }

    /** The axis2.xml replica {@code r} was last started with. */
    public Path axis2Xml(int r) {
        assertNotNull("replica " + r + " was started", dirs[r]);
        return dirs[r].resolve("conf/axis2.xml");
    }

    /** A demo client of this group (client-1's key), signing as the group does; closed after the test. */
    public DemoClient client(String dirName) throws IOException {
        return client(dirName, security);
    }

    /** As above, signing as {@code signing} says (a client the group must refuse, say). */
    public DemoClient client(String dirName, GroupSecurity signing) throws IOException {
        DemoClient c = DemoClient.connect(GroupLauncher.Container.AXIS2, ports(), layout(),
                tmp.newFolder(dirName).toPath(), signing, clientParameters + configuration.parameters(members()),
                configuration.clientKey(members()), configuration);
        clients.add(c);
        return c;
    }

    /**
     * Fills an Axis2 web application's {@code WEB-INF/lib} with the jars an installed deployment holds there:
     * client-lib's runtime class path (Axis2, Axiom, Sandesha2, the bftws module and core, Log4j, ...) without
     * Tomcat, which the container provides. Class directories (a reactor build that did not package) are
     * jarred.
     */
    private static void webInfLib(Path webapp) throws IOException {
        Path lib = webapp.resolve("WEB-INF/lib");
        Files.createDirectories(lib);
        String classPath = Files.readString(Path.of(System.getProperty("bftws.test.webappLib"))).trim();
        for (String entry : classPath.split(File.pathSeparator)) {
            Path p = Path.of(entry);
            if (p.getFileName().toString().startsWith("tomcat-")) {
                continue;
            }
            if (Files.isDirectory(p)) {
                jar(p, lib.resolve(p.getParent().getParent().getFileName() + ".jar"));
            } else {
                Files.copy(p, lib.resolve(p.getFileName()));
            }
        }
    }

    private static void jar(Path classes, Path jar) throws IOException {
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(jar));
                Stream<Path> files = Files.walk(classes)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                out.putNextEntry(new ZipEntry(classes.relativize(f).toString().replace('\\', '/')));
                Files.copy(f, out);
                out.closeEntry();
            }
        }
    }

    @Override
    protected void after() {
        try {
            for (DemoClient c : clients) {
                c.close();
            }
            for (Axis2Server s : replicas) {
                if (s != null) {
                    s.close();
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException("stopping the launched group", e);
        }
    }
}
