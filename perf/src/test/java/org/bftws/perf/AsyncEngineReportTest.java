package org.bftws.perf;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** The engine-comparison sections of RESULTS.md and their plots, from CSVs in AsyncBench's columns. */
public class AsyncEngineReportTest {
    private static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G'};

    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    @Test
    public void tablesTheRatioAgainstItsTargetAndPlotsEachCsv() throws Exception {
        Path results = tmp.newFolder().toPath();
        Files.writeString(results.resolve("engine-async.csv"), String.join("\n",
                "ordering,n,batch_size,clients,requests,rounds,requests_per_round,cpu_seconds_replica1,"
                        + "requests_per_cpu_second_replica1,busiest_replica,cpu_seconds_busiest,"
                        + "requests_per_cpu_second_busiest,cpu_us_per_request_busiest,async_to_pbft_busiest,"
                        + "async_to_pbft_replica1,wall_seconds,java,cores",
                "pbft,4,16,64,1000,63,15.9,0.1,10000,0,0.125,8000,125.0,,,1.0,17,2",
                "async,4,16,64,1000,63,15.9,0.8,1250,0,0.8,1250,800.0,0.156,0.125,5.0,17,2"));
        Files.writeString(results.resolve("engine-async-counts.csv"), String.join("\n",
                "ordering,schedule,n,f,batch_size,requests,rounds,requests_per_round,peer_messages_per_request,"
                        + "peer_bytes_per_request,peer_messages_per_round,request_messages_per_request,"
                        + "reply_messages_per_request,reply_bytes_per_request,coin_shares_per_request,"
                        + "coin_share_checks_per_request,coin_combines_per_request,coin_combined_checks_per_request,"
                        + "coin_messages_per_request,coin_shares_per_round,mvba_candidates_per_round,aba_rounds_mean,"
                        + "aba_rounds_max,signatures_made_per_request_replica1,signatures_checked_per_request_replica1,"
                        + "kb_signed_per_request_replica1,kb_checked_per_request_replica1",
                "pbft,fifo,4,1,16,1000,65,15.4,1.56,3612,24.0,4.00,4.00,8372,0.000,0.000,0.000,0.000,0.000,0.00,,,,"
                        + "0.23,1.45,0.1,2.2",
                "async,fifo,4,1,16,1000,64,15.6,6.14,251407,96.0,4.00,4.00,8375,0.010,0.020,0.001,0.000,0.010,0.10,"
                        + "1.00,1.00,1,1.24,5.24,21.2,62.3"));
        Files.writeString(results.resolve("engine-async-memory.csv"), String.join("\n",
                "requests,batch_size,operation_bytes,round,heap_used_mb_after_gc,router_instances,router_buffered,"
                        + "resend_log_envelopes,pending_requests,stable_checkpoint,cpu_seconds_group",
                "0,64,64,0,7.4,1,0,0,0,0,0.0", "2000,64,64,33,8.8,1,0,330,0,0,5.5", "4000,64,64,66,9.5,1,0,660,0,0,11.1",
                "6000,64,64,99,8.9,1,0,990,0,0,16.6"));
        StringBuilder md = new StringBuilder();
        List<Path> plots = new ArrayList<>();
        new AsyncEngineReport(results).write(md, plots);

        String text = md.toString();
        assertTrue(text, text.contains("| 16 | async | 15.9 | 1250 | 800 | 1250 | 0.156× | **missed** (≥ 0.5×) |"));
        assertTrue(text, text.contains("| async | fifo | 4 | 16 | 15.6 | 6.14 | 245.5 | 96 | 0.010 |"));
        assertTrue(text, text.contains("| 1.00, 1 | 1.24 / 5.24 | 21.2 / 62.3 |"));
        assertTrue(text, text.contains("6000 requests of 64 bytes in 99 rounds"));
        assertTrue(text, text.contains("8.8 to 9.5 MB; the largest sample of the first half of the run 8.8 MB, of the "
                + "second half 9.5 MB; at the end 8.9 MB"));
        assertTrue(text, text.contains("resend log 990 envelopes"));
        assertEquals(4, plots.size());
        for (String png : List.of("engine-async.png", "engine-async-counts.png", "engine-async-bytes.png",
                "engine-async-memory.png")) {
            assertTrue(text, text.contains("results/" + png));
            assertArrayEquals(png, PNG_MAGIC, Arrays.copyOf(Files.readAllBytes(results.resolve(png)), 4));
        }
    }
}
