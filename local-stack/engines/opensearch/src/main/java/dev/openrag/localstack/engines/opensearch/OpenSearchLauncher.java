package dev.openrag.localstack.engines.opensearch;

import java.util.concurrent.CountDownLatch;

import org.codelibs.opensearch.runner.OpenSearchRunner;

/**
 * Runs a single real OpenSearch node (HTTP layer included) as a standalone process:
 * {@code OpenSearchLauncher <baseDir> <httpPort> <transportPort>}. Binds to 127.0.0.1 only,
 * with exact ports (the runner would otherwise hunt for a free one, hiding a port conflict).
 */
public final class OpenSearchLauncher {

    private OpenSearchLauncher() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: OpenSearchLauncher <baseDir> <httpPort> <transportPort>");
            System.exit(2);
        }
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
