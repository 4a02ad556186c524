package org.bftws.client.embedded;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.nio.file.Path;

import org.apache.axis2.context.ConfigurationContext;
import org.bftws.module.config.BftwsConfigException;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * A wrong bftws.* parameter in axis2.xml stops Axis2's start-up with a message naming the key, instead of
 * Axis2 quietly dropping the module (what it does with an AxisFault from Module.init).
 */
public class StartUpConfigurationTest {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    @Rule
    public final Timeout timeout = Timeout.seconds(60);

    @Test
    public void badValueStopsStartUpNamingTheKey() throws Exception {
        assertStartUpFails("<parameter name=\"bftws.maxBatchSize\">zero</parameter>", "bftws.maxBatchSize");
    }

    @Test
    public void misspeltKeyStopsStartUp() throws Exception {
        assertStartUpFails("<parameter name=\"bftws.randomness.algoritm\">ct</parameter>",
                "bftws.randomness.algoritm");
    }

    @Test
    public void incompleteGroupStopsStartUpNamingTheMissingKey() throws Exception {
        // conf/axis2-replica.xml sets bftws.replicated=false; a later parameter of the same name wins.
        assertStartUpFails("<parameter name=\"bftws.replicated\">true</parameter>", "bftws.group.endpoint");
    }

    /** The key files are read at start-up (core's KeyFiles checks them): an unusable one stops it. */
    @Test
    public void groupWithUnusableKeyFilesStopsStartUpNamingTheKey() throws Exception {
        Path key = tmp.newFile("replica-1.key").toPath();
        Path pub = tmp.newFile("group.pub").toPath();
        String group = "<parameter name=\"bftws.replicated\">true</parameter>\n"
                + "<parameter name=\"bftws.group.endpoint\">http://group.example/axis2/services/Echo</parameter>\n"
                + "<parameter name=\"bftws.replicas\">0=http://127.0.0.1:1/a 1=http://127.0.0.1:2/a"
                + " 2=http://127.0.0.1:3/a 3=http://127.0.0.1:4/a</parameter>\n"
                + "<parameter name=\"bftws.replica.id\">0</parameter>\n"
                + "<parameter name=\"bftws.keys.private\">" + key + "</parameter>\n"
                + "<parameter name=\"bftws.keys.public\">" + pub + "</parameter>\n";
        assertStartUpFails(group, "bftws.keys.public");
    }

    private void assertStartUpFails(String parameter, String key) throws Exception {
        Path dir = tmp.newFolder().toPath();
        Path xml = TestRepositories.replicaXmlWith(tmp.newFolder().toPath(), parameter);
        Axis2Repository repo = TestRepositories.replica(dir, xml);
        ConfigurationContext context = null;
        try {
            context = repo.createConfigurationContext();
            fail("Axis2 started despite " + parameter);
        } catch (Exception e) {
            BftwsConfigException cause = find(e);
            assertEquals(key, cause.key());
            assertTrue(cause.getMessage(), cause.getMessage().contains("'" + key + "'"));
        } finally {
            if (context != null) {
                context.terminate();
            }
        }
    }

    private static BftwsConfigException find(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof BftwsConfigException) {
                return (BftwsConfigException) c;
            }
        }
        throw new AssertionError("start-up failed, but not with BftwsConfigException", t);
    }
}
