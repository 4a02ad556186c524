package org.bftws.module.config;

/**
 * A parameter of axis2.xml that BFT-WS cannot accept. Unchecked on purpose: Axis2 1.7.9 catches an
 * {@code AxisFault} from {@code Module.init}, logs it at INFO and silently drops the module
 * (ConfigurationContextFactory.initModules), so a replica would come up without BFT. A runtime
 * exception propagates out of {@code createConfigurationContext} and stops start-up instead.
 */
public final class BftwsConfigException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String key;

    public BftwsConfigException(String key, String problem) {
        super("BFT-WS configuration: parameter '" + key + "' " + problem);
        this.key = key;
    }

    /** The axis2.xml parameter name at fault, so tests and operators need not parse the message. */
    public String key() {
        return key;
    }
}
