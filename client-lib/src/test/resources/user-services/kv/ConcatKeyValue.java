package kv;

import java.util.TreeMap;

/** A POJO service as javac compiles it by default: string concatenation and a lambda become invokedynamic. */
public class ConcatKeyValue {
    private final TreeMap<String, String> store = new TreeMap<>();

    public synchronized String put(String key, String value) {
        String old = store.put(key, value);
        return "replaced " + key + ": " + old;
    }

    public synchronized String keys() {
        StringBuilder b = new StringBuilder();
        store.keySet().forEach(k -> b.append(k).append(' '));
        return b.toString();
    }
}
