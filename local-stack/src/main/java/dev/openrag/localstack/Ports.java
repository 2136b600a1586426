package dev.openrag.localstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

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

    /** A port that is free right now (the OS picks it). */
    public static int free() {
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
            if (first + count <= 65535 && java.util.stream.IntStream.range(1, count).allMatch(offset -> canBind(first + offset))) {
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
