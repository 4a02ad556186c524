package org.bftws.module.handlers;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.logging.log4j.LogManager;
import org.bftws.module.RateLimitedLog;
import org.bftws.module.config.BftwsConfig;
import org.bftws.module.config.BftwsKeys;

/**
 * BFT-WS Global In Handler (paper §3.3.1.3). Runs in PreDispatch, a global phase: after Security (Rampart
 * has verified the message) and before Dispatch, where SandeshaGlobalInHandler is phaseFirst and drops
 * duplicates.
 *
 * <p>It refuses, with a SOAP fault, an HTTP request whose declared body exceeds
 * {@code bftws.http.maxRequestBytes}, before the SOAP body is read: on a replica every message passes here,
 * the control port's and the application endpoint's alike, so no single request makes it buffer an
 * unbounded body. A body without Content-Length (chunked), or longer than declared, is stopped while it
 * is parsed, by the module's {@code BoundedSoapBuilder}; this check only spares reading it at all.
 *
 * <p>The paper also needs it to keep Sandesha2 from dropping the replicas' matching replies on the client,
 * but group clients currently receive replies on their control port, outside WS-RM (see
 * {@link BftwsOutHandler}), so Sandesha2's duplicate filter never sees them.
 */
public class BftwsGlobalInHandler extends BftwsHandler {
    private static final RateLimitedLog LOG = new RateLimitedLog(LogManager.getLogger(BftwsGlobalInHandler.class));
    private static final AtomicLong REFUSED = new AtomicLong();

    @Override
    protected InvocationResponse invokeReplicated(MessageContext msgContext, BftwsConfig config)
            throws AxisFault {
        AxisFault tooLarge = declaredTooLarge(msgContext, config.httpMaxRequestBytes());
        if (tooLarge != null) {
            throw tooLarge;
        }
        return InvocationResponse.CONTINUE;
    }

    /**
     * The refusal of a request whose declared body exceeds {@code maxBytes}, logged (rate-limited), or null.
     * The module's SOAP builder asks first, before it reads the body; this handler covers the other builders.
     */
    public static AxisFault declaredTooLarge(MessageContext msgContext, long maxBytes) {
        long declared = contentLength(msgContext);
        if (declared <= maxBytes) {
            return null;
        }
        long n = REFUSED.incrementAndGet();
        LOG.warn("oversized body", "refused an HTTP request body of {} bytes ({} refused so far)", declared, n);
        return Refusal.fault("BFT-WS: request body of " + declared + " bytes refused ("
                + BftwsKeys.HTTP_MAX_REQUEST_BYTES.name() + " is " + maxBytes + ")");
    }

    /** The Content-Length the client declared, or -1 (none, unparsable, or not an HTTP request). */
    static long contentLength(MessageContext msgContext) {
        Object headers = msgContext.getProperty(MessageContext.TRANSPORT_HEADERS);
        if (!(headers instanceof Map<?, ?> map)) {
            return -1;
        }
        for (Map.Entry<?, ?> e : map.entrySet()) {
            if ("Content-Length".equalsIgnoreCase(String.valueOf(e.getKey())) && e.getValue() != null) {
                try {
                    return Long.parseLong(e.getValue().toString().trim());
                } catch (NumberFormatException ex) {
                    return -1; // the HTTP layer has already refused or will refuse it
                }
            }
        }
        return -1;
    }
}
