package org.bftws.samples.echo;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import java.util.Iterator;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.junit.Test;

public class EchoServiceTest {
    @Test
    public void replyCarriesTheRequestItemsInOrder() {
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMNamespace ns = f.createOMNamespace(EchoService.NAMESPACE, "e");
        OMElement request = f.createOMElement("echo", ns);
        for (String text : new String[] {"a", "b", "c"}) {
            OMElement item = f.createOMElement("item", ns);
            item.setText(text);
            request.addChild(item);
        }
        OMElement reply = new EchoService().echo(request);
        assertEquals("echoResponse", reply.getLocalName());
        assertEquals(EchoService.NAMESPACE, reply.getNamespace().getNamespaceURI());
        Iterator<?> it = reply.getChildElements();
        for (String text : new String[] {"a", "b", "c"}) {
            OMElement item = (OMElement) it.next();
            assertEquals("item", item.getLocalName());
            assertEquals(text, item.getText());
        }
        assertFalse(it.hasNext());
        assertEquals("request left intact", 3, count(request.getChildElements()));
    }

    @Test
    public void emptyRequestGivesEmptyReply() {
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMElement request = f.createOMElement("echo", f.createOMNamespace(EchoService.NAMESPACE, "e"));
        assertFalse(new EchoService().echo(request).getChildElements().hasNext());
    }

    private static int count(Iterator<?> it) {
        int n = 0;
        while (it.hasNext()) {
            it.next();
            n++;
        }
        return n;
    }
}
