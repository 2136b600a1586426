package dev.openrag.localstack.engines.opensearch;

import java.util.concurrent.CountDownLatch;

import org.codelibs.opensearch.runner.OpenSearchRunner;

/**
 * Runs one real OpenSearch node (HTTP layer included) as a standalone process:
 * {@code OpenSearchLauncher <baseDir> <httpPort> <transportPort> [<nodeName> <peerTransports> <managerNodes>]}.
 * Alone it is a single-node cluster; with the last three arguments it joins the nodes listening on
 * {@code peerTransports} (comma-separated host:port), the first start bootstrapping the cluster
 * from the comma-separated {@code managerNodes}. Binds to 127.0.0.1 only, with exact ports (the
 * runner would otherwise hunt for a free one, hiding a port conflict).
 */
public final class OpenSearchLauncher {

    private OpenSearchLauncher() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3 && args.length != 6) {
            System.err.println("usage: OpenSearchLauncher <baseDir> <httpPort> <transportPort> [<nodeName> <peerTransports> <managerNodes>]");
            System.exit(2);
        }
        boolean clustered = args.length == 6;
        String baseDir = args[0];
        int httpPort = Integer.parseInt(args[1]);
        int transportPort = Integer.parseInt(args[2]);

        OpenSearchRunner runner = new OpenSearchRunner();
        runner.setMaxHttpPort(-1); // use exactly baseHttpPort + 1 instead of hunting for a free port
        runner.onBuild((index, settings) -> {
            settings.put("http.port", httpPort);
            settings.put("transport.port", transportPort);
            settings.put("network.host", "127.0.0.1");
            // a nearly full disk must not turn a dev node read-only or red
            settings.put("cluster.routing.allocation.disk.threshold_enabled", false);
            if (clustered) {
                settings.put("node.name", args[3]);
                settings.put("discovery.type", "zen"); // the runner would make a lone node single-node
                settings.putList("discovery.seed_hosts", args[4].split(","));
                settings.putList("cluster.initial_cluster_manager_nodes", args[5].split(","));
            }
        });
        runner.build(OpenSearchRunner.newConfigs()
                .basePath(baseDir)
                .numOfNode(1)
                .baseHttpPort(httpPort - 1)
                .clusterName("openrag"));

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("opensearch: shutting down");
            try {
                runner.close();
            } catch (Exception e) {
                System.err.println("opensearch: close failed: " + e);
            }
            stopped.countDown();
        }, "opensearch-shutdown"));
        System.out.println("opensearch: http listening on 127.0.0.1:" + httpPort);
        stopped.await();
    }
}
