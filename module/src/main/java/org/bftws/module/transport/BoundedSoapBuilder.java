package org.bftws.module.transport;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;
import org.apache.axis2.builder.Builder;
import org.apache.axis2.builder.SOAPBuilder;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.engine.AxisConfiguration;
import org.bftws.module.config.BftwsKeys;
import org.bftws.module.handlers.BftwsGlobalInHandler;
import org.bftws.module.handlers.Refusal;

/**
 * Axis2's SOAP builder over a stream that stops after {@code bftws.http.maxRequestBytes}: the parser never
 * reads past the limit, whether the sender declared a Content-Length (the Global In Handler refuses those
 * earlier, before any parsing) or sent the body chunked, or declared less than it sent. The read that
 * crosses the limit fails, so parsing fails and Axis2 answers a SOAP fault. Registered by the module for
 * the two SOAP content types of a replica group's Axis2 instance, so no axis2.xml change is needed.
 */
public final class BoundedSoapBuilder implements Builder {
    static final String[] SOAP_CONTENT_TYPES = {"text/xml", "application/soap+xml"};

    private final SOAPBuilder soap = new SOAPBuilder();
    private final long maxBytes;

    private BoundedSoapBuilder(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** Replaces the SOAP builders of {@code axisConfig} by bounded ones. */
    public static void install(AxisConfiguration axisConfig, long maxBytes) {
        for (String type : SOAP_CONTENT_TYPES) {
            axisConfig.addMessageBuilder(type, new BoundedSoapBuilder(maxBytes));
        }
    }

    /**
     * Parses the whole envelope here, so that a body that is not well-formed, too deep or too large fails now,
     * with a fault in the project's words ({@link ParseFailure}), not later in whichever handler reads that
     * far with the parser's text. The body is bounded, and every handler of a replica reads it all anyway.
     */
    @Override
    public OMElement processDocument(InputStream in, String contentType, MessageContext msgContext)
            throws AxisFault {
        AxisFault tooLarge = BftwsGlobalInHandler.declaredTooLarge(msgContext, maxBytes);
        if (tooLarge != null) {
            throw tooLarge; // refused unread: the HTTP server drains at most a bounded part of it
        }
        try {
            OMElement envelope = soap.processDocument(new Bounded(in, maxBytes), contentType, msgContext);
            envelope.build();
            return envelope;
        } catch (AxisFault | RuntimeException e) {
            throw Refusal.fault(ParseFailure.reason(e));
        }
    }

    /** Counts what the parser reads and fails the read that goes beyond the limit. */
    static final class Bounded extends FilterInputStream {
        private final long max;
        private long count;

        Bounded(InputStream in, long max) {
            super(in);
            this.max = max;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                counted(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buf, int off, int len) throws IOException {
            int n = super.read(buf, off, len);
            return n < 0 ? n : (int) counted(n);
        }

        /** No mark/reset: a reset would count bytes twice. */
        @Override
        public boolean markSupported() {
            return false;
        }

        @Override
        public long skip(long n) throws IOException {
            return counted(super.skip(n));
        }

        private long counted(long n) throws IOException {
            count += n;
            if (count > max) {
                throw new IOException("BFT-WS: request body above " + BftwsKeys.HTTP_MAX_REQUEST_BYTES.name()
                        + " (" + max + ")");
            }
            return n;
        }
    }
}
