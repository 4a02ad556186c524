package org.bftws.module;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.MessageContext;
import org.bftws.module.config.BftwsConfig;

/** Where the handlers find the configuration {@link BftwsModule} validated at start-up. */
public final class BftwsRuntime {
    /** ConfigurationContext property holding the {@link BftwsConfig}. */
    public static final String CONFIG_PROPERTY = "org.bftws.module.config";

    private BftwsRuntime() {
    }

    static void publish(ConfigurationContext configContext, BftwsConfig config) {
        configContext.setProperty(CONFIG_PROPERTY, config);
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
}
