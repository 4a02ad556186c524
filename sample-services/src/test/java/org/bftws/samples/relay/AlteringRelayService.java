package org.bftws.samples.relay;

import java.util.Iterator;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;

/**
 * A Byzantine member of the middle tier's replicated client (BFT-WS paper §3.4), for the three-tier tests
 * ({@code relay-faulty.aar}, built from test sources and never shipped, deployed in place of {@code
 * relay.aar}): it relays nested requests whose every leaf element's text is 999; its correct peers' copies
 * outvote it at the backend.
 *
 * <p>No lambdas and no string {@code +}: Axis2 1.7 parses service bytecode (docs/design/dependencies.md).
 */
public class AlteringRelayService extends RelayService {
    @Override
    public OMElement echo(OMElement request) throws AxisFault {
        return super.echo(altered(request));
    }

    /** A copy of {@code request} whose every leaf element's text is 999. */
    static OMElement altered(OMElement request) {
        OMElement copy = request.cloneOMElement();
        alterLeaves(copy);
        return copy;
    }

    private static void alterLeaves(OMElement e) {
        Iterator<OMElement> children = e.getChildElements();
        if (!children.hasNext()) {
            e.setText("999");
            return;
        }
        while (children.hasNext()) {
            alterLeaves(children.next());
        }
    }
}
