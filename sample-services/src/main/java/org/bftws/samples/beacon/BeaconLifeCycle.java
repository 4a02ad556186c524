package org.bftws.samples.beacon;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.description.AxisService;
import org.apache.axis2.description.Parameter;
import org.apache.axis2.engine.ServiceLifeCycle;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.keys.GroupKeys;
import org.bftws.module.BftwsRuntime;
import org.bftws.module.config.BftwsConfig;
import org.bftws.module.config.BftwsKeys;
import org.bftws.module.config.ReplicaEndpoint;
import org.bftws.module.keys.GroupKeyMaterial;

/**
 * Starts and stops a replica's drand beacon with the beacon service: the chain from the service's parameters
 * ({@code period} seconds, {@code genesis} epoch seconds, {@code beaconId}; the same archive on every replica,
 * so the same chain) and the group's threshold BLS key. Axis2 deploys the service before the module loads the
 * keys, so the beacon is built once Axis2 has started (or on first use, whichever comes first), and a timer
 * combines each round when it falls due so that {@code /public/latest} is ready. Where the replica's keys
 * cannot sign drand rounds (a CKS or RSA group key, no threshold share) or the instance is no replica, the
 * beacon is off: one WARN line at start-up names the key file and its scheme, and the beacon's endpoints
 * answer 501 with the same reason ({@link #refusal}).
 */
public final class BeaconLifeCycle implements ServiceLifeCycle {
    private static final Logger LOG = LogManager.getLogger(BeaconLifeCycle.class);
    private static final long START_POLL_MILLIS = 50;
    /** AxisService parameter holding this lifecycle, for the service class and the HTTP routes. */
    static final String INSTANCE = "org.bftws.samples.beacon.instance";

    private volatile ConfigurationContext context;
    private volatile AxisService service;
    private Beacon beacon;
    /** Why the beacon is off on this instance, once decided; null while it runs or is not decided yet. */
    private String refused;
    private volatile boolean stopped;
    private ExecutorService pool;
    private ScheduledExecutorService timer;

    @Override
    public void startUp(ConfigurationContext configurationContext, AxisService axisService) {
        this.context = configurationContext;
        this.service = axisService;
        try {
            axisService.addParameter(new Parameter(INSTANCE, this));
        } catch (org.apache.axis2.AxisFault e) {
            LOG.warn("beacon: cannot register with its service: {}", e.getMessage());
        }
        BeaconRoutes.register(configurationContext, this);
        Thread start = new Thread(this::buildWhenStarted, "bftws-beacon-start");
        start.setDaemon(true);
        start.start();
    }

    /** Builds the beacon (or logs why it is off) once Axis2 has started: the module has loaded the keys by then. */
    private void buildWhenStarted() {
        try {
            while (!context.getAxisConfiguration().isStart()) {
                if (stopped) {
                    return;
                }
                Thread.sleep(START_POLL_MILLIS);
            }
        } catch (InterruptedException e) {
            return;
        }
        beacon();
    }

    @Override
    public synchronized void shutDown(ConfigurationContext configurationContext, AxisService axisService) {
        stopped = true;
        if (timer != null) {
            timer.shutdownNow();
            pool.shutdownNow();
        }
        beacon = null;
    }

    /** The replica's beacon, built on first use; null where it cannot run ({@link #refused()} says why, if decided). */
    synchronized Beacon beacon() {
        if (beacon != null || refused != null || context == null) {
            return beacon;
        }
        Object cfg = context.getProperty(BftwsRuntime.CONFIG_PROPERTY);
        if (!(cfg instanceof BftwsConfig config)) {
            return null; // the module has not initialised (yet)
        }
        GroupKeyMaterial keys = BftwsRuntime.keys(context);
        refused = !config.isReplica() ? "this Axis2 instance is no replica of a group (bftws.replica.id is not set)"
                : keys != null && keys.keysPending() ? "keys not yet generated (bftws.keys.mode=dkg): the beacon"
                        + " starts with the generated keys at the replica's next start"
                : refusal(keys == null ? null : keys.group().scheme(), keys != null && keys.share() != null);
        if (refused != null) {
            if (config.isReplica()) {
                LOG.warn("beacon off on replica {}: {} ({} = {})", config.replicaId(), refused,
                        BftwsKeys.PUBLIC_KEYS.name(), config.publicKeysPath());
            } else {
                LOG.warn("beacon off: {}", refused);
            }
            return null;
        }
        GroupKeys group = keys.group();
        DrandChain chain = DrandChain.ofGroup(group.threshold().commonEncoding(), longParameter("period", 3),
                longParameter("genesis", 1_700_000_000L), stringParameter("beaconId", "bftws"));
        List<URI> bases = new ArrayList<>();
        for (ReplicaEndpoint r : config.replicas()) {
            bases.add(HttpPeers.base(r.endpoint()));
        }
        pool = Executors.newFixedThreadPool(Math.max(2, bases.size()), daemon("bftws-beacon-peers"));
        beacon = new Beacon(chain, group.thresholdScheme(), group.threshold(), keys.share(),
                new HttpPeers(bases, Duration.ofSeconds(2)), System::currentTimeMillis, pool);
        timer = Executors.newSingleThreadScheduledExecutor(daemon("bftws-beacon-timer"));
        long period = chain.periodSeconds() * 1000;
        long next = chain.roundTimeMillis(chain.roundAt(System.currentTimeMillis()) + 1);
        timer.scheduleAtFixedRate(this::combineCurrent, Math.max(0, next - System.currentTimeMillis()) + 50, period,
                TimeUnit.MILLISECONDS);
        LOG.info("beacon: drand chain {} (period {} s, genesis {}), served under /beacon/", chain.hashHex(),
                chain.periodSeconds(), chain.genesisSeconds());
        return beacon;
    }

    /** Why the beacon is off here, or null while it runs or before the module has loaded the keys. */
    synchronized String refused() {
        return refused;
    }

    /**
     * Why keys of {@code scheme} (null: none) cannot serve the drand beacon, or null if they can: drand's rounds
     * are threshold BLS signatures (G1) under the group key (G2), so only a BLS group key and its share can sign
     * them. Names the scheme and the keys' parameters, never a key.
     */
    static String refusal(SchemeId scheme, boolean hasShare) {
        if (scheme == null || !hasShare) {
            return "the drand beacon signs with the group's threshold BLS key, and this replica has no threshold"
                    + " key share in " + BftwsKeys.PRIVATE_KEY.name() + " (deal keys with scripts/keygen --scheme bls)";
        }
        if (scheme != SchemeId.BLS) {
            return "the drand beacon signs with the group's threshold BLS key, and " + BftwsKeys.PUBLIC_KEYS.name()
                    + " holds a " + scheme.label() + " group key: deal keys with scripts/keygen --scheme bls (and set "
                    + BftwsKeys.THRESHOLD_SCHEME.name() + " to bls for CT coins)";
        }
        return null;
    }

    private void combineCurrent() {
        Beacon b = beacon;
        if (b == null) {
            return;
        }
        try {
            b.round(b.chain().roundAt(System.currentTimeMillis()));
        } catch (Beacon.TooBusyException | RuntimeException e) {
            LOG.debug("beacon: round not combined now: {}", e.toString());
        }
    }

    private long longParameter(String name, long fallback) {
        String v = stringParameter(name, null);
        try {
            return v == null ? fallback : Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            LOG.warn("beacon: parameter {} = '{}' is not a number; {} is used", name, v, fallback);
            return fallback;
        }
    }

    private String stringParameter(String name, String fallback) {
        Parameter p = service == null ? null : service.getParameter(name);
        return p == null || p.getValue() == null ? fallback : p.getValue().toString();
    }

    private static ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }
}
