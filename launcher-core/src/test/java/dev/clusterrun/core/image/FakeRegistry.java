package dev.clusterrun.core.image;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A registry (or a token service) over real HTTP on a loopback address: each path answers what a
 * test sets, and every request is kept to look at.
 */
final class FakeRegistry implements AutoCloseable {
  /** One request as the server saw it. */
  record Request(String method, String path, String query, String accept, String authorization) {}

  /** What a path answers. */
  @FunctionalInterface
  interface Handler {
    Reply answer(Request r);
  }

  /** An answer: status, headers, body. */
  record Reply(int status, Map<String, String> headers, String body) {
    static Reply json(String body, String mediaType, String digest) {
      return digest == null
          ? new Reply(200, Map.of("Content-Type", mediaType), body)
          : new Reply(
              200, Map.of("Content-Type", mediaType, "Docker-Content-Digest", digest), body);
    }

    static Reply status(int status) {
      return new Reply(status, Map.of(), "{\"errors\":[{\"code\":\"X\"}]}");
    }

    static Reply challenge(String header) {
      return new Reply(401, Map.of("WWW-Authenticate", header), "{}");
    }
  }

  final List<Request> requests = new CopyOnWriteArrayList<>();
  private final Map<String, Handler> paths = new ConcurrentHashMap<>();
  private final HttpServer server;

  FakeRegistry(String address) throws IOException {
    server = HttpServer.create(new InetSocketAddress(address, 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  FakeRegistry() throws IOException {
    this("127.0.0.1");
  }

  /** {@code host:port}, as an image names its registry. */
  String registry() {
    return server.getAddress().getHostString() + ":" + server.getAddress().getPort();
  }

  FakeRegistry on(String path, Handler h) {
    paths.put(path, h);
    return this;
  }

  private void handle(HttpExchange x) throws IOException {
    Request r =
        new Request(
            x.getRequestMethod(),
            x.getRequestURI().getPath(),
            x.getRequestURI().getRawQuery(),
            x.getRequestHeaders().getFirst("Accept"),
            x.getRequestHeaders().getFirst("Authorization"));
    requests.add(r);
    Handler h = paths.get(r.path());
    Reply reply = h == null ? Reply.status(404) : h.answer(r);
    byte[] body = reply.body().getBytes(StandardCharsets.UTF_8);
    reply.headers().forEach((k, v) -> x.getResponseHeaders().add(k, v));
    x.sendResponseHeaders(reply.status(), body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      x.getResponseBody().write(body);
    }
    x.close();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
