package org.bftws.module.transport;

import static org.junit.Assert.assertEquals;

import org.apache.http.HttpResponse;
import org.apache.http.HttpVersion;
import org.apache.http.message.BasicHttpResponse;
import org.junit.Test;

/**
 * The head of a replica's response carries only the status code's standard reason phrase: Axis2's server puts
 * a fault's text there, and a non-ASCII character or line break in it broke the client's reading of the head.
 */
public class BoundedDrainConnectionTest {
    @Test
    public void aFaultTextInTheReasonPhraseIsReplacedByTheStandardPhrase() {
        HttpResponse response = new BasicHttpResponse(HttpVersion.HTTP_1_1, 500,
                "BFT-WS: CreateSequence refused (paper \u00a73.3.1.1)\r\nX-Injected: 1");
        BoundedDrainConnection.standardReason(response);
        assertEquals(500, response.getStatusLine().getStatusCode());
        assertEquals("Internal Server Error", response.getStatusLine().getReasonPhrase());
        assertEquals(HttpVersion.HTTP_1_1, response.getStatusLine().getProtocolVersion());
    }

    @Test
    public void anUnknownStatusCodeKeepsItsCodeWithoutAPhrase() {
        HttpResponse response = new BasicHttpResponse(HttpVersion.HTTP_1_1, 599, "caf\u00e9");
        BoundedDrainConnection.standardReason(response);
        assertEquals(599, response.getStatusLine().getStatusCode());
        assertEquals(null, response.getStatusLine().getReasonPhrase());
        response = new BasicHttpResponse(HttpVersion.HTTP_1_1, 999, "caf\u00e9");
        BoundedDrainConnection.standardReason(response);
        assertEquals(999, response.getStatusLine().getStatusCode());
        assertEquals(null, response.getStatusLine().getReasonPhrase());
    }
}
