package org.bftws.client.gateway;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.bftws.client.embedded.Axis2Server;
import org.bftws.client.group.DemoClient;
import org.bftws.client.group.GroupLauncher;
import org.bftws.client.group.GroupSecurity;

/**
 * {@code scripts/gateway}: a {@link GroupGateway} in front of the group scripts/start-group started.
 *
 * <pre>
 *   GatewayMain --group FILE --keys DIR --dir DIR --artifacts DIR --conf DIR --port P [--host 127.0.0.1]
 *               [--services Echo,Dealer,IdGenerator,Counter] [--sequences 64] [--wait-ms 2000]
 *               [--security none|rampart] [--config I|II] [--ordering pbft|async|hybrid]
 * </pre>
 * Runs until killed; prints each service's gateway URL once it serves.
 */
public final class GatewayMain {
    static final String DEFAULT_SERVICES = "Echo,Dealer,IdGenerator,Counter";

    private GatewayMain() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = GroupLauncher.options(args, 0);
        int[] ports = GroupLauncher.readGroup(Path.of(GroupLauncher.required(o, "group")));
        Path dir = Path.of(GroupLauncher.required(o, "dir"));
        Files.createDirectories(dir);
        GroupLauncher.Configuration configuration = GroupLauncher.Configuration.parse(o.getOrDefault("config", "I"));
        if (configuration == GroupLauncher.Configuration.III) {
            System.err.println("gateway: configuration III is not supported (its f is not the members' count's)");
            System.exit(2);
        }
        GroupGateway.Settings d = GroupGateway.Settings.defaults(Integer.parseInt(GroupLauncher.required(o, "port")));
        GroupGateway.Settings settings = new GroupGateway.Settings(o.getOrDefault("host", d.host()), d.port(),
                Integer.parseInt(o.getOrDefault("sequences", Integer.toString(d.sequences()))),
                Long.parseLong(o.getOrDefault("wait-ms", Long.toString(d.waitMillis()))), d.callTimeoutMillis(),
                d.maxRequestBytes());
        List<String> services = Arrays.asList(o.getOrDefault("services", DEFAULT_SERVICES).split(","));
        Axis2Server client = DemoClient.clientInstance(GroupLauncher.Container.AXIS2, ports, GroupLauncher.layout(o),
                dir, GroupSecurity.parse(o.getOrDefault("security", "none")), configuration.parameters(ports.length)
                        + GroupLauncher.orderingParameters(o.getOrDefault("ordering", "pbft")),
                configuration.clientKey(ports.length));
        List<URI> replicas = new ArrayList<>();
        for (int port : ports) {
            replicas.add(URI.create("http://127.0.0.1:" + port + GroupGateway.SERVICES_PATH));
        }
        GroupGateway gateway = GroupGateway.start(client.context(), replicas, (ports.length - 1) / 3, services,
                settings);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            gateway.close();
            try {
                client.close();
            } catch (Exception e) {
                // stopping anyway
            }
        }));
        System.out.println("gateway: serving " + services.size() + " services of the group of " + ports.length
                + " replicas, " + settings.sequences() + " sequences");
        for (String s : services) {
            System.out.println("  " + gateway.serviceUrl(s) + "   (WSDL: " + gateway.serviceUrl(s) + "?wsdl)");
        }
        System.out.println("  metrics http://" + settings.host() + ":" + gateway.port() + GatewayMetrics.PATH);
        new CountDownLatch(1).await();
    }
}
