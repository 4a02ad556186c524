package org.bftws.module.client;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import java.net.URI;
import java.util.UUID;

import org.junit.Test;

/** Paper §3.3.1.1: the sequence id is derived from the client's UUID and the group endpoint, deterministically. */
public class SequenceIdTest {
    private static final URI GROUP = URI.create("http://echo.group.example/axis2/services/Echo");

    @Test
    public void sameInputsSameIdOtherwiseDifferent() {
        UUID u = UUID.fromString("0f8fad5b-d9cb-469f-a165-70867728950e");
        String id = GroupClientRuntime.sequenceId(u, GROUP);
        assertEquals(id, GroupClientRuntime.sequenceId(u, GROUP));
        assertTrue(id, id.matches("urn:bftws:sequence:[0-9a-f]{32}"));
        assertNotEquals(id, GroupClientRuntime.sequenceId(UUID.randomUUID(), GROUP));
        assertNotEquals(id, GroupClientRuntime.sequenceId(u, URI.create("http://other.example/axis2/services/Echo")));
    }
}
