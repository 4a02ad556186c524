package org.bftws.client.embedded;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

import org.bftws.module.rm.ClientUuidElement;

/**
 * SOAP over plain HTTP, outside Axis2, for the tests that must send what a well-behaved Axis2 client never
 * would (no client UUID, no signature).
 */
final class RawSoap {
    private static final String ANONYMOUS = "http://www.w3.org/2005/08/addressing/anonymous";

    private RawSoap() {
    }

    /** POSTs a SOAP 1.1 envelope with the given SOAPAction; any HTTP status is returned, not thrown. */
    static HttpResponse<String> post(String url, String action, String body) throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "text/xml; charset=UTF-8").header("SOAPAction", "\"" + action + "\"")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    /**
     * An unsigned WS-RM 1.1 CreateSequence to {@code url}, with {@code clientUuid} or (null) without one, and
     * {@code clientAttribute} (e.g. {@code client="4"}, or empty) on its ClientUUID element.
     */
    static HttpResponse<String> createSequence(String url, UUID clientUuid, String clientAttribute) throws Exception {
        String rm = ClientUuidElement.WSRM_11;
        String uuid = clientUuid == null ? "" : "<bftws:ClientUUID xmlns:bftws=\"urn:bftws\" " + clientAttribute
                + ">" + clientUuid + "</bftws:ClientUUID>";
        String body = "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\""
                + " xmlns:wsa=\"http://www.w3.org/2005/08/addressing\"><s:Header><wsa:To>" + url + "</wsa:To>"
                + "<wsa:Action>" + rm + "/CreateSequence</wsa:Action><wsa:MessageID>urn:uuid:" + UUID.randomUUID()
                + "</wsa:MessageID><wsa:ReplyTo><wsa:Address>" + ANONYMOUS + "</wsa:Address></wsa:ReplyTo></s:Header>"
                + "<s:Body><wsrm:CreateSequence xmlns:wsrm=\"" + rm + "\"><wsrm:AcksTo><wsa:Address>" + ANONYMOUS
                + "</wsa:Address></wsrm:AcksTo>" + uuid + "</wsrm:CreateSequence></s:Body></s:Envelope>";
        return post(url, rm + "/CreateSequence", body);
    }
}
