package org.bftws.module;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.Test;

/** The lines a replica logs for service archives Axis2 failed to deploy (its "faulty services"). */
public class DeploymentCheckTest {
    private static final String BYTECODE = "Error:\norg.apache.axis2.deployment.DeploymentException: The following"
            + " error occurred during schema generation: Error looking for paramter names in bytecode: unexpected"
            + " bytes in file\n\tat org.apache.axis2.deployment.ServiceDeployer.deploy(ServiceDeployer.java:172)\n"
            + "Caused by: org.apache.axis2.deployment.DeploymentException: The following error occurred during"
            + " schema generation: Error looking for paramter names in bytecode: unexpected bytes in file\n"
            + "\tat org.apache.axis2.deployment.ServiceBuilder.populateService(ServiceBuilder.java:431)\n\t... 40 more\n"
            + "Caused by: java.lang.IllegalStateException: Error looking for paramter names in bytecode: unexpected"
            + " bytes in file\n\tat org.apache.axis2.description.java2wsdl.bytecode.ClassReader.readCpool(X.java:1)\n";
    private static final String MISSING = "Error:\norg.apache.axis2.deployment.DeploymentException: kv.Gone\n"
            + "\tat org.apache.axis2.deployment.ServiceDeployer.deploy(ServiceDeployer.java:172)\n"
            + "Caused by: java.lang.ClassNotFoundException: kv.Gone\n"
            + "Caused by: java.io.IOException: the archive is cut short\n";

    @Test
    public void oneLinePerArchiveWithTheCauseWithoutStackFramesOrRepeats() {
        List<String> lines = DeploymentCheck.failures(Map.of("/r/services/b.aar", MISSING, "/r/services/a.aar", BYTECODE));
        assertEquals(2, lines.size());
        assertEquals("service archive /r/services/a.aar failed to deploy: org.apache.axis2.deployment."
                + "DeploymentException: The following error occurred during schema generation: Error looking for"
                + " paramter names in bytecode: unexpected bytes in file" + DeploymentCheck.BYTECODE_HINT, lines.get(0));
        assertEquals("service archive /r/services/b.aar failed to deploy: org.apache.axis2.deployment."
                + "DeploymentException: kv.Gone / Caused by: java.io.IOException: the archive is cut short",
                lines.get(1));
    }

    @Test
    public void noFaultyServiceNoLine() {
        assertTrue(DeploymentCheck.failures(Map.of()).isEmpty());
    }
}
