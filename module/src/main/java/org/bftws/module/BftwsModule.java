package org.bftws.module;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.description.AxisModule;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.sandesha2.SandeshaModule;
import org.bftws.module.config.BftwsConfig;
import org.bftws.module.config.BftwsConfigException;
import org.bftws.module.config.BftwsParameters;

/**
 * The module class of bftws.mar. bftws.mar is a superset of Sandesha2 (paper §3.3.1: "backward
 * compatible with Sandesha2"), so this class is Sandesha2's module with three additions: it reads and
 * validates the BFT-WS parameters of axis2.xml before anything starts, it publishes them to the handlers,
 * and it repairs Sandesha2's engagement check, which only recognises modules named {@code sandesha2*}.
 */
public class BftwsModule extends SandeshaModule {
    private static final Logger LOG = LogManager.getLogger(BftwsModule.class);

    @Override
    public void init(ConfigurationContext configContext, AxisModule module) throws AxisFault {
        // Parse first: a wrong value must stop start-up before Sandesha2 starts its worker threads.
        BftwsConfig config = BftwsParameters.parse(AxisParameters.asMap(configContext.getAxisConfiguration()));
        if (config.replicated()) {
            // Fail closed: the ordering machinery exists (org.bftws.module.order.BftwsReplica), but application
            // requests do not reach it yet (no Total Order Invoker, paper §3.3.1.7) and keys are not loaded
            // from bftws.keys.* (keygen format pending), so a replicated setting would give plain WS-RM,
            // i.e. no Byzantine fault tolerance at all.
            throw new BftwsConfigException(BftwsParameters.REPLICATED_KEY,
                    "is true, but this build of bftws.mar does not yet route application requests through"
                            + " total ordering; remove it to run plain WS-RM");
        }
        super.init(configContext, module);
        BftwsRuntime.publish(configContext, config);
        // Added after Sandesha2's own resolver, so it runs after it and can undo its verdict.
        configContext.getAxisConfiguration().addTargetResolver(new EngagementTargetResolver(module.getName()));
        LOG.info("bftws module {} initialised: replicated={}, role={}", module.getName(), config.replicated(),
                config.role().configValue());
    }
}
