package org.bftws.module.order;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.junit.Test;

/**
 * A checkpoint's application state in a group without a dealer: the refresh's record before the service's state,
 * split back apart; a state from a journal written without the record is the service's alone; a record length
 * beyond the state is refused.
 */
public class KeyStateTest {
    private static final byte[] RECORD = "epoch 3".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SERVICE = "counter=42".getBytes(StandardCharsets.US_ASCII);

    @Test
    public void theRecordAndTheServiceStateComeBackApart() {
        KeyState.Parts parts = KeyState.split(KeyState.join(RECORD, SERVICE));
        assertArrayEquals(RECORD, parts.refresh());
        assertArrayEquals(SERVICE, parts.service());
        KeyState.Parts empty = KeyState.split(KeyState.join(new byte[0], new byte[0]));
        assertEquals(0, empty.refresh().length);
        assertEquals(0, empty.service().length);
    }

    @Test
    public void aStateWithoutTheRecordIsTheServicesAlone() {
        KeyState.Parts parts = KeyState.split(SERVICE);
        assertEquals(0, parts.refresh().length);
        assertArrayEquals(SERVICE, parts.service());
    }

    @Test
    public void aRecordLongerThanTheStateIsRefused() {
        byte[] joined = KeyState.join(RECORD, SERVICE);
        byte[] cut = Arrays.copyOf(joined, joined.length - SERVICE.length - 1);
        try {
            KeyState.split(cut);
            fail("split a state shorter than its record");
        } catch (IllegalArgumentException expected) {
            // refused: set_state fails and the replica stops rather than running on a wrong state
        }
    }
}
