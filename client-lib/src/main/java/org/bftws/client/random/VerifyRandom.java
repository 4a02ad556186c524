package org.bftws.client.random;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;

import org.bftws.core.keys.KeyFileException;
import org.bftws.module.api.RandomProof;

/**
 * {@code scripts/verify-random}: checks a collective random number against a group's {@code group.pub}.
 *
 * <pre>
 * VerifyRandom --group-pub FILE --header FILE        a captured SOAP header (or envelope) with
 *                                                     &lt;bftws:Random&gt; and &lt;bftws:RandomProof&gt;
 * VerifyRandom --group-pub FILE --random HEX --message HEX --signature HEX [--scheme bls|rsa]
 * </pre>
 *
 * Prints "valid: WHAT WAS SIGNED" (exit 0) or "invalid: REASON" (exit 1); exit 2 on bad usage or an unreadable
 * file.
 */
public final class VerifyRandom {
    private static final String USAGE = "usage: verify-random --group-pub FILE (--header FILE | --random HEX"
            + " --message HEX --signature HEX [--scheme bls|rsa])";
    /** A captured header is small; refuse to read more than this. */
    private static final long MAX_HEADER_BYTES = 1 << 20;

    private VerifyRandom() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        Map<String, String> o = new HashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                err.println(USAGE);
                return 2;
            }
            o.put(args[i].substring(2), args[i + 1]);
        }
        if (!o.containsKey("group-pub") || o.containsKey("header") == o.containsKey("random")) {
            err.println(USAGE);
            return 2;
        }
        RandomVerifier verifier;
        try {
            verifier = RandomVerifier.of(Path.of(o.get("group-pub")));
        } catch (KeyFileException e) {
            err.println("verify-random: " + e.getMessage());
            return 2;
        }
        RandomVerifier.Verdict v;
        if (o.containsKey("header")) {
            Path file = Path.of(o.get("header"));
            try {
                if (Files.size(file) > MAX_HEADER_BYTES) {
                    err.println("verify-random: " + file + " is larger than " + MAX_HEADER_BYTES + " bytes");
                    return 2;
                }
                v = verifier.verifyCaptured(Files.readString(file, StandardCharsets.UTF_8));
            } catch (IOException e) {
                err.println("verify-random: cannot read " + file + ": " + e.getMessage());
                return 2;
            }
        } else {
            if (!o.containsKey("message") || !o.containsKey("signature")) {
                err.println(USAGE);
                return 2;
            }
            try {
                HexFormat hex = HexFormat.of();
                v = verifier.verify(hex.parseHex(o.get("random")), new RandomProof("ct", o.getOrDefault("scheme", "bls"),
                        verifier.keyId(), hex.parseHex(o.get("message")), hex.parseHex(o.get("signature"))));
            } catch (IllegalArgumentException e) {
                err.println("verify-random: --random, --message and --signature take hex");
                return 2;
            }
        }
        out.println(v);
        return v.valid() ? 0 : 1;
    }
}
