package dev.openrag.localstack.engines.neo4j;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;

/**
 * Runs an embedded Neo4j with its Bolt connector as a standalone process:
 * {@code Neo4jLauncher <homeDir> <boltPort>}. Auth stays off (the embedded default): the
 * server only listens on 127.0.0.1. Stops cleanly on SIGTERM through the shutdown hook.
 */
public final class Neo4jLauncher {

    private Neo4jLauncher() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length != 2) {
            System.err.println("usage: Neo4jLauncher <homeDir> <boltPort>");
            System.exit(2);
        }
        Path home = Path.of(args[0]).toAbsolutePath();
        int boltPort = Integer.parseInt(args[1]);
        DatabaseManagementService dbms = new DatabaseManagementServiceBuilder(home)
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", boltPort))
                .setConfig(HttpConnector.enabled, false)
                .build();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("neo4j: shutting down");
            dbms.shutdown();
            stopped.countDown();
        }, "neo4j-shutdown"));
        System.out.println("neo4j: bolt listening on 127.0.0.1:" + boltPort + ", home " + home);
        stopped.await();
    }
}
