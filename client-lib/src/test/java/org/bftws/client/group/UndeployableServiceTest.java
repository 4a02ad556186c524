package org.bftws.client.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.List;

import org.apache.axis2.context.ConfigurationContext;
import org.bftws.client.embedded.Axis2Server;
import org.bftws.module.BftwsRuntime;
import org.bftws.module.DeploymentCheck;
import org.bftws.module.testing.Conditions;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * A replica whose service archive fails to deploy stops at start-up, naming the archive and the cause: here a
 * POJO service compiled by plain javac with string concatenation and a lambda, whose bytecode Axis2 1.7.9's
 * parameter-name reader cannot read, and the message says what to do.
 */
public class UndeployableServiceTest {
    private static final long WAIT_MS = 30_000;

    private final TemporaryFolder tmp = new TemporaryFolder();
    private final LaunchedGroup group = new LaunchedGroup(tmp).randomness("none");

    @Rule
    public final RuleChain rules = RuleChain.outerRule(tmp).around(group);

    @Rule
    public final Timeout timeout = Timeout.seconds(120);

    @Test
    public void aReplicaWhoseServiceFailedToDeployStopsNamingTheArchiveAndTheCause() throws Exception {
        group.service(UserServices.aar(tmp.newFolder("aar").toPath(), "Concat", "kv.ConcatKeyValue",
                List.of("kv/ConcatKeyValue.java"), UserServices.RPC));
        Axis2Server replica = group.start(0, "replica0");
        ConfigurationContext cc = replica.context();
        Conditions.await("replica 0 stops its ordering", WAIT_MS, () -> BftwsRuntime.replica(cc) == null);
        List<String> failures = DeploymentCheck.failures(cc.getAxisConfiguration().getFaultyServices());
        assertEquals(failures.toString(), 1, failures.size());
        String line = failures.get(0);
        assertTrue(line, line.startsWith("service archive ") && line.contains("Concat.aar failed to deploy: "));
        assertTrue(line, line.contains("unexpected bytes in file"));
        assertTrue(line, line.endsWith(DeploymentCheck.BYTECODE_HINT));
    }
}
