package org.bftws.client.embedded;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.description.AxisOperation;
import org.apache.axis2.engine.Handler;
import org.apache.axis2.engine.Phase;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Where Axis2 actually put the handlers of bftws.mar once deployed with conf/axis2-replica.xml: the
 * placement module.xml documents (paper §3.3.1, figure 4), checked on the live phase lists.
 */
public class ModulePhasePlacementTest {
    @ClassRule
    public static final TemporaryFolder TMP = new TemporaryFolder();

    private static ConfigurationContext context;

    @BeforeClass
    public static void deploy() throws Exception {
        context = TestRepositories.replica(TMP.newFolder("replica").toPath()).createConfigurationContext();
    }

    @AfterClass
    public static void terminate() throws Exception {
        if (context != null) {
            context.terminate();
        }
    }

    @Test
    public void globalInFlow() {
        List<Phase> global = context.getAxisConfiguration().getInFlowPhases();
        assertEquals(List.of("Transport", "Addressing", "Security", "PreDispatch", "Dispatch"), names(global));
        assertTrue(handlers(global, "Transport").contains("MessageContextCorrectionHandler"));
        List<String> addressing = handlers(global, "Addressing");
        assertTrue(addressing.toString(), addressing.indexOf("SequenceIDDispatcher")
                < addressing.indexOf("AddressingBasedDispatcher"));
        assertTrue(addressing.toString(), addressing.contains("BftwsRequestDispatcher") && addressing.indexOf(
                "BftwsRequestDispatcher") < addressing.indexOf("AddressingBasedDispatcher"));
        assertEquals(List.of("BftwsGlobalInHandler"), handlers(global, "PreDispatch"));
        assertEquals("SandeshaGlobalInHandler", handlers(global, "Dispatch").get(0));
    }

    @Test
    public void operationInFlowRunsBftwsInHandlerBeforeAndOrderHandlerAfterSandeshaInHandler() throws Exception {
        List<Phase> in = echo().getRemainingPhasesInFlow();
        List<String> names = names(in);
        assertTrue(names.toString(), names.indexOf("BFTWSPhase") + 1 == names.indexOf("RMPhase"));
        assertEquals(List.of("BftwsInHandler"), handlers(in, "BFTWSPhase"));
        // BFT-WS hands what Sandesha2 accepted to ordering right after it (paper §3.3.1.4)
        assertEquals(List.of("SandeshaInHandler", "BftwsOrderHandler"), handlers(in, "RMPhase"));
    }

    @Test
    public void outFlowRunsBftwsOutHandlerBeforeSandeshaAndSecurityLast() throws Exception {
        List<Phase> out = echo().getPhasesOutFlow();
        List<String> names = names(out);
        assertTrue(names.toString(), names.indexOf("BFTWSPhase") + 1 == names.indexOf("RMPhase"));
        // Rampart signs in Security, which Axis2 runs after the operation's phases: it signs what we add.
        List<String> global = names(context.getAxisConfiguration().getOutFlowPhases());
        assertTrue(global.toString(), !names.contains("Security") || names.indexOf("Security") > names.indexOf("RMPhase"));
        assertEquals(global.toString(), "Security", global.get(global.size() - 1));
        assertEquals(List.of("BftwsOutHandler"), handlers(out, "BFTWSPhase"));
        assertEquals(List.of("SandeshaOutHandler"), handlers(out, "RMPhase"));
    }

    private static AxisOperation echo() throws Exception {
        return context.getAxisConfiguration().getService("Echo").getOperationBySOAPAction(
                "urn:bftws:samples:echo:echo");
    }

    private static List<String> names(List<Phase> phases) {
        List<String> names = new ArrayList<>();
        for (Phase p : phases) {
            names.add(p.getPhaseName());
        }
        return names;
    }

    private static List<String> handlers(List<Phase> phases, String phaseName) {
        for (Phase p : phases) {
            if (p.getPhaseName().equals(phaseName)) {
                List<String> names = new ArrayList<>();
                for (Handler h : p.getHandlers()) {
                    names.add(h.getName());
                }
                return names;
            }
        }
        throw new AssertionError("no phase " + phaseName + " in " + names(phases));
    }
}
