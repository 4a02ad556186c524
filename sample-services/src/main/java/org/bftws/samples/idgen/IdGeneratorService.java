package org.bftws.samples.idgen;

import java.util.HexFormat;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.AxisFault;
import org.bftws.module.api.CollectiveRandom;
import org.bftws.module.api.RandomProof;

/**
 * The id generator sample service (wsdl/idgen.wsdl): {@code next} returns a 128-bit identifier, the first 16
 * bytes of the collective random number delivered with the request, in hex. That number is already SHA-256
 * output on a value no f replicas can predict (integrity paper §5), so its prefix is a uniform, unguessable id
 * that every correct replica returns alike. Its {@code proof} holds the whole number and what a third party
 * needs to check it ({@link RandomProof}; scripts/verify-random checks it against group.pub with CT and
 * threshold BLS, and says why not otherwise).
 *
 * <p>No lambdas and no string {@code +} here: Axis2 1.7 parses service bytecode (docs/design/dependencies.md).
 */
public class IdGeneratorService {
    public static final String NAMESPACE = "urn:bftws:samples:idgen";
    /** 128 bits, as the WSDL's {@code <bftws:Randomized bits="128"/>} declares. */
    public static final int ID_BYTES = 16;

    public OMElement next(OMElement request) throws AxisFault {
        byte[] random = CollectiveRandom.current();
        if (random == null || random.length < ID_BYTES) {
            throw new AxisFault("BFT-WS id generator: no collective random number came with this request"
                    .concat(" (bftws.randomness.algorithm none, or not called through a replica group)"));
        }
        OMFactory factory = OMAbstractFactory.getOMFactory();
        OMNamespace ns = factory.createOMNamespace(NAMESPACE, "i");
        OMElement reply = factory.createOMElement("nextResponse", ns);
        factory.createOMElement("id", ns, reply).setText(HexFormat.of().formatHex(random, 0, ID_BYTES));
        RandomProof proof = CollectiveRandom.currentProof();
        if (proof != null) {
            proof.appendTo(factory.createOMElement("proof", ns, reply), random);
        }
        return reply;
    }
}
