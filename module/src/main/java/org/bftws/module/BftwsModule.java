package org.bftws.module;

import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.util.List;
import java.util.Map;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.description.AxisModule;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.neethi.Policy;
import org.apache.sandesha2.SandeshaModule;
import org.apache.sandesha2.util.SandeshaUtil;
import org.bftws.module.config.BftwsConfig;
import org.bftws.module.config.BftwsConfigException;
import org.bftws.module.config.BftwsKeys;
import org.bftws.module.config.RandomnessAlgorithm;
import org.bftws.module.config.BftwsParameters;
import org.bftws.module.config.SecurityMode;
import org.bftws.core.pbft.RandomnessConfig;
import org.bftws.module.invoker.GroupServices;
import org.bftws.module.invoker.TotalOrderInvoker;
import org.bftws.module.keys.GroupKeyMaterial;
import org.bftws.module.order.AgreementOnlyService;
import org.bftws.module.order.BftwsReplica;
import org.bftws.module.order.DkgBootstrap;
import org.bftws.module.order.KeyRefresh;
import org.bftws.module.order.ReplicatedService;
import org.bftws.module.random.DeclaredOperations;
import org.bftws.module.random.RandomnessSetup;
import org.bftws.module.transport.BoundedSoapBuilder;
import org.bftws.module.security.ApplicationMessageSigner;
import org.bftws.module.security.RampartSigning;
import org.bftws.module.security.ServiceSigning;
import org.bftws.module.wsdl.GroupWsdl;

/**
 * The module class of bftws.mar. bftws.mar is a superset of Sandesha2 (paper §3.3.1: "backward
 * compatible with Sandesha2"), so this class is Sandesha2's module with these additions: it reads and
 * validates the BFT-WS parameters of axis2.xml and loads the keys before anything starts, publishes both to
 * the handlers, starts a replica's ordering machinery (control port, Multicast Sender, Total Order Manager,
 * Total Order Invoker), and repairs Sandesha2's
 * engagement check, which only recognises modules named {@code sandesha2*}.
 */
public class BftwsModule extends SandeshaModule {
    private static final Logger LOG = LogManager.getLogger(BftwsModule.class);

    @Override
    public void init(ConfigurationContext configContext, AxisModule module) throws AxisFault {
        // Parse and load keys first: a wrong value must stop start-up before Sandesha2 starts its threads.
        Map<String, String> params = AxisParameters.asMap(configContext.getAxisConfiguration());
        BftwsConfig config = BftwsParameters.parse(params);
        List<String> ignored = BftwsParameters.ignoredByOrdering(config, params);
        if (!ignored.isEmpty()) {
            LOG.warn("bftws.ordering={}: ignoring {}, which only PBFT reads (docs/configuration.md, \"Ordering"
                    + " modes\")", config.ordering().configValue(), ignored);
        }
        GroupKeyMaterial keys = config.replicated() ? GroupKeyMaterial.load(config) : null;
        GroupServices services = null;
        RandomnessConfig randomness = null;
        DeclaredOperations declared = null;
        if (config.isReplica()) {
            services = new GroupServices(configContext.getAxisConfiguration(),
                    serviceName(config.member(config.replicaId()).endpoint()));
            if (!config.group().replies(config.replicaId())
                    && AgreementOnlyService.deployIfAbsent(configContext.getAxisConfiguration(), services.mainService())) {
                LOG.info("bftws replica {} only orders (configuration II): service {} is not deployed here, its"
                        + " requests are taken by a stand-in and never executed", config.replicaId(),
                        services.mainService());
            }
            // A CT share that does not fit the group key, or a scheme other than the dealt one, stops start-up.
            declared = new DeclaredOperations(services);
            // Without a dealer and before the key generation: no coin yet. The generated keys serve the requests
            // ordered after the one that completed the key generation (DkgBootstrap installs them there);
            // DkgBootstrap refuses randomized and confidential calls ordered before it.
            randomness = !keys.keysPending() ? RandomnessSetup.of(config, keys, declared)
                    : config.randomness() == RandomnessAlgorithm.CT ? RandomnessConfig.ctAwaitingKeys()
                            .withOperations(declared)
                    : config.randomness() == RandomnessAlgorithm.NONE ? RandomnessConfig.none().withOperations(declared)
                    : RandomnessSetup.of(config, keys, declared);
            // Clients generate stubs from ?wsdl: it must name the group endpoint, not this replica.
            configContext.getAxisConfiguration().addObservers(
                    new GroupWsdl(config.groupEndpoint().toString(), services.mainService()));
        }
        super.init(configContext, module);
        if (config.replicated()) {
            // Bad input: no request body is parsed beyond bftws.http.maxRequestBytes, chunked or not.
            BoundedSoapBuilder.install(configContext.getAxisConfiguration(), config.httpMaxRequestBytes());
        }
        BftwsRuntime.publish(configContext, config);
        if (keys != null) {
            BftwsRuntime.publishKeys(configContext, keys);
        }
        Policy signing = config.isReplica() && config.security() == SecurityMode.RAMPART ? loadPolicy(config) : null;
        if (signing != null) {
            // §3.3.1: the client↔replica WS-RM exchange is WS-Security signed; CreateSequence and the application
            // messages then need the client's signature before Sandesha2 sees them, on every group service.
            ServiceSigning.install(configContext.getAxisConfiguration(), signing);
        }
        if (config.isReplica()) {
            // Paper §3.3.1.4/§3.3.1.7: on a replica the Total Order Manager replaces Sandesha2's InOrder invoker
            // (core executes each sequence in message-number order, within one total order); with it on,
            // Sandesha2 would hold application messages for its own invoker thread instead of passing them on.
            SandeshaUtil.getPropertyBean(configContext.getAxisConfiguration()).setInOrder(false);
            // Client requests come only through Sandesha2 as WS-RM application messages (§3.3.1.2-3.3.1.4); an
            // execution node (§3.3.3) orders nothing and takes them on its control port, to learn where replies go.
            ReplicatedService service = new TotalOrderInvoker(configContext, services, config.xmlLimits());
            KeyRefresh refresh = keys.pending() != null ? new KeyRefresh(config, keys, declared) : null;
            DkgBootstrap dkg = keys.keysPending() ? new DkgBootstrap(config, keys, declared, refresh) : null;
            if (dkg != null) {
                service = dkg.wrap(service);
            } else if (keys.pending() != null) {
                service = DkgBootstrap.afterwards(service, keys.pending(), refresh);
            }
            BftwsReplica replica = BftwsReplica.start(configContext, config, keys, service, randomness, declared,
                    declared, config.isExecutionNode(), manager -> {
                        if (refresh != null) {
                            refresh.attach(manager);
                        }
                    });
            if (signing != null) { // §3.3.1: and the replies too, with the same key
                replica.manager().signRepliesWith(ApplicationMessageSigner.forReplies(signing, Clock.systemUTC()));
            }
            configContext.setProperty(BftwsRuntime.REPLICA_PROPERTY, replica);
            if (dkg != null) {
                configContext.setProperty(BftwsRuntime.DKG_PROPERTY, dkg);
                dkg.start(replica);
            }
            if (refresh != null) {
                configContext.setProperty(BftwsRuntime.REFRESH_PROPERTY, refresh);
                refresh.start(replica);
            }
            // Services deploy after this: a replica whose service failed to deploy stops once Axis2 has started.
            DeploymentCheck.watch(configContext, config.replicaId());
            if (config.isExecutionNode()) {
                LOG.info("bftws execution node {} executes the requests for service {} that the {} agreement"
                        + " replicas ordered (configuration III)", config.replicaId(), services.mainService(),
                        config.n());
            } else {
                LOG.info("bftws replica {} of {} orders requests for service {} (and the other services deployed"
                        + " here), ordering {}, randomness {}{}", config.replicaId(), config.n(),
                        services.mainService(), config.ordering().configValue(), randomness.algorithm(),
                        config.group().executes(config.replicaId()) ? "" : ", without executing them (executing"
                                + " replicas " + config.group().repliers() + ")");
            }
        }
        // Added after Sandesha2's own resolver, so it runs after it and can undo its verdict.
        configContext.getAxisConfiguration().addTargetResolver(new EngagementTargetResolver(module.getName()));
        LOG.info("bftws module {} initialised: replicated={}, role={}", module.getName(), config.replicated(),
                config.side().configValue());
    }

    @Override
    public void shutdown(ConfigurationContext configurationContext) throws AxisFault {
        BftwsRuntime.stop(configurationContext);
        super.shutdown(configurationContext);
    }

    private static Policy loadPolicy(BftwsConfig config) {
        try {
            return RampartSigning.load(config.securityPolicy());
        } catch (IOException e) {
            throw new BftwsConfigException(BftwsKeys.SECURITY_POLICY.name(), e.getMessage());
        }
    }

    /**
     * The replicated service is the one this replica's endpoint in {@code bftws.replicas} names: the last path
     * segment, as in Axis2's {@code .../axis2/services/NAME}.
     */
    static String serviceName(URI endpoint) {
        String path = endpoint.getPath();
        String name = path == null ? "" : path.substring(path.lastIndexOf('/') + 1);
        if (name.isEmpty()) {
            throw new BftwsConfigException(BftwsKeys.REPLICAS.name(), "endpoint " + endpoint
                    + " names no service (expected .../services/NAME)");
        }
        return name;
    }
}
