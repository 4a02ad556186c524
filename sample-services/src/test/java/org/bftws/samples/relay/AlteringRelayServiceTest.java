package org.bftws.samples.relay;

import static org.junit.Assert.assertEquals;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.junit.Test;

/** The Byzantine middle replica's nested request: every leaf's text 999, the caller's request left as it was. */
public class AlteringRelayServiceTest {
    @Test
    public void everyLeafBecomes999AndTheOriginalStays() {
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMNamespace ns = f.createOMNamespace("urn:bftws:samples:counter", "c");
        OMElement request = f.createOMElement("increment", ns);
        f.createOMElement("amount", ns, request).setText("1");
        OMElement nested = f.createOMElement("note", ns, request);
        f.createOMElement("text", ns, nested).setText("hello");

        OMElement altered = AlteringRelayService.altered(request);

        assertEquals("<c:increment xmlns:c=\"urn:bftws:samples:counter\"><c:amount>999</c:amount>"
                + "<c:note><c:text>999</c:text></c:note></c:increment>", altered.toString());
        assertEquals("1", request.getFirstElement().getText());
    }
}
