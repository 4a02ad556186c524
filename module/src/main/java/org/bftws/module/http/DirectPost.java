package org.bftws.module.http;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.axis2.context.ConfigurationContext;

/**
 * The POST paths an Axis2 instance answers without Axis2's handler chain when the body has the one form they
 * expect: path to {@link DirectPost}, one registry per ConfigurationContext. {@link RoutingWorker} reads such a
 * POST's body (if it declares no more than the receiver's limit), offers it to the receiver, answers 202 if it
 * was taken, and otherwise hands the same bytes to Axis2, whose handlers answer as they always do (a refusal
 * keeps its SOAP fault). Code registers receivers (the control port does); remote parties only look up.
 */
public final class DirectPosts {
    /** ConfigurationContext property holding an instance's registry. */
    static final String PROPERTY = "org.bftws.module.http.directPosts";

    /** What takes a POST body in its expected form. */
    public interface DirectPost {
        /** The largest body offered; a longer one goes to Axis2 unread by the receiver. */
        int maxBodyBytes();

        /**
         * Takes {@code body} if it is in the expected form (the POST is then answered 202, as Axis2 answers a
         * one-way message); false hands it to Axis2. Called on an HTTP worker thread: must not block.
         */
        boolean accept(byte[] body, String contentType);
    }

    private final Map<String, DirectPost> posts = new ConcurrentHashMap<>();

    /** The registry of {@code context}, created on first use. */
    public static DirectPosts of(ConfigurationContext context) {
        synchronized (context) {
            Object existing = context.getProperty(PROPERTY);
            if (existing instanceof DirectPosts registry) {
                return registry;
            }
            DirectPosts registry = new DirectPosts();
            context.setProperty(PROPERTY, registry);
            return registry;
        }
    }

    /** The path under which {@code context} serves {@code service}, e.g. {@code /axis2/services/Echo}. */
    public static String servicePath(ConfigurationContext context, String service) {
        String base = context.getServiceContextPath();
        base = base == null ? "" : base.replaceAll("^/+|/+$", "");
        return "/" + (base.isEmpty() ? "" : base + "/") + service;
    }

    /** POSTs to {@code path} (exactly, without query) are offered to {@code post} first. */
    public void register(String path, DirectPost post) {
        if (posts.putIfAbsent(path, post) != null) {
            throw new IllegalStateException("a direct POST receiver is registered at " + path + " already");
        }
    }

    public void unregister(String path) {
        posts.remove(path);
    }

    /** The receiver of {@code path}, or null. */
    DirectPost find(String path) {
        return posts.get(path);
    }
}
