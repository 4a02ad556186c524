package org.bftws.samples.dealer;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.AxisFault;
import org.bftws.module.api.CollectiveRandom;

/**
 * The dealer sample service (wsdl/dealer.wsdl): {@code deal} shuffles a 52-card deck with the collective
 * random number the replica group delivered with the request ({@link CollectiveRandom#current()}) and
 * returns it. The operation is declared randomized in the WSDL, so every correct replica deals the same
 * deck and no f replicas, nor the client, can choose it (integrity paper §1: the card-game example).
 *
 * <p>No lambdas and no string {@code +} here: Axis2 1.7 parses service bytecode (docs/design/dependencies.md).
 */
public class DealerService {
    public static final String NAMESPACE = "urn:bftws:samples:dealer";

    public OMElement deal(OMElement request) throws AxisFault {
        byte[] random = CollectiveRandom.current();
        if (random == null || random.length == 0) {
            throw new AxisFault("BFT-WS dealer: no collective random number came with this request"
                    .concat(" (bftws.randomness.algorithm none, or not called through a replica group)"));
        }
        String[] cards = Deck.shuffled(new RandomStream(random));
        OMFactory factory = OMAbstractFactory.getOMFactory();
        OMNamespace ns = factory.createOMNamespace(NAMESPACE, "d");
        OMElement reply = factory.createOMElement("dealResponse", ns);
        for (String card : cards) {
            factory.createOMElement("card", ns, reply).setText(card);
        }
        return reply;
    }
}
