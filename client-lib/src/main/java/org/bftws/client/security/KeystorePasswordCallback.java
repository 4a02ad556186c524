package org.bftws.client.security;

import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.callback.UnsupportedCallbackException;

import org.apache.ws.security.WSPasswordCallback;

/**
 * Rampart's {@code passwordCallbackClass} for the keystores of {@link GeneratedKeystores}: WSS4J asks it for
 * the password of the private key it signs with. Rampart instantiates it by name, so it takes no arguments.
 */
public final class KeystorePasswordCallback implements CallbackHandler {
    /** The password of every generated keystore and key (not a secret: see {@link GeneratedKeystores}). */
    public static final String PASSWORD = "bftws-generated";

    @Override
    public void handle(Callback[] callbacks) throws UnsupportedCallbackException {
        for (Callback c : callbacks) {
            if (!(c instanceof WSPasswordCallback pc)) {
                throw new UnsupportedCallbackException(c, "only WSS4J password callbacks are answered");
            }
            pc.setPassword(PASSWORD);
        }
    }
}
