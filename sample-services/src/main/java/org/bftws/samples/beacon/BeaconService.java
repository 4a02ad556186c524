package org.bftws.samples.beacon;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.description.Parameter;

/**
 * The drand beacon sample service (beacon.aar): its {@link BeaconLifeCycle} runs the replica's side of the
 * group's drand chain, served over drand's HTTP API under {@code /beacon/} on the replica's HTTP port
 * ({@link BeaconRoutes}); its one SOAP operation, {@code info}, returns the chain's drand info JSON and hash.
 *
 * <p>No lambdas and no string {@code +} here: Axis2 1.7 parses service bytecode (docs/design/dependencies.md).
 */
public class BeaconService {
    public static final String NAMESPACE = "urn:bftws:samples:beacon";

    public OMElement info(OMElement request) throws AxisFault {
        MessageContext mc = MessageContext.getCurrentMessageContext();
        Parameter p = mc == null ? null : mc.getAxisService().getParameter(BeaconLifeCycle.INSTANCE);
        BeaconLifeCycle lifeCycle = p == null ? null : (BeaconLifeCycle) p.getValue();
        Beacon beacon = lifeCycle == null ? null : lifeCycle.beacon();
        if (beacon == null) {
            String refused = lifeCycle == null ? null : lifeCycle.refused();
            throw new AxisFault(refused == null ? "BFT-WS beacon: not running yet (the replica is starting)"
                    : "BFT-WS beacon: off on this replica: ".concat(refused));
        }
        OMFactory factory = OMAbstractFactory.getOMFactory();
        OMNamespace ns = factory.createOMNamespace(NAMESPACE, "b");
        OMElement reply = factory.createOMElement("infoResponse", ns);
        factory.createOMElement("chainHash", ns, reply).setText(beacon.chain().hashHex());
        factory.createOMElement("info", ns, reply).setText(beacon.chain().infoJson());
        return reply;
    }
}
