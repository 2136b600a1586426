package dev.openrag.localstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/** Loopback port helpers: everything local-stack starts binds to 127.0.0.1 only. */
public final class Ports {

    private Ports() {
    }

    /** True when something accepts connections on 127.0.0.1:port. */
    public static boolean inUse(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 300);
            return true;
        } catch (IOException e) {
            return !canBind(port);
        }
    }

    /** Above the registered services most machines run. */
    static final int LOWEST = 10_000;
    private static final int HIGHEST = 65_535;
    /** Fewer ports than this outside the ephemeral range (a machine that made nearly all of them ephemeral): the OS picks. */
    private static final int FEWEST_TO_CHOOSE_FROM = 1000;
    private static final int[] EPHEMERAL = ephemeralRange();

    /** Every port {@link #free} and {@link #freeRun} handed out in this JVM (a few hundred in a test run at most). */
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    /**
     * A port that is free right now, chosen at random outside the OS's ephemeral range (below or above it). A port the OS
     * picks ({@code bind(0)}) comes from that range, which every outgoing connection also draws its
     * local port from: between our check and the engine's bind, a client connection (the tests' own
     * Kafka, Neo4j and HTTP clients) could take it, and the engine then fails to start with
     * "Address already in use" (seen on OpenSearch). Outside the range only another caller of this
     * method could. A port is handed out once per JVM: a stack's ports are all chosen before any engine
     * binds one, and two draws of the same free port gave Kafka's controller and OpenSearch's transport
     * the same one (a test run failed so). The OS's pick remains the fallback, where the range leaves too few ports.
     */
    public static int free() {
        return free(EPHEMERAL);
    }

    /** {@link #free()} on a machine whose ephemeral range is {@code ephemeral} (its lowest and highest port). */
    static int free(int[] ephemeral) {
        int below = Math.max(0, Math.min(ephemeral[0], HIGHEST + 1) - LOWEST); // LOWEST .. ephemeral[0] - 1
        int aboveFrom = Math.max(ephemeral[1] + 1, LOWEST);
        int above = Math.max(0, HIGHEST + 1 - aboveFrom); // aboveFrom .. HIGHEST
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 50 && below + above >= FEWEST_TO_CHOOSE_FROM; attempt++) {
            int draw = random.nextInt(below + above);
            int port = draw < below ? LOWEST + draw : aboveFrom + draw - below;
            if (!HANDED_OUT.contains(port) && canBind(port) && HANDED_OUT.add(port)) {
                return port;
            }
        }
        for (int attempt = 0; attempt < 50; attempt++) {
            int port = pickedByTheOs();
            if (HANDED_OUT.add(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port on the loopback interface that was not handed out before");
    }

    /**
     * The OS's ephemeral port range: Linux's, read from /proc; else both Linux's default (32768-60999) and the IANA range
     * that macOS and the BSDs use (49152-65535).
     */
    static int[] ephemeralRange() {
        try {
            String[] bounds = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))
                    .strip().split("\\s+");
            return new int[] {Integer.parseInt(bounds[0]), Integer.parseInt(bounds[1])};
        } catch (IOException | RuntimeException e) {
            return new int[] {32768, 65535};
        }
    }

    private static int pickedByTheOs() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on the loopback interface", e);
        }
    }

    /** The first of {@code count} consecutive ports that are all free right now. */
    public static int freeRun(int count) {
        for (int attempt = 0; attempt < 100; attempt++) {
            int first = free();
            // each port of the run is claimed as it is checked, as free() claims its own (a failed run's claims stay unused)
            if (first + count <= 65535 && java.util.stream.IntStream.range(1, count)
                    .allMatch(offset -> !HANDED_OUT.contains(first + offset) && canBind(first + offset) && HANDED_OUT.add(first + offset))) {
                return first;
            }
        }
        throw new IllegalStateException("no run of " + count + " free ports found on the loopback interface");
    }

    private static boolean canBind(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
