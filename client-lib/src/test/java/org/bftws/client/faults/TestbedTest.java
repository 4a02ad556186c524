package org.bftws.client.faults;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** The fault campaign's group file: one host per replica, and the group parameters that name them. */
public class TestbedTest {
    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    @Test
    public void eachReplicaIsAddressedOnItsOwnHost() throws IOException {
        Path file = tmp.newFile("group").toPath();
        Files.writeString(file, "# id port host\n0 9000 198.18.1.1\n1 9000 198.18.1.2\n\n2 9001 198.18.1.3\n");
        Testbed t = Testbed.read(file);
        assertEquals(3, t.size());
        assertEquals("http://198.18.1.3:9001/axis2/services/Counter", t.serviceUrl(2, "Counter"));
        String parameters = t.groupParameters(Path.of("/keys"));
        assertTrue(parameters, parameters.contains("0=http://198.18.1.1:9000/axis2/services/Echo "
                + "1=http://198.18.1.2:9000/axis2/services/Echo 2=http://198.18.1.3:9001/axis2/services/Echo<"));
        assertTrue(parameters, parameters.contains("/keys/group.pub"));
    }

    @Test
    public void aLineWithoutItsHostOrOutOfOrderIsRefused() throws IOException {
        for (String bad : new String[] {"0 9000\n", "1 9000 198.18.1.2\n", "0 9000 198.18.1.1\n0 9001 198.18.1.2\n"}) {
            Path file = tmp.newFile().toPath();
            Files.writeString(file, bad);
            try {
                Testbed.read(file);
                fail("accepted " + bad);
            } catch (IllegalArgumentException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("expected 'ID PORT HOST'"));
            }
        }
    }
}
