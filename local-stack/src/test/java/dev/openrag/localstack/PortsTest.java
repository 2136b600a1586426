package dev.openrag.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

class PortsTest {

    @Test
    void freePortsLieOutsideTheRangeOutgoingConnectionsDrawFromAndCanBeBound() throws IOException {
        int[] ephemeral = Ports.ephemeralRange();
        assertThat(ephemeral[0]).isLessThanOrEqualTo(ephemeral[1]);
        assertBindableAndThenInUse(Ports.free()); // on this machine's range, whatever it is
        // Linux's default range and ranges other machines set (a low one, one that leaves only the ports below it)
        for (int[] range : List.of(new int[] {32768, 60999}, new int[] {1024, 4999}, new int[] {10000, 20000},
                new int[] {11000, 65535})) {
            Set<Integer> seen = new HashSet<>();
            for (int i = 0; i < 20; i++) {
                int port = Ports.free(range);
                assertThat(port).as("range %d-%d", range[0], range[1]).isBetween(Ports.LOWEST, 65535)
                        .matches(p -> p < range[0] || p > range[1], "outside the range");
                seen.add(port);
                assertBindableAndThenInUse(port);
            }
            assertThat(seen).as("chosen at random, not the same each time").hasSizeGreaterThan(1);
        }
        // a machine where nearly every port is ephemeral: the OS's pick, still never handed out twice
        Set<Integer> picked = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            int port = Ports.free(new int[] {1024, 65000});
            assertThat(picked.add(port)).as("port %d handed out again", port).isTrue();
            assertBindableAndThenInUse(port);
        }

        int first = Ports.freeRun(3);
        for (int offset = 0; offset < 3; offset++) {
            assertThat(Ports.inUse(first + offset)).isFalse();
        }
    }

    private static void assertBindableAndThenInUse(int port) throws IOException {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            assertThat(Ports.inUse(port)).as("a port we hold is not free").isTrue();
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
