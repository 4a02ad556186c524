package org.bftws.module.random;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

import org.junit.Test;

/** The WS-Policy assertions {@code <bftws:Randomized/>} and {@code <bftws:ReadOnly/>} read from WSDLs with a hardened parser. */
public class RandomizedDeclarationsTest {
    private static final String HEAD = "<wsdl:definitions xmlns:wsdl=\"http://schemas.xmlsoap.org/wsdl/\""
            + " xmlns:wsp=\"http://www.w3.org/ns/ws-policy\" xmlns:b=\"urn:bftws:policy\" targetNamespace=\"urn:t\">";

    @Test
    public void theSampleWsdlsDeclareDealAndNextAndEchoDeclaresNothing() throws IOException {
        Path wsdl = Path.of(System.getProperty("user.dir")).resolveSibling("wsdl");
        assertEquals(Map.of("deal", 256), read(wsdl.resolve("dealer.wsdl")));
        assertEquals(Map.of("next", 128), read(wsdl.resolve("idgen.wsdl")));
        assertEquals(Map.of(), read(wsdl.resolve("echo.wsdl")));
    }

    @Test
    public void theSampleEchoDeclaresEchoConfidentialConfidentialAndNothingElseIs() throws IOException {
        Path wsdl = Path.of(System.getProperty("user.dir")).resolveSibling("wsdl");
        try (InputStream in = Files.newInputStream(wsdl.resolve("echo.wsdl"))) {
            assertEquals(Set.of("echoConfidential"), RandomizedDeclarations.confidentialFromWsdl(in));
        }
        for (String other : new String[] {"dealer.wsdl", "idgen.wsdl", "counter.wsdl"}) {
            try (InputStream in = Files.newInputStream(wsdl.resolve(other))) {
                assertEquals(other, Set.of(), RandomizedDeclarations.confidentialFromWsdl(in));
            }
        }
    }

    @Test
    public void theSampleWsdlsDeclareCounterReadAndEchoReadOnlyReadOnly() throws IOException {
        Path wsdl = Path.of(System.getProperty("user.dir")).resolveSibling("wsdl");
        assertEquals(Set.of("read"), readOnly(wsdl.resolve("counter.wsdl")));
        assertEquals(Set.of("echoReadOnly"), readOnly(wsdl.resolve("echo.wsdl")));
        assertEquals(Set.of(), readOnly(wsdl.resolve("dealer.wsdl")));
        assertEquals("read-only is not randomized", Map.of(), read(wsdl.resolve("counter.wsdl")));
    }

    @Test
    public void readOnlyCountsInPortTypesBindingsAndNestedOperatorsOnlyInsideAPolicy() throws IOException {
        String xml = HEAD + "<wsdl:portType name=\"P\"><wsdl:operation name=\"get\"><wsp:Policy><b:ReadOnly/>"
                + "</wsp:Policy></wsdl:operation><wsdl:operation name=\"loose\"><b:ReadOnly/></wsdl:operation>"
                + "<wsdl:operation name=\"roll\"><wsp:Policy><b:Randomized/></wsp:Policy></wsdl:operation>"
                + "</wsdl:portType><wsdl:binding name=\"B\" type=\"P\"><wsdl:operation name=\"list\"><wsp:Policy>"
                + "<wsp:ExactlyOne><wsp:All><b:ReadOnly/></wsp:All></wsp:ExactlyOne></wsp:Policy></wsdl:operation>"
                + "<wsdl:operation name=\"other\"><wsp:Policy><x:ReadOnly xmlns:x=\"urn:other\"/></wsp:Policy>"
                + "</wsdl:operation></wsdl:binding></wsdl:definitions>";
        assertEquals(Set.of("get", "list"), RandomizedDeclarations.readOnlyFromWsdl(
                new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8))));
        assertEquals(Map.of("roll", 256), parse(xml));
    }

    @Test
    public void bindingOperationsAndNestedOperatorsCountAndBitsDefaultTo256() throws IOException {
        String xml = HEAD + "<wsdl:portType name=\"P\"><wsdl:operation name=\"plain\"/></wsdl:portType>"
                + "<wsdl:binding name=\"B\" type=\"P\"><wsdl:operation name=\"roll\"><wsp:Policy><wsp:ExactlyOne>"
                + "<wsp:All><b:Randomized/></wsp:All></wsp:ExactlyOne></wsp:Policy></wsdl:operation></wsdl:binding>"
                + "</wsdl:definitions>";
        assertEquals(Map.of("roll", 256), parse(xml));
    }

    @Test
    public void anAssertionOutsideAPolicyOrInAnotherNamespaceDoesNotCount() throws IOException {
        String xml = HEAD + "<wsdl:portType name=\"P\"><wsdl:operation name=\"a\"><b:Randomized/></wsdl:operation>"
                + "<wsdl:operation name=\"c\"><wsp:Policy><x:Randomized xmlns:x=\"urn:other\"/></wsp:Policy>"
                + "</wsdl:operation></wsdl:portType></wsdl:definitions>";
        assertEquals(Map.of(), parse(xml));
    }

    @Test
    public void badBitsDtdsAndOversizedDocumentsAreRefused() throws IOException {
        refused(HEAD + "<wsdl:portType name=\"P\"><wsdl:operation name=\"a\"><wsp:Policy><b:Randomized bits=\"512\"/>"
                + "</wsp:Policy></wsdl:operation></wsdl:portType></wsdl:definitions>", "1..256");
        refused("<?xml version=\"1.0\"?><!DOCTYPE d [<!ENTITY x \"y\">]>" + HEAD + "</wsdl:definitions>", "DTD");
        byte[] big = new byte[RandomizedDeclarations.MAX_WSDL_BYTES + 1];
        try {
            RandomizedDeclarations.fromWsdl(new ByteArrayInputStream(big));
            fail("read an oversized WSDL");
        } catch (IllegalArgumentException expected) {
            assertTrue(expected.getMessage(), expected.getMessage().contains("larger than"));
        }
    }

    private static void refused(String xml, String why) throws IOException {
        try {
            parse(xml);
            fail("accepted " + xml);
        } catch (IllegalArgumentException expected) {
            assertTrue(expected.getMessage(), expected.getMessage().contains(why));
        }
    }

    private static Map<String, Integer> parse(String xml) throws IOException {
        return RandomizedDeclarations.fromWsdl(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    private static Map<String, Integer> read(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return RandomizedDeclarations.fromWsdl(in);
        }
    }

    private static Set<String> readOnly(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return RandomizedDeclarations.readOnlyFromWsdl(in);
        }
    }
}
