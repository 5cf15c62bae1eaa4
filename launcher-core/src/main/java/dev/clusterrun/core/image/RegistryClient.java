package dev.clusterrun.core.image;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLException;

/**
 * Resolves a tag to the manifest digest enroot 4.1.2 would import for the platform, with the
 * requests its {@code src/docker.sh} makes, in fewer: one {@code GET /v2/REPOSITORY/manifests/TAG}
 * that accepts Docker's and OCI's manifests, lists and indexes; the digest from {@code
 * Docker-Content-Digest} (the body's sha256 without it); from a list or index the first entry whose
 * {@code platform.architecture} is the settings' (enroot's own pick: the OS and the variant are not
 * looked at). A {@code 401} is answered once as enroot does: a Bearer token from the challenge's
 * realm, or Basic credentials, from the netrc file only when it names the registry's host (or the
 * image's user), else anonymously. A pinned image is returned without a request.
 *
 * <p>Messages name the registry, the repository, the tag and the status or the network's error, on
 * one line; never a password or a token.
 */
public final class RegistryClient {
  static final String ACCEPT =
      String.join(
          ", ",
          "application/vnd.docker.distribution.manifest.v2+json",
          "application/vnd.docker.distribution.manifest.list.v2+json",
          "application/vnd.oci.image.manifest.v1+json",
          "application/vnd.oci.image.index.v1+json");

  private static final int MAX_BODY = 4 * 1024 * 1024;
  private static final int MAX_REDIRECTS = 5;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final RegistrySettings settings;
  private final Map<String, String> environment;
  private final Transport http;
  private final String setupProblem;

  /** A client whose netrc passwords {@code $NAME} come from this process's environment. */
  public RegistryClient(RegistrySettings s) {
    this(s, System.getenv());
  }

  /**
   * A client.
   *
   * @param environment for the netrc file's {@code $NAME} passwords, as enroot expands them
   */
  public RegistryClient(RegistrySettings s, Map<String, String> environment) {
    this.settings = s;
    this.environment = Map.copyOf(environment);
    Transport made = null;
    String problem = null;
    try {
      made = Transport.of(s);
    } catch (IOException e) {
      problem = Transport.reason(e);
    }
    this.http = made;
    this.setupProblem = problem;
  }

  /** One answer: status, headers and body. */
  private record Answer(int status, Transport.Response response, byte[] body) {
    String header(String name) {
      return response.header(name);
    }
  }

  /** What one resolution knows: the image, the netrc, and whether credentials went out. */
  private final class Attempt {
    final RegistryImage image;
    final Netrc netrc;
    boolean sent;
    String realmHost;

    Attempt(RegistryImage image, Netrc netrc) {
      this.image = image;
      this.netrc = netrc;
    }

    RegistryException fail(RegistryException.Kind kind, int status, String what) {
      return new RegistryException(
          kind, status, RegistryText.subject(image) + ": " + what, realmHost);
    }
  }

  /**
   * The digest enroot imports for this image now.
   *
   * @throws RegistryException with its kind and status; {@link RegistryException.Kind#UNREACHABLE}
   *     for refused connections, timeouts, unknown names and TLS failures
   */
  public Resolved resolve(RegistryImage image) throws RegistryException {
    if (image.digest() != null) {
      return new Resolved(image.digest(), null, null, false);
    }
    Attempt a = new Attempt(image, netrc(image));
    if (setupProblem != null) {
      throw a.fail(RegistryException.Kind.UNREACHABLE, 0, setupProblem);
    }
    URI url = manifestUrl(image);
    Answer answer = get(a, url, null);
    if (answer.status() == 401) {
      Challenge c = Challenge.parse(answer.header("WWW-Authenticate"));
      String auth = c == null ? null : authorization(a, c);
      if (auth != null) {
        answer = get(a, url, auth);
      }
    }
    if (answer.status() != 200) {
      throw refusal(a, answer.status());
    }
    return manifest(a, answer);
  }

  private Netrc netrc(RegistryImage image) throws RegistryException {
    try {
      return Netrc.read(settings.credentialsFile(), environment);
    } catch (IOException e) {
      throw new RegistryException(
          RegistryException.Kind.PROTOCOL,
          0,
          RegistryText.subject(image)
              + ": cannot read "
              + settings.credentialsFile()
              + ": "
              + Transport.reason(e),
          null);
    }
  }

  URI manifestUrl(RegistryImage image) {
    return URI.create(
        (settings.allowHttp() ? "http" : "https")
            + "://"
            + image.registry()
            + "/v2/"
            + image.repository()
            + "/manifests/"
            + image.reference());
  }

  /** The manifest answered: its digest, or the platform's entry of a list or index. */
  private Resolved manifest(Attempt a, Answer answer) throws RegistryException {
    JsonNode body;
    try {
      body = JSON.readTree(answer.body());
    } catch (IOException e) {
      throw a.fail(RegistryException.Kind.PROTOCOL, 200, "the manifest is not JSON");
    }
    if (body == null || !body.isObject()) {
      throw a.fail(RegistryException.Kind.PROTOCOL, 200, "the manifest is not a JSON object");
    }
    String type = mediaType(answer, body);
    String digest = answer.header("Docker-Content-Digest");
    if (digest == null || !digest.strip().startsWith("sha256:")) {
      digest = sha256(answer.body());
    }
    digest = digest.strip();
    JsonNode entries = body.get("manifests");
    if (entries == null || !entries.isArray()) {
      return new Resolved(digest, null, type, a.sent);
    }
    List<String> platforms = new ArrayList<>();
    for (JsonNode e : entries) {
      JsonNode p = e.path("platform");
      String arch = p.path("architecture").asText("");
      if (arch.equals(settings.arch()) && e.path("digest").isTextual()) {
        String t = e.path("mediaType").isTextual() ? e.path("mediaType").asText() : null;
        return new Resolved(e.path("digest").asText(), digest, t, a.sent);
      }
      platforms.add(p.path("os").asText("?") + "/" + arch);
    }
    throw a.fail(
        RegistryException.Kind.NOT_FOUND,
        0,
        "no "
            + settings.arch()
            + " image in its index (it has "
            + (platforms.isEmpty() ? "none" : String.join(", ", platforms))
            + ")");
  }

  private static String mediaType(Answer answer, JsonNode body) {
    if (body.path("mediaType").isTextual()) {
      return body.path("mediaType").asText();
    }
    String ct = answer.header("Content-Type");
    return ct == null ? null : ct.split(";", 2)[0].strip();
  }

  /** The {@code Authorization} header the challenge asks for, or null to go on without. */
  private String authorization(Attempt a, Challenge c) throws RegistryException {
    boolean withCredentials = credentialsAllowed(a);
    if (c.isBasic()) {
      Optional<Netrc.Credentials> cr =
          withCredentials ? a.netrc.machine(a.image.host()) : Optional.empty();
      if (cr.isEmpty() || !cr.get().usable()) {
        return null;
      }
      a.sent = true;
      return basic(cr.get());
    }
    if (!c.isBearer() || c.realm() == null) {
      throw a.fail(
          RegistryException.Kind.PROTOCOL, 401, "unsupported authentication " + c.scheme());
    }
    URI realm;
    try {
      realm = URI.create(c.realm());
    } catch (IllegalArgumentException e) {
      throw a.fail(RegistryException.Kind.PROTOCOL, 401, "bad token realm in its challenge");
    }
    a.realmHost = realm.getHost();
    return "Bearer " + token(a, c, realm, withCredentials);
  }

  /**
   * enroot sends credentials only for a user: the image's, or the login of the netrc's machine line
   * of the registry's host.
   */
  private static boolean credentialsAllowed(Attempt a) {
    if (!a.netrc.names(a.image.host())) {
      return false;
    }
    return a.image.user() == null
        || a.image.user().equals(a.netrc.machine(a.image.host()).get().login());
  }

  private String token(Attempt a, Challenge c, URI realm, boolean withCredentials)
      throws RegistryException {
    StringBuilder q = new StringBuilder();
    c.params()
        .forEach(
            (k, v) -> {
              if (!k.equals("realm")) {
                q.append(q.length() == 0 ? "" : "&")
                    .append(URLEncoder.encode(k, StandardCharsets.UTF_8))
                    .append('=')
                    .append(URLEncoder.encode(v, StandardCharsets.UTF_8));
              }
            });
    String base = realm.toString();
    URI url = URI.create(q.length() == 0 ? base : base + (base.contains("?") ? "&" : "?") + q);
    Answer t = getToken(a, url, withCredentials);
    if (t.status() != 200) {
      throw a.fail(
          t.status() == 401
              ? RegistryException.Kind.UNAUTHORIZED
              : t.status() == 403
                  ? RegistryException.Kind.FORBIDDEN
                  : RegistryException.Kind.PROTOCOL,
          t.status(),
          "token service "
              + realm.getHost()
              + " answered "
              + RegistryText.statusLine(t.status())
              + (a.sent
                  ? " (with the credentials for "
                      + realm.getHost()
                      + " in "
                      + settings.credentialsFile()
                      + ")"
                  : credentialsNote(a)));
    }
    try {
      JsonNode n = JSON.readTree(t.body());
      JsonNode tok = n.path("token").isTextual() ? n.path("token") : n.path("access_token");
      if (tok.isTextual() && !tok.asText().isEmpty()) {
        return tok.asText();
      }
    } catch (IOException e) {
      // reported below
    }
    throw a.fail(
        RegistryException.Kind.PROTOCOL, 200, "token service " + realm.getHost() + ": no token");
  }

  /** The token request, redirects followed with each host's own netrc credentials, as curl's. */
  private Answer getToken(Attempt a, URI url, boolean withCredentials) throws RegistryException {
    URI at = url;
    for (int hop = 0; ; hop++) {
      Optional<Netrc.Credentials> cr =
          withCredentials ? a.netrc.machine(at.getHost()) : Optional.empty();
      String auth = null;
      if (cr.isPresent() && cr.get().usable()) {
        auth = basic(cr.get());
        a.sent = true;
      }
      Answer r = send(a, at, auth, "application/json");
      URI next = redirect(a, at, r, hop);
      if (next == null) {
        return r;
      }
      at = next;
    }
  }

  /** A manifest request; redirects followed, the authorization kept for the registry alone. */
  private Answer get(Attempt a, URI url, String auth) throws RegistryException {
    URI at = url;
    for (int hop = 0; ; hop++) {
      boolean sameRegistry = at.getRawAuthority().equals(url.getRawAuthority());
      Answer r = send(a, at, sameRegistry ? auth : null, ACCEPT);
      URI next = redirect(a, at, r, hop);
      if (next == null) {
        return r;
      }
      at = next;
    }
  }

  /** Where a redirect leads, or null when the answer is not one. */
  private URI redirect(Attempt a, URI from, Answer r, int hop) throws RegistryException {
    int s = r.status();
    String location = r.header("Location");
    if (!(s == 301 || s == 302 || s == 303 || s == 307 || s == 308) || location == null) {
      return null;
    }
    if (hop >= MAX_REDIRECTS) {
      throw a.fail(RegistryException.Kind.PROTOCOL, s, "more than " + MAX_REDIRECTS + " redirects");
    }
    URI next;
    try {
      next = from.resolve(location);
    } catch (IllegalArgumentException e) {
      throw a.fail(RegistryException.Kind.PROTOCOL, s, "a redirect to a bad address");
    }
    checkScheme(a, next);
    return next;
  }

  /** HTTPS only, or HTTP and HTTPS with ENROOT_ALLOW_HTTP, as enroot's curl {@code --proto}. */
  private void checkScheme(Attempt a, URI url) throws RegistryException {
    String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("https") || scheme.equals("http") && settings.allowHttp())) {
      throw a.fail(
          RegistryException.Kind.PROTOCOL,
          0,
          "refusing "
              + scheme
              + "://"
              + url.getHost()
              + (scheme.equals("http") ? " (plain HTTP needs ENROOT_ALLOW_HTTP)" : ""));
    }
  }

  private Answer send(Attempt a, URI url, String auth, String accept) throws RegistryException {
    checkScheme(a, url);
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Accept", accept);
    if (auth != null) {
      headers.put("Authorization", auth);
    }
    try {
      Transport.Response r =
          http.get(
              url,
              headers,
              min(RegistrySettings.CONNECT_TIMEOUT, settings.timeout()),
              settings.timeout(),
              MAX_BODY);
      return new Answer(r.status(), r, r.body());
    } catch (IOException | IllegalArgumentException e) {
      throw a.fail(RegistryException.Kind.UNREACHABLE, 0, unreachable(url, e));
    }
  }

  /** Why the registry at {@code url} gave no answer, for people. */
  private String unreachable(URI url, Exception e) {
    String at = url.getAuthority();
    boolean timedOut = e instanceof SocketTimeoutException;
    if (timedOut && String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT).contains("connect")) {
      return "no connection to "
          + at
          + " within "
          + RegistryText.seconds(min(RegistrySettings.CONNECT_TIMEOUT, settings.timeout()));
    }
    if (timedOut) {
      return "no answer from " + at + " within " + RegistryText.seconds(settings.timeout());
    }
    if (e instanceof SSLException) {
      return "TLS with " + at + " failed: " + RegistryText.oneLine(Transport.reason(e));
    }
    if (e instanceof UnknownHostException) {
      return "cannot connect to " + at + ": unknown host";
    }
    if (e instanceof ConnectException c) {
      return "cannot connect to " + at + ": " + RegistryText.connectReason(c);
    }
    return at + ": " + RegistryText.oneLine(Transport.reason(e));
  }

  private RegistryException refusal(Attempt a, int status) {
    RegistryException.Kind kind =
        switch (status) {
          case 401 -> RegistryException.Kind.UNAUTHORIZED;
          case 403 -> RegistryException.Kind.FORBIDDEN;
          case 404 -> RegistryException.Kind.NOT_FOUND;
          default -> RegistryException.Kind.PROTOCOL;
        };
    String note = status == 401 || status == 403 ? credentialsNote(a) : "";
    return a.fail(kind, status, RegistryText.statusLine(status) + note);
  }

  /** Whether credentials were sent, missing, or unusable here, for a 401 or 403. */
  private String credentialsNote(Attempt a) {
    Path file = settings.credentialsFile();
    String host = a.image.host();
    if (a.sent) {
      return " (with the credentials for " + host + " in " + file + ")";
    }
    Optional<Netrc.Credentials> cr = a.netrc.machine(host);
    if (a.netrc.names(host) && cr.isPresent() && !cr.get().usable()) {
      return " (the password for "
          + host
          + " in "
          + file
          + " is a command or an unset variable enroot expands; clusterrun does not)";
    }
    if (a.netrc.names(host) && a.image.user() != null) {
      return " (no credentials for " + a.image.user() + "@" + host + " in " + file + ")";
    }
    return " (no credentials for " + host + " in " + file + ")";
  }

  private static String basic(Netrc.Credentials c) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((c.login() + ":" + c.password()).getBytes(StandardCharsets.UTF_8));
  }

  private static String sha256(byte[] body) {
    try {
      return "sha256:"
          + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
