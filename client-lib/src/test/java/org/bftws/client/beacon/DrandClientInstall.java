package org.bftws.client.beacon;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;

/**
 * Puts drand's client library where the tests run it: {@code src/test/js} (package.json pinning drand-client,
 * the script) copied to {@code target/drand-client}, and {@code npm install} there unless its node_modules
 * already hold drand-client. Needs node and npm (on the project's machines) and the npm registry.
 */
final class DrandClientInstall {
    private DrandClientInstall() {
    }

    static synchronized Path ensure() throws Exception {
        Path src = Path.of("src/test/js");
        Path dir = Path.of("target/drand-client").toAbsolutePath();
        Files.createDirectories(dir);
        for (String f : new String[] {"package.json", "fetch-round.mjs"}) {
            Files.copy(src.resolve(f), dir.resolve(f), StandardCopyOption.REPLACE_EXISTING);
        }
        if (!Files.isDirectory(dir.resolve("node_modules/drand-client"))) {
            Process p = new ProcessBuilder("npm", "install", "--no-audit", "--no-fund", "--loglevel=error")
                    .directory(dir.toFile()).redirectErrorStream(true).start();
            boolean done = p.waitFor(300, TimeUnit.SECONDS);
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!done || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IllegalStateException("npm install of drand-client in " + dir + " failed: " + out);
            }
        }
        return dir;
    }
}
