package org.bftws.perf.echo;

import java.nio.charset.StandardCharsets;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;

/**
 * An echo request (wsdl/echo.wsdl): {@code <e:echo>} with N {@code <e:item>} children (the BFT-WS paper's
 * "number of elements", §4.1), or one item holding a text of about B bytes (the integrity paper's 1 KB
 * request, §7). The reply carries a copy of every item.
 */
public final class EchoPayload {
    public static final String NAMESPACE = "urn:bftws:samples:echo";
    public static final String ACTION = "urn:bftws:samples:echo:echo";

    private final String label;
    private final int elements;
    private final int textBytes;
    private final boolean randomized;

    private EchoPayload(String label, int elements, int textBytes, boolean randomized) {
        this.label = label;
        this.elements = elements;
        this.textBytes = textBytes;
        this.randomized = randomized;
    }

    private EchoPayload(String label, int elements, int textBytes) {
        this(label, elements, textBytes, false);
    }

    /**
     * The same request sent to a randomized operation (experiment 3: {@code echoRandom} beside {@code echo},
     * integrity paper §7.2); modes without such an operation do not run it.
     */
    public EchoPayload randomized() {
        return new EchoPayload(label, elements, textBytes, true);
    }

    /** Whether the request goes to a randomized operation. */
    public boolean isRandomized() {
        return randomized;
    }

    /** The operation called: {@code echo}, or {@code echoRandom} for a {@link #randomized()} payload. */
    public String operation() {
        return randomized ? "echoRandom" : "echo";
    }

    /** N elements, each {@code <e:item>item-K</e:item>}. */
    public static EchoPayload elements(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("elements must be >= 1: " + n);
        }
        return new EchoPayload(n + "el", n, 0);
    }

    /** One element whose text makes the serialised request about {@code bytes} long. */
    public static EchoPayload bytes(int bytes) {
        String label = bytes % 1024 == 0 ? (bytes / 1024) + "KB" : bytes + "B";
        return new EchoPayload(label, 1, bytes);
    }

    /** Parses {@code 100} (elements) or {@code 1KB} / {@code 512B} (one element of that size). */
    public static EchoPayload parse(String spec) {
        String s = spec.trim().toUpperCase(java.util.Locale.ROOT);
        if (s.endsWith("KB")) {
            return bytes(Integer.parseInt(s.substring(0, s.length() - 2)) * 1024);
        }
        if (s.endsWith("B")) {
            return bytes(Integer.parseInt(s.substring(0, s.length() - 1)));
        }
        if (s.endsWith("EL")) {
            s = s.substring(0, s.length() - 2);
        }
        return elements(Integer.parseInt(s));
    }

    public String label() {
        return label;
    }

    /** Elements in the request (and in a correct reply). */
    public int elements() {
        return elements;
    }

    /** A fresh request element (Axiom trees are consumed by sending). */
    public OMElement build() {
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMNamespace ns = f.createOMNamespace(NAMESPACE, "e");
        OMElement echo = f.createOMElement("echo", ns);
        if (textBytes > 0) {
            OMElement item = f.createOMElement("item", ns);
            int overhead = "<e:echo xmlns:e=\"urn:bftws:samples:echo\"><e:item></e:item></e:echo>".length();
            item.setText("x".repeat(Math.max(1, textBytes - overhead)));
            echo.addChild(item);
        } else {
            for (int k = 0; k < elements; k++) {
                OMElement item = f.createOMElement("item", ns);
                item.setText("item-" + k);
                echo.addChild(item);
            }
        }
        return echo;
    }

    /** Size of the serialised request payload (the SOAP body's child), in bytes. */
    public int requestBytes() {
        return build().toString().getBytes(StandardCharsets.UTF_8).length;
    }

    @Override
    public String toString() {
        return randomized ? label + " " + operation() : label;
    }
}
