package org.bftws.client.group;

import static org.junit.Assert.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * scripts/group-status's rows when replicas are not there to answer, and its table's layout. (Rows of running
 * replicas, read from their MBeans: {@link ReplicaStatusTest}.)
 */
public class GroupStatusTest {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    @Test
    public void aMissingPidFileAndAPidThatRunsNoReplicaAreDown() throws Exception {
        Path dir = tmp.getRoot().toPath();
        Files.writeString(dir.resolve("group"), "0 18001\n1 18002\n");
        // this test's own JVM: alive, but no GroupLauncher (a pid reused after the replica ended)
        Files.writeString(dir.resolve("replica-0.pid"), ProcessHandle.current().pid() + "\n");
        List<GroupStatus.Row> rows = GroupStatus.rows(dir);
        assertEquals(2, rows.size());
        for (GroupStatus.Row r : rows) {
            assertEquals("replica " + r.id(), "down", r.state());
            assertEquals(GroupLauncher.serviceUrl(18001 + r.id(), "Echo"), r.endpoint());
        }
    }

    @Test
    public void theTableAlignsItsColumnsUnderTheHeader() {
        String table = GroupStatus.table(List.of(
                new GroupStatus.Row(0, "http://a/Echo", "active", 12L, 1, 345L, 336L, 0, 3L, new int[] {2}),
                new GroupStatus.Row(1, "http://b/Echo", "view-change", 11L, 3, 340L, 336L, 2, 0L, new int[0]),
                GroupStatus.Row.unavailable(2, "http://c/Echo", "down")));
        assertEquals(String.join("\n",
                "id  endpoint       state        view  primary  executed  stable  pending  evidence  peers-down",
                "0   http://a/Echo  active       12    1        345       336     0        3         [2]",
                "1   http://b/Echo  view-change  11    3        340       336     2        0         none",
                "2   http://c/Echo  down         -     -        -         -       -        -         -") + "\n", table);
    }
}
