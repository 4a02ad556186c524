package org.bftws.module.handlers;

import org.apache.axis2.AxisFault;
import org.apache.axis2.Constants;

/**
 * The SOAP fault that refuses bad input. Marked as an application fault because Axis2's engine logs every
 * other fault at ERROR with its stack trace: input anyone can send must not let them flood a replica's log.
 * Callers log the refusal themselves, briefly and rate-limited where a flood is possible.
 */
public final class Refusal {
    private Refusal() {
    }

    public static AxisFault fault(String reason) {
        AxisFault f = new AxisFault(reason);
        f.setFaultType(Constants.APPLICATION_FAULT);
        return f;
    }
}
