package org.bftws.perf.randomness;

import java.util.HexFormat;
import java.util.Iterator;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.AxisFault;
import org.bftws.module.api.CollectiveRandom;

/**
 * Experiment 3's service (integrity paper §7.2): the same echo twice, {@code echo} not randomized and
 * {@code echoRandom} declared randomized ({@code <bftws:Randomized bits="256"/>} in its WSDL), so the cost of
 * collective randomness is the difference between two operations on the same group, same payload, same run.
 * {@code echoRandom} also returns the number's hex, so the client's voter must agree on it too.
 *
 * <p>No lambdas and no string {@code +}: Axis2 1.7 parses service bytecode (docs/design/dependencies.md).
 */
public class RandomEchoService {
    /** The reply's namespace: the echo sample's, so replies look alike for both operations. */
    public static final String NAMESPACE = "urn:bftws:samples:echo";

    public OMElement echo(OMElement request) {
        return copy(request);
    }

    public OMElement echoRandom(OMElement request) throws AxisFault {
        byte[] random = CollectiveRandom.current();
        if (random == null) {
            throw new AxisFault("perf echoRandom: no collective random number came with this request"
                    .concat(" (bftws.randomness.algorithm none, or not called through a replica group)"));
        }
        OMElement reply = copy(request);
        OMFactory f = OMAbstractFactory.getOMFactory();
        f.createOMElement("random", reply.getNamespace(), reply).setText(HexFormat.of().formatHex(random));
        return reply;
    }

    private static OMElement copy(OMElement request) {
        OMFactory factory = OMAbstractFactory.getOMFactory();
        OMNamespace ns = factory.createOMNamespace(NAMESPACE, "e");
        OMElement reply = factory.createOMElement("echoResponse", ns);
        Iterator<?> children = request.getChildElements();
        while (children.hasNext()) {
            reply.addChild(((OMElement) children.next()).cloneOMElement());
        }
        return reply;
    }
}
