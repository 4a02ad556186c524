package org.bftws.client.security;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * X.509 keystores for Rampart made at run time, never checked in: one JKS file per party ({@code ALIAS.jks}),
 * holding that party's RSA-2048 key pair (a self-signed certificate made by the JDK's {@code keytool}) and,
 * as trusted entries, the certificates of every other party, so WSS4J's Merlin both signs with the party's
 * key and accepts the others' signatures. Meant for tests, benchmarks and a local demo group; a real
 * deployment uses its own CA-issued keystores and policy (docs/security.md, "WS-Security signing").
 *
 * <p>Every keystore and key uses {@link KeystorePasswordCallback#PASSWORD}: these files are throwaway and
 * protected by their file mode, not by the password.
 */
public final class GeneratedKeystores {
    private static final long KEYTOOL_TIMEOUT_SECONDS = 120;

    private final Map<String, Path> byAlias;

    private GeneratedKeystores(Map<String, Path> byAlias) {
        this.byAlias = byAlias;
    }

    /** Generates one keystore per alias in {@code dir} (created if absent), or reuses those already there. */
    public static GeneratedKeystores generate(Path dir, List<String> aliases) throws IOException {
        Files.createDirectories(dir);
        Map<String, Path> byAlias = new LinkedHashMap<>();
        List<Process> running = new ArrayList<>();
        for (String alias : aliases) {
            Path file = dir.resolve(alias + ".jks");
            byAlias.put(alias, file);
            if (!Files.exists(file)) {
                running.add(genKeyPair(alias, file));
            }
        }
        for (Process p : running) {
            awaitKeytool(p);
        }
        if (!running.isEmpty()) {
            crossTrust(byAlias);
        }
        return new GeneratedKeystores(byAlias);
    }

    /** The keystore of {@code alias}. */
    public Path keystore(String alias) {
        Path p = byAlias.get(alias);
        if (p == null) {
            throw new IllegalArgumentException("no keystore generated for " + alias);
        }
        return p;
    }

    /** keytool runs as its own process (the JDK exports no API for self-signed certificates); all at once. */
    private static Process genKeyPair(String alias, Path file) throws IOException {
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        String pw = KeystorePasswordCallback.PASSWORD;
        return new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", alias, "-keyalg", "RSA",
                "-keysize", "2048", "-sigalg", "SHA256withRSA", "-validity", "3650", "-dname",
                "CN=" + alias + ", O=BFT-WS generated", "-storetype", "JKS", "-keystore", file.toString(),
                "-storepass", pw, "-keypass", pw, "-noprompt")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
    }

    private static void awaitKeytool(Process p) throws IOException {
        try {
            if (!p.waitFor(KEYTOOL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("keytool -genkeypair did not finish in " + KEYTOOL_TIMEOUT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for keytool", e);
        }
        if (p.exitValue() != 0) {
            throw new IOException("keytool -genkeypair failed with exit status " + p.exitValue());
        }
    }

    /** Each keystore gets every other party's certificate as a trusted entry (done with the KeyStore API). */
    private static void crossTrust(Map<String, Path> byAlias) throws IOException {
        try {
            Map<String, Certificate> certs = new LinkedHashMap<>();
            for (Map.Entry<String, Path> e : byAlias.entrySet()) {
                certs.put(e.getKey(), load(e.getValue()).getCertificate(e.getKey()));
            }
            for (Map.Entry<String, Path> e : byAlias.entrySet()) {
                KeyStore ks = load(e.getValue());
                for (Map.Entry<String, Certificate> c : certs.entrySet()) {
                    if (!c.getKey().equals(e.getKey())) {
                        ks.setCertificateEntry(c.getKey(), c.getValue());
                    }
                }
                try (OutputStream out = Files.newOutputStream(e.getValue())) {
                    ks.store(out, KeystorePasswordCallback.PASSWORD.toCharArray());
                }
            }
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot cross-trust the generated keystores", e);
        }
    }

    /** The certificate of {@code alias}'s key pair. */
    public X509Certificate certificate(String alias) throws IOException {
        try {
            return (X509Certificate) load(keystore(alias)).getCertificate(alias);
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot read the certificate of " + alias, e);
        }
    }

    private static KeyStore load(Path file) throws IOException, GeneralSecurityException {
        KeyStore ks = KeyStore.getInstance("JKS");
        try (InputStream in = Files.newInputStream(file)) {
            ks.load(in, KeystorePasswordCallback.PASSWORD.toCharArray());
        }
        return ks;
    }
}
