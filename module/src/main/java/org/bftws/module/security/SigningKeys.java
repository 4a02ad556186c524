package org.bftws.module.security;

import java.util.Iterator;
import java.util.List;
import java.util.Properties;

import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;

import org.apache.neethi.Assertion;
import org.apache.neethi.Policy;
import org.apache.rampart.policy.model.CryptoConfig;
import org.apache.rampart.policy.model.RampartConfig;
import org.apache.ws.security.WSPasswordCallback;
import org.apache.ws.security.WSSecurityException;
import org.apache.ws.security.components.crypto.Crypto;
import org.apache.ws.security.components.crypto.CryptoFactory;
import org.bftws.module.config.BftwsConfigException;
import org.bftws.module.config.BftwsKeys;

/**
 * This party's X.509 signing key as the signing policy's {@code ramp:RampartConfig} names it: the key alias
 * ({@code ramp:user}), its password from the {@code passwordCallbackClass}, and the keystore of
 * {@code ramp:signatureCrypto} (a WSS4J crypto such as Merlin). The same assertion Rampart reads for the
 * CreateSequence exchange, so one policy file configures both. Loaded once; the crypto is shared read-only.
 */
final class SigningKeys {
    private static final String PROVIDER = "org.apache.ws.security.crypto.provider";

    private final String user;
    private final String password;
    private final Crypto crypto;

    private SigningKeys(String user, String password, Crypto crypto) {
        this.user = user;
        this.password = password;
        this.crypto = crypto;
    }

    /**
     * @throws BftwsConfigException naming {@code bftws.security.policy} if the policy lacks a usable key (checked
     *         now: the private key is loaded once)
     */
    static SigningKeys of(Policy policy) {
        RampartConfig rc = rampartConfig(policy);
        CryptoConfig cc = rc.getSigCryptoConfig();
        if (rc.getUser() == null || rc.getPwCbClass() == null || cc == null) {
            throw invalid("its ramp:RampartConfig needs ramp:user, ramp:passwordCallbackClass and ramp:signatureCrypto");
        }
        Properties props = new Properties();
        props.putAll(cc.getProp());
        props.setProperty(PROVIDER, cc.getProvider());
        String password = password(rc.getPwCbClass(), rc.getUser());
        try {
            Crypto crypto = CryptoFactory.getInstance(props, SigningKeys.class.getClassLoader());
            if (crypto.getPrivateKey(rc.getUser(), password) == null) { // at start-up, not on the first request
                throw invalid("its keystore has no private key " + rc.getUser());
            }
            return new SigningKeys(rc.getUser(), password, crypto);
        } catch (WSSecurityException e) {
            throw invalid("its signature crypto or the key " + rc.getUser() + " cannot be loaded (" + e.getMessage()
                    + ")");
        }
    }

    String user() {
        return user;
    }

    String password() {
        return password;
    }

    Crypto crypto() {
        return crypto;
    }

    private static RampartConfig rampartConfig(Policy policy) {
        for (Iterator<List<Assertion>> alternatives = policy.getAlternatives(); alternatives.hasNext(); ) {
            for (Assertion a : alternatives.next()) {
                if (a instanceof RampartConfig rc) {
                    return rc;
                }
            }
        }
        throw invalid("it has no ramp:RampartConfig assertion");
    }

    private static String password(String callbackClass, String user) {
        try {
            CallbackHandler handler = (CallbackHandler) Class.forName(callbackClass, true, loader()).getDeclaredConstructor().newInstance();
            WSPasswordCallback pc = new WSPasswordCallback(user, WSPasswordCallback.SIGNATURE);
            handler.handle(new Callback[] {pc});
            return pc.getPassword();
        } catch (ReflectiveOperationException | ClassCastException | java.io.IOException
                | javax.security.auth.callback.UnsupportedCallbackException e) {
            throw invalid("its passwordCallbackClass " + callbackClass + " cannot answer (" + e + ")");
        }
    }

    private static ClassLoader loader() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : SigningKeys.class.getClassLoader();
    }

    private static BftwsConfigException invalid(String why) {
        return new BftwsConfigException(BftwsKeys.SECURITY_POLICY.name(), why);
    }
}
