package org.bftws.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.axis2.AxisFault;
import org.bftws.module.xml.Payloads;
import org.bftws.module.xml.XmlLimits;

/**
 * The module's XML intake ({@link Payloads#parse(byte[], XmlLimits)}, which checks a client's payload against the
 * limits, then builds it with Axiom's SOAP parser configuration): SOAP envelopes with WS-RM headers, a control
 * message, an application payload. Anything but the {@link AxisFault} it refuses with (the SOAP fault a client
 * gets) is a crash; the parse keeps no state.
 */
final class PayloadIntake implements Target {
    private static final XmlLimits LIMITS = new XmlLimits(64, 1000, 64);
    private static final String SOAP = "http://schemas.xmlsoap.org/soap/envelope/";
    private static final String RM = "http://schemas.xmlsoap.org/ws/2005/02/rm";
    private static final String WSA = "http://www.w3.org/2005/08/addressing";
    private static final List<String> CORPUS = List.of(
            "<?xml version='1.0' encoding='utf-8'?><soapenv:Envelope xmlns:soapenv='" + SOAP + "'><soapenv:Header>"
                    + "<wsrm:Sequence xmlns:wsrm='" + RM + "' soapenv:mustUnderstand='1'><wsrm:Identifier>"
                    + "urn:uuid:5f0c8e4e-1d7a-4c1e-9a52-3b1e0f5a9c11</wsrm:Identifier><wsrm:MessageNumber>7"
                    + "</wsrm:MessageNumber></wsrm:Sequence><wsrm:AckRequested xmlns:wsrm='" + RM + "'>"
                    + "<wsrm:Identifier>urn:uuid:5f0c8e4e-1d7a-4c1e-9a52-3b1e0f5a9c11</wsrm:Identifier>"
                    + "</wsrm:AckRequested><wsa:To xmlns:wsa='" + WSA + "'>http://127.0.0.1:9000/axis2/services/"
                    + "Counter</wsa:To><wsa:Action xmlns:wsa='" + WSA + "'>urn:increment</wsa:Action>"
                    + "</soapenv:Header><soapenv:Body><ns:increment xmlns:ns='http://samples.bftws.org'><ns:by>3"
                    + "</ns:by></ns:increment></soapenv:Body></soapenv:Envelope>",
            "<?xml version='1.0' encoding='utf-8'?><soapenv:Envelope xmlns:soapenv='" + SOAP + "'><soapenv:Header/>"
                    + "<soapenv:Body><bftws:message xmlns:bftws='urn:bftws:control' replyTo='http://127.0.0.1:9100/"
                    + "axis2/services/BftwsControl'>AQAAAAQAAAAEb3AxMgAAAAA=</bftws:message></soapenv:Body>"
                    + "</soapenv:Envelope>",
            "<soapenv:Envelope xmlns:soapenv='" + SOAP + "'><soapenv:Body><wsrm:CreateSequence xmlns:wsrm='" + RM
                    + "'><wsrm:AcksTo><wsa:Address xmlns:wsa='" + WSA + "'>http://127.0.0.1:9100/axis2/services/"
                    + "anon</wsa:Address></wsrm:AcksTo><wsrm:Offer><wsrm:Identifier>urn:uuid:1</wsrm:Identifier>"
                    + "</wsrm:Offer></wsrm:CreateSequence></soapenv:Body></soapenv:Envelope>",
            "<ns:cas xmlns:ns='http://samples.bftws.org' a='1' b=\"&lt;&amp;\"><ns:key>k0</ns:key><ns:expect>2"
                    + "</ns:expect><ns:value>3</ns:value><![CDATA[x]]><!-- c --><?pi d?></ns:cas>");
    private String lastFinding = "";

    @Override
    public String name() {
        return "payload";
    }

    @Override
    public List<byte[]> corpus() {
        return CORPUS.stream().map(s -> s.getBytes(StandardCharsets.UTF_8)).toList();
    }

    @Override
    public Outcome feed(byte[] input) {
        try {
            Payloads.parse(input, LIMITS);
        } catch (AxisFault refused) {
            return Outcome.HANDLED;
        } catch (RuntimeException | Error e) {
            lastFinding = e.toString();
            return Outcome.CRASH;
        }
        return Outcome.HANDLED;
    }

    @Override
    public String lastFinding() {
        return lastFinding;
    }
}
