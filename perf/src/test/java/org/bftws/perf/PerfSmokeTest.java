package org.bftws.perf;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;

import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * The suite cannot rot (issue 5): the echo experiment runs end to end with tiny sizes, every mode, real
 * servers and a real 4-replica group, and the CSV, the plots and RESULTS.md come out with sane contents.
 * Never asserts on a timing value: only that numbers exist and are positive.
 */
public class PerfSmokeTest {
    private static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G'};

    @ClassRule
    public static final TemporaryFolder TMP = new TemporaryFolder();

    @Rule
    public final Timeout timeout = Timeout.seconds(420);

    @Test
    public void echoSmokeRunWritesCsvPlotsAndResults() throws Exception {
        Path out = TMP.newFolder("perf").toPath();
        Path results = Files.createDirectories(out.resolve("results"));
        // the committed crypto/engine CSVs, when present, exercise their tables and plots too
        for (String csv : List.of("crypto.csv", "engine.csv")) {
            Path committed = Path.of("results", csv);
            if (Files.isRegularFile(committed)) {
                Files.copy(committed, results.resolve(csv), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        Path markdown = out.resolve("RESULTS.md");
        int status = PerfMain.run(new String[] {"--smoke", "--root", "..", "--results", results.toString(),
            "--markdown", markdown.toString(), "--sizes", "1,1KB", "--clients", "1,2", "echo", "report"});
        assertEquals(0, status);

        List<Csv.Row> rows = Csv.read(results.resolve("echo.csv"));
        assertFalse("echo.csv has rows", rows.isEmpty());
        for (String mode : List.of("plain", "wsrm", "bftws")) {
            List<Csv.Row> ok = rows.stream().filter(r -> r.get("mode").equals(mode) && r.get("status").equals("ok"))
                    .toList();
            assertFalse(mode + " has measured rows: " + rows, ok.isEmpty());
            for (Csv.Row r : ok) {
                assertTrue(r.fields().toString(), r.number("calls") > 0);
                assertTrue(r.fields().toString(), r.number("mean_ms") > 0);
                assertTrue(r.fields().toString(), r.number("p50_ms") > 0);
                assertTrue(r.fields().toString(), r.number("p99_ms") >= r.number("p50_ms"));
                assertTrue(r.fields().toString(), r.number("throughput_cps") > 0);
                assertTrue(r.fields().toString(), r.number("nproc") >= 1);
                assertFalse(r.fields().toString(), r.get("commit").isEmpty());
                assertFalse(r.fields().toString(), r.get("machine").isEmpty());
                assertFalse(r.fields().toString(), r.get("load1_start").isEmpty());
            }
        }
        assertTrue("no mode is reported as not available: " + rows, rows.stream()
                .noneMatch(r -> r.get("status").equals("not available")));
        // The signed modes started, so one signed call completed (EchoSigning.prime); in a smoke run's 0.3 s
        // window a configuration may still complete none (a new WS-RM sequence costs a signed CreateSequence
        // first), which is a timing, not a fault: every configuration has its row, none failed to start.
        for (String mode : List.of("plain-signed", "wsrm-signed")) {
            List<Csv.Row> own = rows.stream().filter(r -> r.get("mode").equals(mode)).toList();
            assertEquals(mode + " has a row per configuration: " + own, 4, own.size());
            for (Csv.Row r : own) {
                assertFalse(r.fields().toString(), r.get("note").startsWith("start:"));
            }
        }

        for (String png : List.of("echo-latency.png", "echo-throughput-1el.png", "echo-throughput-1KB.png")) {
            Path p = results.resolve(png);
            assertTrue(png + " written", Files.isRegularFile(p));
            assertArrayEquals(png + " is a PNG", PNG_MAGIC, Arrays.copyOf(Files.readAllBytes(p), 4));
        }
        String md = Files.readString(markdown);
        assertTrue(md, md.contains("Headline ratios"));
        assertTrue(md, md.contains("| 1KB | 1 | bftws |"));
        assertTrue(md, md.contains("×"));
        assertTrue(md, md.contains("wsrm-signed"));
        if (Files.isRegularFile(results.resolve("crypto.csv"))) {
            assertTrue(md, md.contains("results/crypto.png"));
            assertTrue(Files.isRegularFile(results.resolve("crypto.png")));
        }
    }
}
