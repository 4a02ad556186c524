package kv;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.TreeMap;

import org.bftws.module.api.StatefulService;

/**
 * A key-value store as an Axis2 POJO service: every public method is an operation. Its state reaches
 * checkpoints and state transfer through StatefulService, encoded deterministically (keys in order).
 */
public class KeyValue implements StatefulService {
    private final TreeMap<String, String> store = new TreeMap<>();

    /** Stores value under key; returns the value it replaced, or "". */
    public synchronized String put(String key, String value) {
        String old = store.put(key, value);
        return old == null ? "" : old;
    }

    /** The value under key, or "". */
    public synchronized String get(String key) {
        String value = store.get(key);
        return value == null ? "" : value;
    }

    @Override
    public synchronized byte[] getState() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(store.size());
            for (Map.Entry<String, String> e : store.entrySet()) {
                out.writeUTF(e.getKey());
                out.writeUTF(e.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    @Override
    public synchronized void setState(byte[] state) {
        TreeMap<String, String> installed = new TreeMap<>();
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(state))) {
            for (int i = in.readInt(); i > 0; i--) {
                installed.put(in.readUTF(), in.readUTF());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        store.clear();
        store.putAll(installed);
    }
}
