package dev.onebeat.transport.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A plain socket HTTP/1.1 server on an ephemeral loopback port that, while stalling, answers each
 * request with its status line, its headers and the first bytes of a body it announced longer, and
 * then sends nothing more and keeps the connection open, as a hung webhook does. Once told to answer,
 * it answers {@code 200} in full. It counts the stalled connections the client closed.
 */
public final class StallingServer implements AutoCloseable {

    private final ServerSocket socket;
    private final Thread acceptor;
    private final List<Socket> connections = new CopyOnWriteArrayList<>();
    private final Queue<String> keys = new ConcurrentLinkedQueue<>();
    private final AtomicInteger closedByClient = new AtomicInteger();
    private volatile boolean stalling = true;

    public StallingServer() throws IOException {
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = new Thread(this::accept, "stalling-server");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** @return {@code http://127.0.0.1:<port>} */
    public String baseUrl() {
        return "http://127.0.0.1:" + socket.getLocalPort();
    }

    /** From now on, answers each request {@code 200} with its whole body. */
    public void answerNormally() {
        stalling = false;
    }

    /** @return the {@code Idempotency-Key} of each request received, in arrival order */
    public List<String> keys() {
        return List.copyOf(keys);
    }

    /** @return how many stalled connections the client closed */
    public int closedByClient() {
        return closedByClient.get();
    }

    private void accept() {
        while (!socket.isClosed()) {
            try {
                Socket connection = socket.accept();
                connections.add(connection);
                Thread serving = new Thread(() -> serve(connection), "stalling-server-connection");
                serving.setDaemon(true);
                serving.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket connection) {
        try (connection) {
            InputStream in = connection.getInputStream();
            OutputStream out = connection.getOutputStream();
            while (true) {
                String head = readHead(in);
                if (head == null) {
                    return;
                }
                int length = 0;
                for (String line : head.split("\r\n")) {
                    String lower = line.toLowerCase(Locale.ROOT);
                    if (lower.startsWith("content-length:")) {
                        length = Integer.parseInt(line.substring(line.indexOf(':') + 1).trim());
                    } else if (lower.startsWith("idempotency-key:")) {
                        keys.add(line.substring(line.indexOf(':') + 1).trim());
                    }
                }
                in.readNBytes(length);
                if (stalling) {
                    out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 64\r\n\r\n"
                            + "{\"accepted\":").getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    // nothing more: the client either waits for the rest forever or gives up and closes
                    if (in.read() < 0) {
                        closedByClient.incrementAndGet();
                    }
                    return;
                }
                out.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.US_ASCII));
                out.flush();
            }
        } catch (IOException e) {
            // the client went away mid-exchange
            closedByClient.incrementAndGet();
        }
    }

    /** @return the request line and headers, or {@code null} when the connection ended first */
    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        int b;
        while ((b = in.read()) >= 0) {
            head.write(b);
            matched = (b == '\r' && matched % 2 == 0) || (b == '\n' && matched % 2 == 1) ? matched + 1 : 0;
            if (matched == 4) {
                return head.toString(StandardCharsets.US_ASCII);
            }
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        socket.close();
        for (Socket connection : connections) {
            connection.close();
        }
    }
}
