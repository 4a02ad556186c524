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

import org.bftws.perf.recovery.RecoveryExperiment;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * The suite cannot rot: the echo experiment runs end to end with tiny sizes, every mode, real
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

    /** Experiment 5: WS-RM and BFT-WS with n = 4, 7, 10 in one run, with ratios and plots. */
    @Test
    public void scaleSmokeRunWritesCsvPlotsAndResults() throws Exception {
        Path results = smokeRun("scale");
        List<Csv.Row> rows = Csv.read(results.resolve("scale.csv"));
        assertEquals("4 modes x 2 client counts: " + rows, 8, rows.size());
        for (String mode : List.of("wsrm", "bftws", "bftws-n7", "bftws-n10")) {
            List<Csv.Row> ok = rows.stream().filter(r -> r.get("mode").equals(mode) && r.get("status").equals("ok"))
                    .toList();
            assertEquals(mode + " measured at both client counts: " + rows, 2, ok.size());
            for (Csv.Row r : ok) {
                assertEquals("scale", r.get("experiment"));
                assertEquals("1KB", r.get("payload"));
                assertPositive(r, "calls", "p50_ms", "throughput_cps", "nproc");
            }
        }
        assertPngs(results, "scale-latency.png", "scale-throughput.png");
        assertResultsMention(results, "Experiment 5: scale", "| 1 | bftws-n10 | 10 |");
    }

    /**
     * Experiment 3: echo and echoRandom on the same groups (none, CT, BA), LAN and an emulated WAN (every hop
     * through a DelayForwarder), each configuration's overhead stated against its own echo.
     */
    @Test
    public void randomnessSmokeRunOnLanAndWanWritesCsvPlotAndResults() throws Exception {
        Path results = smokeRun("randomness");
        // every call crosses several delayed hops: windows long enough for a few calls on a loaded machine
        assertEquals(0, PerfMain.run(new String[] {"--smoke", "--root", "..", "--results", results.toString(),
            "--markdown", results.getParent().resolve("RESULTS.md").toString(), "--wan-delay-ms", "5",
            "--modes", "ct-cks-k2", "--clients", "1", "--warmup-ms", "500", "--measure-ms", "2500", "randomness",
            "report"}));
        List<Csv.Row> lan = Csv.read(results.resolve("randomness.csv"));
        // none: echo only; ct-cks-k2 and ba: both operations; 2 client counts each
        assertEquals("(1 + 2 + 2) operations x 2 client counts: " + lan, 10, lan.size());
        assertTrue("none has no echoRandom", lan.stream().noneMatch(r -> r.get("mode").equals("none")
                && r.get("operation").equals("echoRandom")));
        List<Csv.Row> wan = Csv.read(results.resolve("randomness-wan.csv"));
        assertEquals("ct-cks-k2: 2 operations x 1 client: " + wan, 2, wan.size());
        for (Csv.Row r : lan) {
            assertEquals(r.fields().toString(), "ok", r.get("status"));
            assertEquals("0", r.get("wan_delay_ms"));
            assertPositive(r, "calls", "p50_ms", "throughput_cps");
        }
        for (Csv.Row r : wan) {
            assertEquals(r.fields().toString(), "ok", r.get("status"));
            assertEquals("5", r.get("wan_delay_ms"));
            assertPositive(r, "calls", "p50_ms", "throughput_cps");
        }
        assertPngs(results, "randomness.png");
        assertResultsMention(results, "Experiment 3: randomness", "| ct-cks-k2 |", "| 5 |");
    }

    /** Experiment 4: checkpoints, state transfer and view change, timed from engine events. */
    @Test
    public void recoverySmokeRunWritesCsvPlotsAndResults() throws Exception {
        Path results = smokeRun("recovery");
        RecoveryExperiment.Config smoke = RecoveryExperiment.Config.smoke();
        List<Csv.Row> cp = Csv.read(results.resolve("recovery-checkpoint.csv"));
        List<Csv.Row> st = Csv.read(results.resolve("recovery-transfer.csv"));
        List<Csv.Row> vc = Csv.read(results.resolve("recovery-viewchange.csv"));
        assertEquals(RecoveryExperiment.CHECKPOINT_HEADER, List.copyOf(cp.get(0).fields().keySet()));
        assertEquals(RecoveryExperiment.TRANSFER_HEADER, List.copyOf(st.get(0).fields().keySet()));
        assertEquals(RecoveryExperiment.VIEW_CHANGE_HEADER, List.copyOf(vc.get(0).fields().keySet()));
        assertEquals("one row per state size", smoke.stateBytes().size(), cp.size());
        assertEquals("one row per state size", smoke.stateBytes().size(), st.size());
        assertEquals("one row per checkpoint interval", smoke.viewChangeIntervals().size(), vc.size());
        for (Csv.Row r : cp) {
            assertEquals(r.fields().toString(), "ok", r.get("status"));
            assertPositive(r, "checkpoints", "capture_ms", "get_state_ms", "calls_per_s");
            assertTrue(r.fields().toString(), r.number("to_stable_ms") >= 0);
        }
        for (Csv.Row r : st) {
            assertEquals(r.fields().toString(), "ok", r.get("status"));
            assertPositive(r, "installed_seq", "restart_ms", "transfer_ms", "to_execute_ms");
            assertTrue("installed a checkpoint: " + r.fields(), r.number("installed_seq") % smoke.checkpointInterval() == 0);
        }
        for (Csv.Row r : vc) {
            assertEquals(r.fields().toString(), "ok", r.get("status"));
            assertPositive(r, "outage_ms", "view_change_max_ms", "view_change_group_ms");
            // at the new primary it is ~0 when it joins last, on its peers' view-change messages
            assertTrue(r.fields().toString(), r.number("view_change_ms") >= 0);
            assertTrue("stopped interval-1 batches past the checkpoint: " + r.fields(),
                    r.number("since_stable") >= r.number("checkpoint_interval") - 1);
        }
        assertPngs(results, "recovery-checkpoint.png", "recovery-transfer.png", "recovery-viewchange.png");
        assertResultsMention(results, "Checkpointing (Fig. 9)", "| 16 KB |");
    }

    /**
     * The leader crashed under each ordering engine: a row per engine, the client's outage measured, PBFT and
     * the hybrid engine past the view or epoch of the stopped leader, the table and plot written.
     */
    @Test
    public void crashPrimarySmokeRunMeasuresTheOutageUnderEachOrdering() throws Exception {
        Path results = smokeRun("crash-primary");
        List<Csv.Row> rows = Csv.read(results.resolve("recovery-crash.csv"));
        assertEquals(RecoveryExperiment.CRASH_HEADER, List.copyOf(rows.get(0).fields().keySet()));
        assertEquals(List.of("pbft", "hybrid", "async"), rows.stream().map(r -> r.get("ordering")).toList());
        for (Csv.Row r : rows) {
            assertEquals(r.fields().toString(), "ok", r.get("status"));
            assertPositive(r, "outage_ms", "stop_to_reply_ms");
            String[] views = r.get("view").split("->");
            if (!r.get("ordering").equals("async")) {
                assertTrue("the group left the stopped leader's view or epoch: " + r.fields(),
                        Long.parseLong(views[1]) > Long.parseLong(views[0]));
            }
        }
        assertPngs(results, "recovery-crash.png");
        assertResultsMention(results, "The leader crashed, per ordering engine", "| hybrid |");
    }

    /** The profiler: JFR samples of the BFT-WS echo, aggregated four ways, and the slowest component named. */
    @Test
    public void profileSmokeRunWritesCsvAndResults() throws Exception {
        Path results = smokeRun("profile");
        List<Csv.Row> rows = Csv.read(results.resolve("profile.csv"));
        for (String clients : List.of("1", "2")) {
            for (String kind : List.of("component", "bftws method", "thread", "package", "method")) {
                List<Csv.Row> rs = rows.stream().filter(r -> r.get("clients").equals(clients)
                        && r.get("kind").equals(kind)).toList();
                assertFalse(kind + " rows at " + clients + " client(s): " + rows, rs.isEmpty());
                for (Csv.Row r : rs) {
                    assertPositive(r, "samples", "share", "calls_per_s");
                    assertTrue(r.fields().toString(), r.number("share") <= 1);
                }
            }
        }
        assertResultsMention(results, "Slowest component on the critical path");
    }

    @Test
    public void breakdownSmokeRunWritesCsvPlotAndResults() throws Exception {
        Path results = smokeRun("breakdown");
        List<Csv.Row> rows = Csv.read(results.resolve("breakdown.csv"));
        for (String clients : List.of("1", "2")) {
            List<Csv.Row> mine = rows.stream().filter(r -> r.get("clients").equals(clients)).toList();
            for (String section : List.of("latency", "verify", "verify minimum", "sign", "wire", "batch", "cpu")) {
                assertTrue(section + " rows at " + clients + " client(s): " + mine,
                        mine.stream().anyMatch(r -> r.get("section").equals(section)));
            }
            for (String mode : List.of("wsrm", "bftws")) {
                assertTrue(mode + " CPU at " + clients + " client(s)", mine.stream().anyMatch(r ->
                        r.get("section").equals("cpu") && r.get("phase").equals(mode) && r.get("part").equals("process")
                                && r.number("value") > 0));
            }
            assertTrue("requests traced at " + clients + " client(s)", mine.stream().anyMatch(r ->
                    r.get("phase").equals("requests analysed") && r.number("value") > 0));
        }
        assertPngs(results, "breakdown.png");
        assertResultsMention(results, "Latency breakdown and work per request", "results/breakdown.png",
                "**BFT-WS / WS-RM** | process");
    }

    /** Runs one experiment and the report with --smoke into a fresh folder; returns its results folder. */
    private static Path smokeRun(String experiment) throws Exception {
        Path results = Files.createDirectories(TMP.newFolder(experiment).toPath().resolve("results"));
        assertEquals(0, PerfMain.run(new String[] {"--smoke", "--root", "..", "--results", results.toString(),
            "--markdown", results.getParent().resolve("RESULTS.md").toString(), experiment, "report"}));
        return results;
    }

    /** RESULTS.md beside {@code results} contains each of {@code texts}. */
    private static void assertResultsMention(Path results, String... texts) throws Exception {
        String md = Files.readString(results.getParent().resolve("RESULTS.md"));
        for (String t : texts) {
            assertTrue(t + " in " + md, md.contains(t));
        }
    }

    private static void assertPositive(Csv.Row r, String... columns) {
        for (String c : columns) {
            assertTrue(c + " > 0 in " + r.fields(), r.number(c) > 0);
        }
    }

    private static void assertPngs(Path dir, String... names) throws Exception {
        for (String png : names) {
            Path p = dir.resolve(png);
            assertTrue(png + " written", Files.isRegularFile(p));
            assertArrayEquals(png + " is a PNG", PNG_MAGIC, Arrays.copyOf(Files.readAllBytes(p), 4));
        }
    }

    /** Experiment 2: both three-tier modes measured at 1 and 8 clients, and RESULTS.md's section. */
    @Test
    public void threeTierSmokeRunWritesCsvAndResults() throws Exception {
        Path results = smokeRun("three-tier");
        List<Csv.Row> rows = Csv.read(results.resolve("three-tier.csv"));
        for (String mode : List.of("plain", "bftws")) {
            for (String clients : List.of("1", "8")) {
                List<Csv.Row> ok = rows.stream().filter(r -> r.get("mode").equals(mode)
                        && r.get("clients").equals(clients) && r.get("status").equals("ok")).toList();
                assertEquals(mode + " at " + clients + " clients measured once: " + rows, 1, ok.size());
                Csv.Row r = ok.get(0);
                assertEquals("three-tier", r.get("experiment"));
                assertEquals("1KB", r.get("payload"));
                assertTrue(r.fields().toString(), r.number("calls") > 0);
                assertTrue(r.fields().toString(), r.number("p99_ms") >= r.number("p50_ms"));
                assertTrue(r.fields().toString(), r.number("throughput_cps") > 0);
            }
        }
        assertResultsMention(results, "Experiment 2: three-tier echo", "| 1KB | 8 | bftws |", "| 1KB | 1 | plain |");
    }

    /** Read-only echo (PBFT §5.1.3): WS-RM, ordered BFT-WS and read-only BFT-WS calls measured, and the read-only headline. */
    @Test
    public void readOnlySmokeRunWritesCsvAndResults() throws Exception {
        Path results = smokeRun("read-only");
        List<Csv.Row> rows = Csv.read(results.resolve("echo-readonly.csv"));
        for (String mode : List.of("wsrm", "bftws", "bftws-ro")) {
            assertTrue(mode + " measured: " + rows, rows.stream().anyMatch(r -> r.get("mode").equals(mode)
                    && r.get("status").equals("ok") && r.number("calls") > 0));
        }
        assertResultsMention(results, "Read-only echo", "BFT-WS read-only / WS-RM: p50", "| 1KB | 1 | bftws-ro |");
    }
}
