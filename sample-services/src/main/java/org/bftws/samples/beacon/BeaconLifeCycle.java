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
import org.bftws.module.config.ReplicaEndpoint;
import org.bftws.module.keys.GroupKeyMaterial;

/**
 * Starts and stops a replica's drand beacon with the beacon service: the chain from the service's parameters
 * ({@code period} seconds, {@code genesis} epoch seconds, {@code beaconId}; the same archive on every replica,
 * so the same chain) and the group's threshold BLS key; the beacon is built on first use, once the module has
 * loaded the keys, and a timer combines each round when it falls due so that {@code /public/latest} is ready.
 * Off, with one warning, where the replica's keys are not threshold BLS or the instance is no replica.
 */
public final class BeaconLifeCycle implements ServiceLifeCycle {
    private static final Logger LOG = LogManager.getLogger(BeaconLifeCycle.class);
    /** AxisService parameter holding this lifecycle, for the service class and the HTTP routes. */
    static final String INSTANCE = "org.bftws.samples.beacon.instance";

    private volatile ConfigurationContext context;
    private volatile AxisService service;
    private Beacon beacon;
    private boolean refused;
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
    }

    @Override
    public synchronized void shutDown(ConfigurationContext configurationContext, AxisService axisService) {
        if (timer != null) {
            timer.shutdownNow();
            pool.shutdownNow();
        }
        beacon = null;
    }

    /** The replica's beacon, built on first use; null where it cannot run (logged once). */
    synchronized Beacon beacon() {
        if (beacon != null || refused || context == null) {
            return beacon;
        }
        Object cfg = context.getProperty(BftwsRuntime.CONFIG_PROPERTY);
        GroupKeyMaterial keys = BftwsRuntime.keys(context);
        if (!(cfg instanceof BftwsConfig config) || keys == null || keys.share() == null) {
            return null; // the module has not loaded this replica's keys (yet, or this is no replica)
        }
        GroupKeys group = keys.group();
        if (group.scheme() != SchemeId.BLS) {
            refused = true;
            LOG.warn("beacon off: it needs the group's threshold BLS key; {} holds a {} key (scripts/keygen --scheme bls)",
                    "bftws.keys.public", group.scheme().label());
            return null;
        }
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
