package org.bftws.client.group;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.bftws.client.embedded.Axis2Repository;
import org.bftws.client.embedded.Axis2Server;
import org.bftws.client.embedded.EmbeddedAxis2Server;
import org.bftws.client.embedded.TomcatAxis2Server;
import org.bftws.core.config.ConfigKey;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.keys.KeyFileException;
import org.bftws.core.keys.KeyFiles;
import org.bftws.core.keys.MemberFiles;
import org.bftws.module.config.BftwsKeys;
import org.bftws.module.config.KeysMode;
import org.bftws.module.config.Ordering;
import org.bftws.module.config.Side;
import org.bftws.module.http.RoutingHttpServer;

/**
 * Starts ONE replica of the demo group on 127.0.0.1: an embedded Axis2 server whose repository holds
 * {@code bftws.mar}, {@code addressing.mar} and the echo, dealer, id generator and counter services, with
 * {@code conf/axis2-replica.xml} plus the group's {@code bftws.*} parameters for replica {@code id}, the
 * randomness algorithm, and the keys of {@code scripts/keygen}. Echo is the group's main service (the
 * replicas' endpoints name it); dealer, id generator and counter are reached under the same group endpoint.
 * The counter keeps state: checkpoints capture it beside any other stateful service (docs/module.md, "State").
 *
 * <pre>
 *   GroupLauncher ports N                     # prints N free loopback ports, one a line
 *   GroupLauncher keystores --keys DIR --replicas N   # X.509 keystores for --security rampart (first run)
 *   GroupLauncher replica --id I --group FILE --keys DIR --dir DIR --artifacts DIR --conf DIR [--randomness ct]
 *                         [--container axis2|tomcat] [--security none|rampart] [--config I|II|III]
 *                         [--ordering pbft|async|hybrid] [--max-replicas M]
 * </pre>
 * {@code --max-replicas M} sets {@code bftws.maxReplicas}: the clients' node ids start at M instead of n, above
 * every replica index a grown group can use ({@link #maxReplicasParameters}); configurations I and II only.
 * {@code --ordering async} sets {@code bftws.ordering=async} (SINTRA's atomic broadcast instead of PBFT,
 * docs/configuration.md "Ordering modes"; {@link #orderingParameters}), {@code --ordering hybrid} the hybrid
 * engine (docs/design/hybrid.md); in the axis2 container only.
 * {@code --config II} runs configuration II ({@link Configuration}): replicas 0..f-1 only order; {@code --config III}
 * configuration III: the group file's members n..n+2f are execution nodes.
 * {@code --security rampart} signs the clients' and replicas' CreateSequence exchange with Rampart
 * ({@link GroupSecurity}); the keystores must exist in the key directory ({@code keystores} makes them).
 * {@code --container tomcat} runs the replica as Axis2's servlet in an embedded Tomcat instead of Axis2's own
 * HTTP server (same URLs, see {@link TomcatAxis2Server}).
 * The group file has one line per replica, {@code ID PORT} (ids 0..n-1). The replica runs until the JVM
 * is terminated (SIGTERM closes it cleanly).
 */
public final class GroupLauncher {
    /** The group endpoint every client addresses; the Multicast Sender maps it to the replicas. */
    public static final String GROUP_ENDPOINT = "http://echo.group.example/axis2/services/Echo";
    public static final String ECHO_NS = "urn:bftws:samples:echo";
    public static final String ECHO_ACTION = "urn:bftws:samples:echo:echo";
    /** The dealer and id generator of the same group: siblings of the group endpoint. */
    public static final String DEALER_ENDPOINT = "http://echo.group.example/axis2/services/Dealer";
    public static final String DEALER_NS = "urn:bftws:samples:dealer";
    public static final String DEALER_ACTION = "urn:bftws:samples:dealer:deal";
    public static final String IDGEN_ENDPOINT = "http://echo.group.example/axis2/services/IdGenerator";
    public static final String IDGEN_NS = "urn:bftws:samples:idgen";
    public static final String IDGEN_ACTION = "urn:bftws:samples:idgen:next";
    /** The stateful counter of the same group (wsdl/counter.wsdl). */
    public static final String COUNTER_ENDPOINT = "http://echo.group.example/axis2/services/Counter";
    public static final String COUNTER_NS = "urn:bftws:samples:counter";
    public static final String COUNTER_INCREMENT = "urn:bftws:samples:counter:increment";
    public static final String COUNTER_READ = "urn:bftws:samples:counter:read";
    /** The demo group draws collective random numbers by threshold coin (integrity paper §5). */
    public static final String RANDOMNESS_DEFAULT = "ct";

    private GroupLauncher() {
    }

    /** Where a group's pieces come from: bftws.mar/addressing.mar/echo.aar, conf/, and the keygen output. */
    public record Layout(Path artifacts, Path conf, Path keys) {
        Path replicaXml() {
            return conf.resolve("axis2-replica.xml");
        }
    }

    /** Reads a group file ({@code ID PORT} per line) into ports indexed by replica id. */
    public static int[] readGroup(Path file) throws IOException {
        Map<Integer, Integer> byId = new HashMap<>();
        for (String line : Files.readAllLines(file)) {
            String t = line.trim();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            String[] f = t.split("\\s+");
            byId.put(Integer.parseInt(f[0]), Integer.parseInt(f[1]));
        }
        int[] ports = new int[byId.size()];
        for (int i = 0; i < ports.length; i++) {
            Integer p = byId.get(i);
            if (p == null) {
                throw new IllegalArgumentException(file + ": no line for replica " + i);
            }
            ports[i] = p;
        }
        return ports;
    }

    /** The bftws.* parameters shared by every member and client of the group (configuration I or II). */
    public static String groupParameters(int[] ports, Path keys) {
        return groupParameters(ports, keys, Configuration.I);
    }

    /**
     * As above for a group of {@code ports.length} members in {@code configuration}: its {@code bftws.f} counts
     * the agreement replicas only (in configuration III the execution nodes are listed after them).
     */
    public static String groupParameters(int[] ports, Path keys, Configuration configuration) {
        return groupParameters(GROUP_ENDPOINT, "Echo", ports, keys, configuration);
    }

    /**
     * As above for any group of n = 3f+1 replicas: its endpoint, the main service its replicas' endpoints name,
     * its keys, {@code bftws.f} = (n-1)/3, and {@code bftws.randomness.scheme} = the scheme the keys' threshold
     * key was dealt for.
     */
    public static String groupParameters(String groupEndpoint, String mainService, int[] ports, Path keys) {
        return groupParameters(groupEndpoint, mainService, ports, keys, Configuration.I);
    }

    /** As above for {@code ports.length} members in {@code configuration}. */
    public static String groupParameters(String groupEndpoint, String mainService, int[] ports, Path keys,
            Configuration configuration) {
        return membership(groupEndpoint, mainService, ports, configuration)
                + param(BftwsKeys.PUBLIC_KEYS, keys.resolve(KeyFiles.GROUP_FILE)) + schemeParameter(keys);
    }

    /**
     * The group's members and {@code bftws.f}: without it every group would run with its default, f = 1, and a
     * replica of 7 or 10 listed would refuse to start.
     */
    private static String membership(String groupEndpoint, String mainService, int[] ports,
            Configuration configuration) {
        StringBuilder replicas = new StringBuilder();
        for (int r = 0; r < ports.length; r++) {
            replicas.append(r).append('=').append(serviceUrl(ports[r], mainService)).append(' ');
        }
        return param(BftwsKeys.REPLICATED, true) + param(BftwsKeys.GROUP_ENDPOINT.name(), groupEndpoint)
                + param(BftwsKeys.REPLICAS.name(), replicas.toString().trim())
                + param(GroupConfig.F, faults(configuration.agreementReplicas(ports.length)));
    }

    /** f of a group of n = 3f+1 agreement replicas (n = 3f+2 or 3f+3 tolerate no more). */
    public static int faults(int n) {
        return (n - 1) / 3;
    }

    /**
     * Whether {@code keys} holds a group without a dealer ({@code members.pub} of {@code keygen --group-from}):
     * its replicas then run with {@code bftws.keys.mode=dkg} and need a data directory for the generated keys.
     */
    public static boolean withoutDealer(Path keys) {
        return Files.isRegularFile(keys.resolve(MemberFiles.MEMBERS_FILE));
    }

    /** A replica's group parameters: the dealt keys', or without a dealer members.pub and keys.mode=dkg. */
    static String replicaGroupParameters(int[] ports, Path keys, Configuration configuration) {
        if (!withoutDealer(keys)) {
            return groupParameters(ports, keys, configuration);
        }
        Path members = keys.resolve(MemberFiles.MEMBERS_FILE);
        String scheme;
        try {
            scheme = MemberFiles.readMembers(members).scheme().label();
        } catch (KeyFileException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        return membership(GROUP_ENDPOINT, "Echo", ports, configuration) + param(BftwsKeys.PUBLIC_KEYS, members)
                + param(BftwsKeys.KEYS_MODE, KeysMode.DKG) + param(BftwsKeys.THRESHOLD_SCHEME.name(), scheme);
    }

    /** {@code bftws.randomness.scheme} of the dealt keys ("" without a readable group.pub: the default holds). */
    private static String schemeParameter(Path keys) {
        Path pub = keys.resolve(KeyFiles.GROUP_FILE);
        if (!Files.isRegularFile(pub)) {
            return "";
        }
        try {
            return param(BftwsKeys.THRESHOLD_SCHEME.name(), KeyFiles.readGroup(pub).scheme().label());
        } catch (KeyFileException e) {
            return ""; // the replica's own load of the file names the fault
        }
    }

    /**
     * Which replicas execute (BFT-WS §3.3.1–3.3.3). I: all of them. II: replicas f..n-1 (2f+1) execute and
     * deploy the services; 0..f-1, the first primaries among them, only order and deploy none (§3.3.2: "the Web
     * services for the application are loaded only at 2f+1 replicas"). III (§3.3.3): the group's members are
     * 3f+1 agreement replicas (ids 0..n-1), which only order and deploy no service, and 2f+1 execution nodes (ids
     * n..n+2f, {@code bftws.executionNodes}), which deploy the services, execute and reply; so a group file of
     * 5f+2 members ({@link #deploys}). An execution node signs with {@code client-(id-n+1).key}, the clients with the next one.
     */
    public enum Configuration {
        I, II, III;

        public static Configuration parse(String name) {
            for (Configuration c : values()) {
                if (c.name().equalsIgnoreCase(name)) {
                    return c;
                }
            }
            throw new IllegalArgumentException("--config is I, II or III, not " + name);
        }

        /** True when member {@code id} of a group of {@code members} executes and deploys the services. */
        public boolean executes(int id, int members) {
            return this == I || (this == II ? id >= (members - 1) / 3 : id >= agreementReplicas(members));
        }

        /**
         * True when member {@code id} deploys the service archives: all but configuration II's ordering-only
         * replicas. Configuration III's agreement replicas deploy the siblings of the main service as well, never
         * invoked (core hands them nothing to execute), so that each service's endpoint takes the clients' WS-RM
         * messages for ordering; for the main service (Echo) the module deploys its stand-in.
         */
        public boolean deploys(int id, int members) {
            return this != II || executes(id, members);
        }

        /** The agreement replicas n = 3f+1 among {@code members} (all of them but in configuration III). */
        public int agreementReplicas(int members) {
            if (this != III) {
                return members;
            }
            int f = (members - 2) / 5;
            if (f < 1 || members != 5 * f + 2) {
                throw new IllegalArgumentException("configuration III needs 3f+1 agreement replicas and 2f+1 execution"
                        + " nodes, 5f+2 members, got " + members);
            }
            return 3 * f + 1;
        }

        /** Which {@code client-J.key} the group's clients sign with: the first no execution node uses. */
        public int clientKey(int members) {
            return this == III ? members - agreementReplicas(members) + 1 : 1;
        }

        /** {@code bftws.replica.id} and {@code bftws.keys.private} of member {@code id}. */
        public String memberParameters(int id, int members, Path keys) {
            int n = agreementReplicas(members);
            return id < n ? replicaParameters(id, keys) : param(BftwsKeys.REPLICA_ID, id)
                    + param(BftwsKeys.PRIVATE_KEY, keys.resolve(KeyFiles.clientFileName(id - n + 1)));
        }

        /**
         * The group's {@code bftws.executingReplicas} (II) or {@code bftws.executionNodes} (III) parameter for a
         * group of {@code members} ("" in configuration I).
         */
        public String parameters(int n) {
            if (this == I) {
                return "";
            }
            if (this == III) {
                StringBuilder nodes = new StringBuilder();
                for (int id = agreementReplicas(n); id < n; id++) {
                    nodes.append(nodes.length() == 0 ? "" : " ").append(id);
                }
                return param(GroupConfig.EXECUTION_NODES.name(), nodes.toString());
            }
            StringBuilder ids = new StringBuilder();
            for (int r = 0; r < n; r++) {
                if (executes(r, n)) {
                    ids.append(ids.length() == 0 ? "" : " ").append(r);
                }
            }
            return param(GroupConfig.EXECUTING_REPLICAS.name(), ids.toString());
        }
    }

    /**
     * The {@code bftws.ordering} parameter every replica and client of the group gets for {@code ordering}
     * (pbft|async|hybrid, as written in axis2.xml); "" for pbft, the default.
     */
    public static String orderingParameters(String ordering) {
        Ordering o = BftwsKeys.ORDERING.parse(ordering);
        return o == BftwsKeys.ORDERING.defaultValue() ? "" : param(BftwsKeys.ORDERING, o);
    }

    /**
     * The {@code bftws.maxReplicas} parameter of {@code --max-replicas} in {@code options}, which replicas and
     * clients of the group must all get (the first client node id); "" without it, numbering clients from n.
     * Refused with configuration III, whose execution nodes this launcher numbers from n.
     */
    public static String maxReplicasParameters(Map<String, String> options, Configuration configuration) {
        String max = options.get("max-replicas");
        if (max == null) {
            return "";
        }
        if (configuration == Configuration.III) {
            throw new IllegalArgumentException("--max-replicas runs --config I or II only: configuration III's"
                    + " execution nodes are numbered from n here");
        }
        return param(GroupConfig.MAX_REPLICAS.name(), String.valueOf(Integer.parseInt(max)));
    }

    /** Where a replica runs: Axis2's own HTTP server, or Axis2's servlet in an embedded Tomcat. */
    public enum Container {
        AXIS2, TOMCAT;

        static Container parse(String name) {
            for (Container c : values()) {
                if (c.name().equalsIgnoreCase(name)) {
                    return c;
                }
            }
            throw new IllegalArgumentException("--container is axis2 or tomcat, not " + name);
        }
    }

    /** Assembles replica {@code id}'s repository under {@code dir} and starts it on its group-file port. */
    public static EmbeddedAxis2Server start(int id, int[] ports, Layout layout, Path dir) throws IOException {
        return start(id, ports, layout, dir, RANDOMNESS_DEFAULT);
    }

    /** As above, with {@code bftws.randomness.algorithm} = {@code randomness} (none|ct|ba|ba-hardened). */
    public static EmbeddedAxis2Server start(int id, int[] ports, Layout layout, Path dir, String randomness)
            throws IOException {
        return start(id, ports, layout, dir, randomness, "");
    }

    /** As above, with {@code extra} axis2.xml {@code <parameter>}s (e.g. tighter limits for tests). */
    public static EmbeddedAxis2Server start(int id, int[] ports, Layout layout, Path dir, String randomness,
            String extra) throws IOException {
        return start(id, ports, layout, dir, randomness, extra, GroupSecurity.NONE);
    }

    /** As above, signing the CreateSequence exchange as {@code security} says (its policy under {@code dir}). */
    public static EmbeddedAxis2Server start(int id, int[] ports, Layout layout, Path dir, String randomness,
            String extra, GroupSecurity security) throws IOException {
        return start(id, ports, layout, dir, randomness, extra, security, List.of());
    }

    /**
     * As above, deploying the service archives {@code services} beside the demo's; clients reach each under the
     * group endpoint's sibling {@code .../services/NAME}.
     */
    public static EmbeddedAxis2Server start(int id, int[] ports, Layout layout, Path dir, String randomness,
            String extra, GroupSecurity security, List<Path> services) throws IOException {
        return start(id, ports, layout, dir, randomness, extra, security, services, Configuration.I);
    }

    /**
     * As above in {@code configuration}: in configuration II a replica that only orders deploys no service
     * archive (the module stands in for the main service, docs/configuration.md "Configurations").
     */
    public static EmbeddedAxis2Server start(int id, int[] ports, Layout layout, Path dir, String randomness,
            String extra, GroupSecurity security, List<Path> services, Configuration configuration)
            throws IOException {
        Path xml = replicaXml(id, ports, layout, dir.resolve("conf/axis2.xml"), randomness, configuration,
                configuration.memberParameters(id, ports.length, layout.keys()),
                security.replicaParameters(layout.keys(), ports.length, id, dir.resolve("conf"))
                        + configuration.parameters(ports.length) + extra);
        Axis2Repository.Builder repository = Axis2Repository.at(dir.resolve("repository")).axis2Xml(xml);
        if (!configuration.deploys(id, ports.length)) {
            return EmbeddedAxis2Server.start(security.withModule(withModules(repository, layout), layout).build(),
                    ports[id]);
        }
        for (Path aar : services) {
            repository.service(aar);
        }
        return EmbeddedAxis2Server.start(withArchives(repository, layout, security,
                configuration.executes(id, ports.length)), ports[id]);
    }

    /**
     * As {@link #start}, in {@code container}; in Tomcat the repository is a web application's WEB-INF
     * ({@code dir/webapp}) served by AxisServlet at the same URLs, Tomcat's own files under {@code dir/tomcat}.
     */
    public static Axis2Server start(Container container, int id, int[] ports, Layout layout, Path dir)
            throws IOException {
        return start(container, id, ports, layout, dir, RANDOMNESS_DEFAULT);
    }

    /** As above, with {@code bftws.randomness.algorithm} = {@code randomness}. */
    public static Axis2Server start(Container container, int id, int[] ports, Layout layout, Path dir,
            String randomness) throws IOException {
        return start(container, id, ports, layout, dir, randomness, GroupSecurity.NONE);
    }

    /** As above, signing the CreateSequence exchange as {@code security} says. */
    public static Axis2Server start(Container container, int id, int[] ports, Layout layout, Path dir,
            String randomness, GroupSecurity security) throws IOException {
        return start(container, id, ports, layout, dir, randomness, security, "");
    }

    /** As above, with {@code extra} axis2.xml {@code <parameter>}s (say a data directory). */
    public static Axis2Server start(Container container, int id, int[] ports, Layout layout, Path dir,
            String randomness, GroupSecurity security, String extra) throws IOException {
        if (container == Container.AXIS2) {
            return start(id, ports, layout, dir, randomness, extra, security);
        }
        return TomcatAxis2Server.start(webApplication(id, ports, layout, dir, randomness, security, extra),
                ports[id], dir.resolve("tomcat"));
    }

    /**
     * {@code bftws.dataDir} = {@code dataDir} and {@code bftws.journal.durability} = {@code durability}: a PBFT
     * replica that restarts with state from its journal (docs/journal.md).
     */
    public static String journalParameters(Path dataDir, String durability) {
        return param(BftwsKeys.DATA_DIR, dataDir)
                + param(BftwsKeys.JOURNAL_DURABILITY.name(), durability);
    }

    /**
     * Replica {@code id}'s Axis2 web application, {@code dir/webapp}: WEB-INF/conf/axis2.xml (the replica's
     * axis2.xml with the servlet transport), WEB-INF/modules/, WEB-INF/services/.
     */
    public static Path webApplication(int id, int[] ports, Layout layout, Path dir) throws IOException {
        return webApplication(id, ports, layout, dir, RANDOMNESS_DEFAULT, GroupSecurity.NONE, "");
    }

    private static Path webApplication(int id, int[] ports, Layout layout, Path dir, String randomness,
            GroupSecurity security, String extra) throws IOException {
        Path xml = replicaXml(id, ports, layout, dir.resolve("conf/axis2.xml"), randomness, Configuration.I,
                replicaParameters(id, layout.keys()),
                security.replicaParameters(layout.keys(), ports.length, id, dir.resolve("conf")) + extra);
        Path webapp = dir.resolve("webapp");
        withArchives(TomcatAxis2Server.webApplication(webapp, xml), layout, security);
        return webapp;
    }

    /**
     * conf/axis2-replica.xml with the group's parameters, {@code member}'s (its id and key) for member {@code id},
     * {@code randomness} as {@code bftws.randomness.algorithm} followed by any {@code <parameter>}s in
     * {@code extra}, written to {@code out}.
     */
    static Path replicaXml(int id, int[] ports, Layout layout, Path out, String randomness,
            Configuration configuration, String member, String extra) throws IOException {
        if (id < 0 || id >= ports.length) {
            throw new IllegalArgumentException("replica id " + id + " is not in 0.." + (ports.length - 1));
        }
        return withParameters(layout.replicaXml(), out, replicaGroupParameters(ports, layout.keys(), configuration)
                + member + param(BftwsKeys.RANDOMNESS.name(), randomness) + extra);
    }

    /**
     * bftws.mar, addressing.mar (and rampart.mar when signing) and the echo, dealer, id generator, counter and
     * drand beacon services into a replica's repository.
     */
    private static Axis2Repository withArchives(Axis2Repository.Builder repository, Layout layout,
            GroupSecurity security) throws IOException {
        return withArchives(repository, layout, security, true);
    }

    /** As above; without the main service echo.aar unless {@code echo} (the module stands in for it). */
    private static Axis2Repository withArchives(Axis2Repository.Builder repository, Layout layout,
            GroupSecurity security, boolean echo) throws IOException {
        Path services = layout.artifacts().resolve("services");
        Axis2Repository.Builder modules = security.withModule(withModules(repository, layout), layout);
        return (echo ? modules.service(services.resolve("echo.aar")) : modules)
                .service(services.resolve("dealer.aar")).service(services.resolve("idgen.aar"))
                .service(services.resolve("counter.aar")).service(services.resolve("beacon.aar")).build();
    }

    /** bftws.mar and addressing.mar into a repository (a client's needs no more). */
    static Axis2Repository.Builder withModules(Axis2Repository.Builder repository, Layout layout) throws IOException {
        return repository.module(layout.artifacts().resolve("modules/bftws.mar"))
                .module(layout.artifacts().resolve("modules/addressing.mar"));
    }

    /** {@code bftws.replica.id} and {@code bftws.keys.private} of replica {@code id} (keygen's file names). */
    public static String replicaParameters(int id, Path keys) {
        Path own = keys.resolve(MemberFiles.identityFileName(id + 1));
        return param(BftwsKeys.REPLICA_ID, id) + param(BftwsKeys.PRIVATE_KEY,
                withoutDealer(keys) ? own : keys.resolve(KeyFiles.replicaFileName(id + 1)));
    }

    /**
     * A replica (or any server) under {@code dir} on {@code port}: conf/axis2-replica.xml with
     * {@code parameters}, both modules, and the named service archives of {@code layout.artifacts()/services}.
     */
    public static EmbeddedAxis2Server startReplica(Layout layout, Path dir, int port, String parameters,
            String... aars) throws IOException {
        Path xml = withParameters(layout.replicaXml(), dir.resolve("conf/axis2.xml"), parameters);
        Axis2Repository.Builder repo = withModules(Axis2Repository.at(dir.resolve("repository")).axis2Xml(xml), layout);
        for (String aar : aars) {
            repo.service(layout.artifacts().resolve("services").resolve(aar));
        }
        return EmbeddedAxis2Server.start(repo.build(), port);
    }

    /** {@code bftws.role=client} with keygen's {@code client-J.key} (J from 1). */
    public static String clientParameters(int j, Path keys) {
        return param(BftwsKeys.ROLE, Side.CLIENT)
                + param(BftwsKeys.PRIVATE_KEY, keys.resolve(KeyFiles.clientFileName(j)));
    }

    /**
     * A client repository under {@code dir}: conf/axis2-client.xml with {@code parameters} (and, for a group
     * client, an HTTP transportReceiver where the replicas reply), both modules; not started.
     */
    public static Axis2Repository clientRepository(Layout layout, Path dir, String parameters) throws IOException {
        Path xml = withParameters(layout.conf().resolve("axis2-client.xml"), dir.resolve("conf/axis2.xml"),
                parameters);
        return withModules(Axis2Repository.at(dir.resolve("repository")).axis2Xml(xml), layout).build();
    }

    /**
     * An HTTP transportReceiver (RoutingHttpServer: SimpleHTTPServer with the bounded drain of refused bodies and the instance's registered GET paths), on
     * {@code port} unless it is 0 (then the caller picks).
     */
    public static String httpReceiver(int port) {
        String portParam = port == 0 ? "" : "<parameter name=\"port\">" + port + "</parameter>";
        return "<transportReceiver name=\"http\" class=\"" + RoutingHttpServer.class.getName() + "\">"
                + portParam + "</transportReceiver>\n    ";
    }

    /** Copies {@code source} to {@code out} with {@code extra} inserted before the first phaseOrder. */
    public static Path withParameters(Path source, Path out, String extra) throws IOException {
        String xml = Files.readString(source);
        int at = xml.indexOf("<phaseOrder");
        if (at < 0) {
            throw new IllegalArgumentException(source + " has no <phaseOrder>");
        }
        Files.createDirectories(out.getParent());
        Files.writeString(out, xml.substring(0, at) + extra + "\n    " + xml.substring(at));
        return out;
    }

    /** One axis2.xml {@code <parameter>} line. */
    public static String param(String name, String value) {
        return "<parameter name=\"" + name + "\">" + value + "</parameter>\n    ";
    }

    /** One axis2.xml {@code <parameter>} line of a declared key, its value written as the key parses it. */
    public static <T> String param(ConfigKey<T> key, T value) {
        return param(key.name(), key.text(value));
    }

    /** {@code http://127.0.0.1:PORT/axis2/services/NAME}. */
    public static String serviceUrl(int port, String service) {
        return "http://" + EmbeddedAxis2Server.LOOPBACK + ":" + port + "/axis2/services/" + service;
    }

    /**
     * {@code count} distinct ports free on the loopback interface at the time of the call, outside the kernel's
     * ephemeral range so that no outgoing connection takes one before its server binds it ({@link LoopbackPorts}).
     */
    public static int[] freePorts(int count) throws IOException {
        return LoopbackPorts.take(count);
    }

    public static Map<String, String> options(String[] args, int from) {
        Map<String, String> o = new HashMap<>();
        for (int i = from; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --name value, got " + args[i]);
            }
            o.put(args[i].substring(2), args[i + 1]);
        }
        return o;
    }

    public static String required(Map<String, String> o, String name) {
        String v = o.get(name);
        if (v == null) {
            throw new IllegalArgumentException("missing --" + name);
        }
        return v;
    }

    public static Layout layout(Map<String, String> o) {
        return new Layout(Path.of(required(o, "artifacts")), Path.of(required(o, "conf")),
                Path.of(required(o, "keys")));
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("ports")) {
            for (int p : freePorts(Integer.parseInt(args[1]))) {
                System.out.println(p);
            }
            return;
        }
        if (args.length >= 1 && args[0].equals("keystores")) {
            Map<String, String> o = options(args, 1);
            GroupSecurity.keystores(Path.of(required(o, "keys")), Integer.parseInt(required(o, "replicas")));
            return;
        }
        if (args.length < 1 || !args[0].equals("replica")) {
            System.err.println("usage: GroupLauncher ports N | keystores --keys DIR --replicas N | replica --id I"
                    + " --group FILE --keys DIR --dir DIR --artifacts DIR --conf DIR"
                    + " [--randomness none|ct|ba|ba-hardened] [--container axis2|tomcat] [--security none|rampart]"
                    + " [--config I|II|III] [--ordering pbft|async|hybrid] [--data-dir DIR [--durability os|fsync]]"
                    + " [--max-replicas M]");
            System.exit(2);
        }
        Map<String, String> o = options(args, 1);
        int id = Integer.parseInt(required(o, "id"));
        int[] ports = readGroup(Path.of(required(o, "group")));
        String randomness = o.getOrDefault("randomness", RANDOMNESS_DEFAULT);
        Container container = Container.parse(o.getOrDefault("container", "axis2"));
        GroupSecurity security = GroupSecurity.parse(o.getOrDefault("security", "none"));
        Configuration configuration = Configuration.parse(o.getOrDefault("config", "I"));
        if (configuration != Configuration.I && container != Container.AXIS2) {
            throw new IllegalArgumentException("--config " + configuration + " runs in --container axis2 only");
        }
        String ordering = o.getOrDefault("ordering", "pbft");
        String orderingParameters = orderingParameters(ordering);
        if (!orderingParameters.isEmpty() && container != Container.AXIS2) {
            throw new IllegalArgumentException("--ordering " + ordering + " runs in --container axis2 only");
        }
        String journal = o.containsKey("data-dir")
                ? journalParameters(Path.of(o.get("data-dir")), o.getOrDefault("durability", "os")) : "";
        String extra = journal + maxReplicasParameters(o, configuration);
        Axis2Server server = configuration == Configuration.I && orderingParameters.isEmpty()
                ? start(container, id, ports, layout(o), Path.of(required(o, "dir")), randomness, security, extra)
                : start(id, ports, layout(o), Path.of(required(o, "dir")), randomness, orderingParameters + extra,
                        security, List.of(), configuration);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } catch (Exception e) {
                System.err.println("replica " + id + ": " + e);
            }
            stopped.countDown();
        }, "replica-shutdown"));
        String what = configuration.agreementReplicas(ports.length) <= id ? "execution node " : "replica ";
        System.out.println(what + id + " serving " + server.serviceUrl("Echo")
                + (configuration.executes(id, ports.length) ? ", Dealer, IdGenerator, Counter" : " (ordering only)")
                + " in " + container.name().toLowerCase(Locale.ROOT) + "; randomness " + randomness
                + ", security " + security.value() + ", configuration " + configuration + ", ordering " + ordering
                + (journal.isEmpty() ? "" : ", journal in " + o.get("data-dir")));
        stopped.await();
    }
}
