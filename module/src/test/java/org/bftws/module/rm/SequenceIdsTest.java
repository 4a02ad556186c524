package org.bftws.module.rm;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import java.net.URI;
import java.util.UUID;

import org.junit.Test;

/** Paper §3.3.1.1: the sequence id is derived from the client's UUID and the group endpoint, deterministically. */
public class SequenceIdsTest {
    private static final URI GROUP = URI.create("http://echo.group.example/axis2/services/Echo");

    @Test
    public void sameInputsSameIdOtherwiseDifferent() {
        UUID u = UUID.fromString("0f8fad5b-d9cb-469f-a165-70867728950e");
        String id = SequenceIds.derive(u, GROUP);
        assertEquals(id, SequenceIds.derive(UUID.fromString(u.toString().toUpperCase()), GROUP));
        assertNotEquals(id, SequenceIds.derive(UUID.randomUUID(), GROUP));
        assertNotEquals(id, SequenceIds.derive(u, URI.create("http://other.example/axis2/services/Echo")));
    }

    /** A WS-RM Identifier is an absolute URI; this one is a name-based (version 8, RFC 9562) UUID URN. */
    @Test
    public void theIdIsAVersionEightUuidUrn() {
        String id = SequenceIds.derive(UUID.randomUUID(), GROUP);
        assertTrue(id, id.matches("urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"));
        UUID parsed = UUID.fromString(id.substring("urn:uuid:".length()));
        assertEquals(8, parsed.version());
        assertEquals(2, parsed.variant());
    }
}
