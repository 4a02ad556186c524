package org.bftws.perf.profile;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import jdk.jfr.Configuration;
import jdk.jfr.Recording;

import org.bftws.perf.Csv;
import org.bftws.perf.Machine;
import org.bftws.perf.echo.EchoExperiment;
import org.bftws.perf.echo.EchoModes;
import org.bftws.perf.echo.EchoPayload;
import org.bftws.perf.echo.EchoSetup;

/**
 * Where BFT-WS spends its CPU on the critical path: the BFT-WS 1 KB echo (4 replicas,
 * 1 and 8 clients) runs under Java Flight Recorder (the JDK's {@code profile} settings: an execution sample of
 * every running Java thread every 10 ms). Only samples inside the measurement windows count (warm-up and
 * start-up are left out); {@link ProfileSummary} aggregates them by component, package, method and thread
 * into {@code profile.csv}. Client, replicas and JFR share this JVM, as in the echo experiment.
 */
public final class Profiler {
    private Profiler() {
    }

    /** 1 KB, 1 and 8 clients, one repetition, windows long enough for a few thousand samples. */
    public static EchoExperiment.Config full() {
        return new EchoExperiment.Config(EchoModes.named("bftws"), List.of(EchoPayload.bytes(1024)), List.of(1, 8),
                1, 3_000, 10_000);
    }

    /** Seconds: enough samples to prove the pipeline. */
    public static EchoExperiment.Config smoke() {
        return new EchoExperiment.Config(EchoModes.named("bftws"), List.of(EchoPayload.bytes(1024)), List.of(1, 2),
                1, 300, 1_500);
    }

    /**
     * Runs the echo measurement under JFR and writes {@code results/profile.csv} (and profile-echo.csv); the
     * recording and the servers' repositories go to {@code work}, which the caller deletes.
     */
    public static void run(EchoExperiment.Config config, EchoSetup setup, Path work, Path root, Path results,
            PrintStream progress) throws Exception {
        Path jfr = work.resolve("profile.jfr");
        List<List<String>> echoRows;
        try (Recording recording = new Recording(Configuration.getConfiguration("profile"))) {
            recording.setToDisk(true);
            recording.start();
            progress.println("perf profile: Java Flight Recorder on (settings 'profile'), running the BFT-WS echo");
            echoRows = new EchoExperiment("profile", config, setup, work.resolve("echo"), root, progress)
                    .run(results.resolve("profile-echo.csv"));
            recording.stop();
            recording.dump(jfr);
        }
        List<ProfileSummary.Window> windows = new ArrayList<>();
        for (List<String> row : echoRows) {
            List<String> h = EchoExperiment.HEADER;
            if (!row.get(h.indexOf("status")).equals("ok")) {
                continue;
            }
            // time_utc is when the row was written (just after its window), truncated to the second: the window
            // taken is the measured one shortened by that second, so no warm-up sample slips in
            Instant end = Instant.parse(row.get(h.indexOf("time_utc")));
            long measureMs = (long) (Double.parseDouble(row.get(h.indexOf("measure_s"))) * 1000);
            windows.add(new ProfileSummary.Window(Integer.parseInt(row.get(h.indexOf("clients"))),
                    end.minusMillis(measureMs - 1000), end,
                    Double.parseDouble(row.get(h.indexOf("throughput_cps")))));
        }
        List<List<String>> rows = new ArrayList<>();
        String commit = Machine.commit(root);
        for (ProfileSummary.Row r : ProfileSummary.summarise(jfr, windows)) {
            List<String> row = new ArrayList<>(Machine.context("profile", commit, Machine.loadAverage()[0]));
            row.addAll(r.values());
            rows.add(row);
        }
        Csv.write(results.resolve("profile.csv"), ProfileSummary.HEADER, rows);
        progress.println("perf profile: wrote " + results.resolve("profile.csv") + " (" + rows.size() + " rows)");
    }
}
