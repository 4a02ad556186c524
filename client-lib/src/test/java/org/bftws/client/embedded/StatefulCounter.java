package org.bftws.client.embedded;

import java.nio.ByteBuffer;

import org.bftws.module.api.StatefulService;

/** The counter whose state checkpoints reach through {@link StatefulService}. */
public class StatefulCounter extends CounterBase implements StatefulService {
    @Override
    public byte[] getState() {
        return ByteBuffer.allocate(8).putLong(total()).array();
    }

    @Override
    public void setState(byte[] state) {
        replaceTotal(ByteBuffer.wrap(state).getLong());
    }
}
