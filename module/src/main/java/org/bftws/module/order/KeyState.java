package org.bftws.module.order;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The application state of a replica of a group without a dealer, as its checkpoints hold it: magic ‖ u32 length ‖
 * the refresh's record ({@link KeyRefresh#stateRecord}) ‖ the service's state. So state transfer and a restart
 * from the journal bring the group's key epoch, its verification keys and a running refresh with the service's
 * state, under the checkpoint's digest that 2f+1 replicas signed (core's checkpoints are unchanged).
 */
final class KeyState {
    private static final byte[] MAGIC = "BFTWS-KEYS-IN-STATE-1".getBytes(StandardCharsets.US_ASCII);

    /** The refresh's record and the service's state of one checkpoint. */
    record Parts(byte[] refresh, byte[] service) {}

    private KeyState() {
    }

    static byte[] join(byte[] refresh, byte[] service) {
        return ByteBuffer.allocate(MAGIC.length + 4 + refresh.length + service.length).put(MAGIC)
                .putInt(refresh.length).put(refresh).put(service).array();
    }

    /**
     * The parts of {@code state}; a state without the magic (a journal written before the refresh's record was
     * kept) is the service's alone, with an empty record.
     */
    static Parts split(byte[] state) {
        if (state.length < MAGIC.length + 4 || !Arrays.equals(state, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            return new Parts(new byte[0], state);
        }
        int length = ByteBuffer.wrap(state, MAGIC.length, 4).getInt();
        int from = MAGIC.length + 4;
        if (length < 0 || length > state.length - from) {
            throw new IllegalArgumentException("a checkpoint's key record of " + length + " bytes in a state of "
                    + state.length);
        }
        return new Parts(Arrays.copyOfRange(state, from, from + length),
                Arrays.copyOfRange(state, from + length, state.length));
    }
}
