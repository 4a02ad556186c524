package org.bftws.module;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;

import org.apache.axis2.engine.Handler;
import org.apache.axis2.modules.Module;
import org.junit.BeforeClass;
import org.junit.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** Static checks of module.xml against Axis2 1.7.9 and against the phases of conf/axis2-*.xml. */
public class ModuleXmlTest {
    private static final String[] FLOWS = {"InFlow", "OutFlow", "InFaultFlow", "OutFaultFlow"};

    private static Document module;

    @BeforeClass
    public static void parse() throws Exception {
        module = read(Path.of("src/main/mar/META-INF/module.xml"));
    }

    @Test
    public void operationsUseTheMepUrisAxis2SeventeenAccepts() {
        NodeList ops = module.getElementsByTagName("operation");
        assertEquals(7, ops.getLength()); // Sandesha2's six and BftwsApplicationRequest
        for (int i = 0; i < ops.getLength(); i++) {
            String mep = ((Element) ops.item(i)).getAttribute("mep");
            assertTrue(mep, mep.startsWith("http://www.w3.org/ns/wsdl/")); // docs/design/dependencies.md fix 3
        }
    }

    @Test
    public void moduleAndHandlerClassesLoad() throws Exception {
        String moduleClass = module.getDocumentElement().getAttribute("class");
        assertTrue(Module.class.isAssignableFrom(Class.forName(moduleClass)));
        NodeList handlers = module.getElementsByTagName("handler");
        for (int i = 0; i < handlers.getLength(); i++) {
            String cls = ((Element) handlers.item(i)).getAttribute("class");
            assertTrue(cls, Handler.class.isAssignableFrom(Class.forName(cls)));
        }
    }

    @Test
    public void sandeshaHandlersAndOursAreAllDeclared() {
        Set<String> names = new HashSet<>();
        NodeList handlers = module.getElementsByTagName("handler");
        for (int i = 0; i < handlers.getLength(); i++) {
            names.add(((Element) handlers.item(i)).getAttribute("name"));
        }
        assertEquals(Set.of("MessageContextCorrectionHandler", "SequenceIDDispatcher", "SandeshaGlobalInHandler",
                "SandeshaInHandler", "SandeshaOutHandler", "BftwsGlobalInHandler", "BftwsInHandler",
                "BftwsOutHandler", "BftwsRequestDispatcher", "BftwsOrderHandler"), names);
    }

    @Test
    public void everyPhaseUsedExistsInBothShippedAxis2Xml() throws Exception {
        for (String conf : new String[] {"axis2-replica.xml", "axis2-client.xml"}) {
            Document axis2 = read(Path.of(System.getProperty("bftws.conf", "../conf"), conf));
            for (String flow : FLOWS) {
                List<String> declared = phasesOf(axis2, flow);
                for (String used : phasesUsedIn(flow)) {
                    assertTrue(conf + " " + flow + " lacks " + used, declared.contains(used));
                }
            }
        }
    }

    private static List<String> phasesUsedIn(String flow) {
        List<String> used = new ArrayList<>();
        Element f = (Element) module.getElementsByTagName(flow).item(0);
        NodeList orders = f.getElementsByTagName("order");
        for (int i = 0; i < orders.getLength(); i++) {
            used.add(((Element) orders.item(i)).getAttribute("phase"));
        }
        return used;
    }

    private static List<String> phasesOf(Document axis2, String flow) {
        NodeList orders = axis2.getElementsByTagName("phaseOrder");
        for (int i = 0; i < orders.getLength(); i++) {
            Element order = (Element) orders.item(i);
            if (order.getAttribute("type").equals(flow)) {
                List<String> names = new ArrayList<>();
                NodeList phases = order.getElementsByTagName("phase");
                for (int j = 0; j < phases.getLength(); j++) {
                    names.add(((Element) phases.item(j)).getAttribute("name"));
                }
                return names;
            }
        }
        throw new AssertionError("no phaseOrder " + flow);
    }

    private static Document read(Path file) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        DocumentBuilder b = f.newDocumentBuilder();
        return b.parse(file.toFile());
    }
}
