package dev.openrag.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

class PortsTest {

    @Test
    void freePortsLieBelowTheRangeOutgoingConnectionsDrawFromAndCanBeBound() throws IOException {
        int[] ephemeral = Ports.ephemeralRange();
        assertThat(ephemeral[0]).isLessThan(ephemeral[1]);
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            int port = Ports.free();
            assertThat(port).isBetween(Ports.LOWEST, ephemeral[0] - 1);
            seen.add(port);
            try (ServerSocket socket = new ServerSocket()) {
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                assertThat(Ports.inUse(port)).as("a port we hold is not free").isTrue();
            }
        }
        assertThat(seen).as("chosen at random, not the same each time").hasSizeGreaterThan(1);

        int first = Ports.freeRun(3);
        for (int offset = 0; offset < 3; offset++) {
            assertThat(Ports.inUse(first + offset)).isFalse();
        }
    }

    @Test
    void noPortIsHandedOutTwiceInOneJvm() {
        // a stack's ports are all chosen before any engine binds one: without this, 2,000 draws from ~22,000
        // ports would repeat about ninety times (Kafka's controller and OpenSearch's transport once got the same)
        Set<Integer> handedOut = new HashSet<>();
        for (int i = 0; i < 2_000; i++) {
            assertThat(handedOut.add(Ports.free())).as("draw %d repeated a port", i).isTrue();
        }
        int first = Ports.freeRun(3);
        for (int offset = 0; offset < 3; offset++) {
            assertThat(handedOut.add(first + offset)).as("a run's port %d was handed out before", first + offset).isTrue();
        }
    }
}
