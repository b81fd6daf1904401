package dev.onebeat.scheduler.boot.database;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP port that forwards each new connection to the current target port on 127.0.0.1: a DNS name that a failover
 * moves. Connections made before {@link #moveTo(int)} stay with the old target, as a client's open sockets stay with
 * the address the name had. Hand-written: no TCP proxy is on the test class path, and this is all a test needs.
 */
final class MovingForwarder implements AutoCloseable {

    private final ServerSocket listener;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile int target;

    MovingForwarder(int target) {
        this.target = target;
        try {
            listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException("could not open the forwarder's port", e);
        }
        daemon("forwarder-" + listener.getLocalPort(), this::accept);
    }

    int port() {
        return listener.getLocalPort();
    }

    /** New connections go to {@code newTarget} from now on; open ones keep their server. */
    void moveTo(int newTarget) {
        target = newTarget;
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), target);
                sockets.add(client);
                sockets.add(server);
                pipe(client, server);
                pipe(server, client);
            } catch (IOException e) {
                // the listener closed, or the target refused: the client sees its connection end
            }
        }
    }

    private void pipe(Socket from, Socket to) {
        daemon("forwarder-pipe", () -> {
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                in.transferTo(out);
            } catch (IOException e) {
                // one side closed: close both below
            }
            closeQuietly(from);
            closeQuietly(to);
        });
    }

    @Override
    public void close() {
        closeQuietly(listener);
        sockets.forEach(MovingForwarder::closeQuietly);
    }

    private static void daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            // closing anyway
        }
    }
}
