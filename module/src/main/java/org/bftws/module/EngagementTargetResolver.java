package org.bftws.module;

import java.util.Collection;

import org.apache.axis2.Constants;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.description.AxisModule;
import org.apache.axis2.description.AxisOperation;
import org.apache.axis2.description.AxisService;
import org.apache.axis2.util.TargetResolver;
import org.apache.sandesha2.util.SandeshaUtil;
import org.bftws.module.config.BftwsConfig;

/**
 * Sandesha2 1.6.2's target resolver (SandeshaModule.init) treats a message as unreliable unless a module
 * whose name starts with "sandesha2" is engaged, and then turns off {@code USE_ASYNC_OPERATIONS} and
 * {@code DISABLE_RESPONSE_ACK} on it. Our module is named "bftws", so without this resolver every
 * synchronous request-reply would bypass WS-RM's asynchronous delivery and hang or fail. When bftws is
 * engaged at the configuration, service or operation level (the same three levels Sandesha2 checks) and
 * the message is not marked unreliable, the message-level overrides are removed again, so the
 * configuration context's values (set by Sandesha2 for RM) apply.
 */
final class EngagementTargetResolver implements TargetResolver {
    private final String moduleName;

    EngagementTargetResolver(String moduleName) {
        this.moduleName = moduleName;
    }

    @Override
    public void resolveTarget(MessageContext msgContext) {
        if (!engaged(msgContext) || SandeshaUtil.isMessageUnreliable(msgContext) || toReplicaGroup(msgContext)) {
            return;
        }
        msgContext.removeProperty(Constants.Configuration.USE_ASYNC_OPERATIONS);
        msgContext.removeProperty(Constants.Configuration.DISABLE_RESPONSE_ACK);
    }

    /**
     * A group client's request to the group endpoint stays synchronous: the BFT-WS Out Handler answers it in
     * the caller's thread with the voted reply, and WS-RM never sees it.
     */
    private static boolean toReplicaGroup(MessageContext msgContext) {
        ConfigurationContext cc = msgContext.getConfigurationContext();
        Object config = cc == null ? null : cc.getProperty(BftwsRuntime.CONFIG_PROPERTY);
        return config instanceof BftwsConfig c && c.isGroupClient() && msgContext.getTo() != null
                && c.isGroupEndpoint(msgContext.getTo().getAddress());
    }

    private boolean engaged(MessageContext msgContext) {
        if (msgContext.getConfigurationContext() != null
                && contains(msgContext.getConfigurationContext().getAxisConfiguration().getEngagedModules())) {
            return true;
        }
        AxisService service = msgContext.getAxisService();
        if (service != null && contains(service.getEngagedModules())) {
            return true;
        }
        AxisOperation operation = msgContext.getAxisOperation();
        return operation != null && contains(operation.getEngagedModules());
    }

    private boolean contains(Collection<AxisModule> modules) {
        if (modules == null) {
            return false;
        }
        for (AxisModule m : modules) {
            if (moduleName.equals(m.getName())) {
                return true;
            }
        }
        return false;
    }
}
