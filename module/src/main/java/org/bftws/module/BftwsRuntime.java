package org.bftws.module;

import java.net.URI;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.MessageContext;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.bftws.module.client.GroupClientRuntime;
import org.bftws.module.config.BftwsConfig;
import org.bftws.module.config.BftwsKeys;
import org.bftws.module.keys.GroupKeyMaterial;
import org.bftws.module.order.BftwsReplica;
import org.bftws.module.order.DkgBootstrap;
import org.bftws.module.order.KeyRefresh;

/**
 * Where the handlers find what {@link BftwsModule} set up at start-up: the validated configuration, the keys,
 * and the running replica or client side. All live as properties of the ConfigurationContext, one set per
 * Axis2 instance.
 */
public final class BftwsRuntime {
    private static final Logger LOG = LogManager.getLogger(BftwsRuntime.class);

    /** ConfigurationContext property holding the {@link BftwsConfig}. */
    public static final String CONFIG_PROPERTY = "org.bftws.module.config";
    /** ConfigurationContext property holding the {@link GroupKeyMaterial} of a group member. */
    static final String KEYS_PROPERTY = "org.bftws.module.keys";
    /** ConfigurationContext property holding a replica's {@link BftwsReplica}. */
    public static final String REPLICA_PROPERTY = "org.bftws.module.replica";
    /** ConfigurationContext property holding a replica's {@link DkgBootstrap} while its keys are pending. */
    public static final String DKG_PROPERTY = "org.bftws.module.dkg";
    /** ConfigurationContext property holding a replica's {@link KeyRefresh} in a group without a dealer. */
    public static final String REFRESH_PROPERTY = "org.bftws.module.refresh";
    /** ConfigurationContext property holding a client's {@link GroupClientRuntime}, once started. */
    static final String CLIENT_PROPERTY = "org.bftws.module.client";

    private BftwsRuntime() {
    }

    static void publish(ConfigurationContext configContext, BftwsConfig config) {
        configContext.setProperty(CONFIG_PROPERTY, config);
    }

    static void publishKeys(ConfigurationContext configContext, GroupKeyMaterial keys) {
        configContext.setProperty(KEYS_PROPERTY, keys);
    }

    /**
     * The configuration of the Axis2 instance that is processing {@code msgContext}.
     *
     * @throws AxisFault if the module was engaged without being initialised (then its settings are
     *                   unknown, and guessing "not replicated" could drop BFT guarantees silently)
     */
    public static BftwsConfig config(MessageContext msgContext) throws AxisFault {
        ConfigurationContext cc = msgContext.getConfigurationContext();
        Object config = cc == null ? null : cc.getProperty(CONFIG_PROPERTY);
        if (!(config instanceof BftwsConfig)) {
            throw new AxisFault("bftws module is engaged but was not initialised (see the start-up log)");
        }
        return (BftwsConfig) config;
    }

    /** This group member's keys, or null when the instance is not part of a group. */
    public static GroupKeyMaterial keys(ConfigurationContext cc) {
        Object k = cc.getProperty(KEYS_PROPERTY);
        return k instanceof GroupKeyMaterial g ? g : null;
    }

    /** The running replica of this Axis2 instance, or null (not a replica, or stopped). */
    public static BftwsReplica replica(ConfigurationContext cc) {
        Object r = cc.getProperty(REPLICA_PROPERTY);
        return r instanceof BftwsReplica ? (BftwsReplica) r : null;
    }

    /** The client side of this Axis2 instance if started, or null. */
    public static GroupClientRuntime runningClient(ConfigurationContext cc) {
        Object c = cc.getProperty(CLIENT_PROPERTY);
        return c instanceof GroupClientRuntime g ? g : null;
    }

    /**
     * The client side of this Axis2 instance, started on first use: only then is the HTTP listener that
     * receives the replicas' replies known to run (an embedding starts it after the module initialised).
     */
    public static GroupClientRuntime client(MessageContext msgContext) throws AxisFault {
        ConfigurationContext cc = msgContext.getConfigurationContext();
        synchronized (cc) {
            Object existing = cc.getProperty(CLIENT_PROPERTY);
            if (existing instanceof GroupClientRuntime) {
                return (GroupClientRuntime) existing;
            }
            BftwsConfig config = config(msgContext);
            URI replyTo = GroupClientRuntime.replyEndpoint(cc, config);
            if (replyTo == null) {
                throw new AxisFault("BFT-WS client: set " + BftwsKeys.CLIENT_REPLY_ENDPOINT.name()
                        + " (where the replicas reach this client's control port) or start the client's Axis2"
                        + " with an HTTP listener through EmbeddedAxis2Server");
            }
            GroupClientRuntime client = GroupClientRuntime.start(cc, config,
                    (GroupKeyMaterial) cc.getProperty(KEYS_PROPERTY), replyTo);
            cc.setProperty(CLIENT_PROPERTY, client);
            return client;
        }
    }

    /** The replica's refresh of its generated keys, or null (dealt keys, no replica). */
    public static KeyRefresh refresh(ConfigurationContext cc) {
        Object r = cc.getProperty(REFRESH_PROPERTY);
        return r instanceof KeyRefresh k ? k : null;
    }

    /** The replica's running key generation, or null when its keys are in use (or it is no replica). */
    public static DkgBootstrap dkg(ConfigurationContext cc) {
        Object d = cc.getProperty(DKG_PROPERTY);
        return d instanceof DkgBootstrap b ? b : null;
    }

    /** Stops the replica or client side, if running. */
    static void stop(ConfigurationContext cc) {
        KeyRefresh refresh = refresh(cc);
        cc.removeProperty(REFRESH_PROPERTY);
        if (refresh != null) {
            refresh.close();
        }
        DkgBootstrap dkg = dkg(cc);
        cc.removeProperty(DKG_PROPERTY);
        if (dkg != null) {
            dkg.close();
        }
        Object replica = cc.getProperty(REPLICA_PROPERTY);
        Object client = cc.getProperty(CLIENT_PROPERTY);
        cc.removeProperty(REPLICA_PROPERTY);
        cc.removeProperty(CLIENT_PROPERTY);
        try {
            if (replica instanceof BftwsReplica r) {
                r.close();
            }
            if (client instanceof GroupClientRuntime c) {
                c.close();
            }
        } catch (AxisFault e) {
            LOG.warn("bftws: stopping: {}", e.getMessage());
        }
    }
}
