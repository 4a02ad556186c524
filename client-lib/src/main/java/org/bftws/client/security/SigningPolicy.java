package org.bftws.client.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the WS-SecurityPolicy 1.1 file Rampart enforces for one party: an {@code AsymmetricBinding} with
 * X.509 v3 tokens (the initiator's certificate travels in the message, the recipient's is referenced by
 * key identifier), the {@code Basic256Sha256} suite, a signed timestamp and a signed body; no encryption.
 * The same policy serves both ends: the initiator signs requests with its key and verifies replies, the
 * recipient verifies requests and signs replies (docs/design/dependencies.md, measured set). The {@code RampartConfig}
 * assertion names the party's keystore from {@link GeneratedKeystores}; Rampart caches the loaded keystore
 * (keyed by its file, refreshed hourly) instead of reading it for every message.
 */
public final class SigningPolicy {
    /** Rampart's {@code encryptionUser} on a recipient: the certificate that signed the request. */
    public static final String REQUEST_SIGNER = "useReqSigCert";

    private static final String TEMPLATE = """
            <wsp:Policy wsu:Id="BftwsX509Signing"
                xmlns:wsp="http://schemas.xmlsoap.org/ws/2004/09/policy"
                xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd"
                xmlns:sp="http://schemas.xmlsoap.org/ws/2005/07/securitypolicy"
                xmlns:ramp="http://ws.apache.org/rampart/policy">
              <wsp:ExactlyOne><wsp:All>
                <sp:AsymmetricBinding><wsp:Policy>
                  <sp:InitiatorToken><wsp:Policy>
                    <sp:X509Token sp:IncludeToken="http://schemas.xmlsoap.org/ws/2005/07/securitypolicy/IncludeToken/AlwaysToRecipient">
                      <wsp:Policy><sp:WssX509V3Token10/></wsp:Policy>
                    </sp:X509Token>
                  </wsp:Policy></sp:InitiatorToken>
                  <sp:RecipientToken><wsp:Policy>
                    <sp:X509Token sp:IncludeToken="http://schemas.xmlsoap.org/ws/2005/07/securitypolicy/IncludeToken/Never">
                      <wsp:Policy><sp:WssX509V3Token10/></wsp:Policy>
                    </sp:X509Token>
                  </wsp:Policy></sp:RecipientToken>
                  <sp:AlgorithmSuite><wsp:Policy><sp:Basic256Sha256/></wsp:Policy></sp:AlgorithmSuite>
                  <sp:Layout><wsp:Policy><sp:Strict/></wsp:Policy></sp:Layout>
                  <sp:IncludeTimestamp/>
                  <sp:OnlySignEntireHeadersAndBody/>
                </wsp:Policy></sp:AsymmetricBinding>
                <sp:Wss10><wsp:Policy>
                  <sp:MustSupportRefKeyIdentifier/>
                  <sp:MustSupportRefIssuerSerial/>
                </wsp:Policy></sp:Wss10>
                <sp:SignedParts><sp:Body/></sp:SignedParts>
                <ramp:RampartConfig>
                  <ramp:user>%1$s</ramp:user>
                  <ramp:encryptionUser>%2$s</ramp:encryptionUser>
                  <ramp:passwordCallbackClass>%3$s</ramp:passwordCallbackClass>
                  <ramp:signatureCrypto>
                    <ramp:crypto provider="org.apache.ws.security.components.crypto.Merlin"
                        cryptoKey="org.apache.ws.security.crypto.merlin.file" cacheRefreshInterval="3600000">
                      <ramp:property name="org.apache.ws.security.crypto.merlin.keystore.type">JKS</ramp:property>
                      <ramp:property name="org.apache.ws.security.crypto.merlin.file">%4$s</ramp:property>
                      <ramp:property name="org.apache.ws.security.crypto.merlin.keystore.password">%5$s</ramp:property>
                    </ramp:crypto>
                  </ramp:signatureCrypto>
                </ramp:RampartConfig>
              </wsp:All></wsp:ExactlyOne>
            </wsp:Policy>
            """;

    private SigningPolicy() {
    }

    /**
     * Writes {@code dir/ALIAS-policy.xml} for the party {@code alias} of {@code keystores}.
     *
     * @param peer the alias whose certificate replies are checked against on an initiator, or
     *             {@link #REQUEST_SIGNER} on a recipient
     */
    public static Path write(Path dir, GeneratedKeystores keystores, String alias, String peer) throws IOException {
        Files.createDirectories(dir);
        Path out = dir.resolve(alias + "-policy.xml");
        Files.writeString(out, String.format(TEMPLATE, alias, peer, KeystorePasswordCallback.class.getName(),
                keystores.keystore(alias).toAbsolutePath(), KeystorePasswordCallback.PASSWORD));
        return out;
    }
}
