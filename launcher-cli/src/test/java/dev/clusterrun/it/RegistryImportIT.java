package dev.clusterrun.it;

import static dev.clusterrun.it.LocalCluster.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.it.LocalCluster.Result;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code enroot import docker://REGISTRY#IMAGE} against the local cluster's real registries
 * (Docker's distribution 2.8 over plain HTTP, an open one and one with basic auth): what enroot
 * 4.1.2's src/docker.sh does with a registry, which the stand-in follows (its header, "import"),
 * and which a real enroot must pass too ({@code CLUSTERRUN_IT_REAL_ENROOT=1}). Above all, a tag is
 * a name that moves: a tag pushed again is imported again with its new content, and an
 * {@code @sha256:} reference gives exactly one version.
 */
class RegistryImportIT {
  @RegisterExtension static LocalClusterExtension CLUSTER = new LocalClusterExtension(1);

  static LocalCluster c;

  static final String HTTP = "ENROOT_ALLOW_HTTP=yes";

  @BeforeAll
  static void enrootPaths() {
    c = CLUSTER.cluster();
    Runs.enrootPaths(
        c,
        "registry",
        CLUSTER.shared() + "/registry-data",
        CLUSTER.shared() + "/registry-cache",
        false);
  }

  // ---------------------------------------------------------------------------------------------
  // helpers

  static String unique(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  /** {@code env ENV... enroot import -o OUT URI} on node1 as the job user. */
  static Result importImage(String out, String uri, String... env) {
    List<String> w = new ArrayList<>(List.of("env"));
    w.addAll(List.of(env));
    w.addAll(List.of("enroot", "import", "-o", out, uri));
    return c.exec("node1", false, null, LocalCluster.DEFAULT_TIMEOUT, w);
  }

  /** An output path in the shared directory that does not exist yet. */
  static String output() {
    return CLUSTER.shared() + "/" + unique("registry-import") + ".sqsh";
  }

  /** A file of an imported image, read with unsquashfs (empty when it is not there). */
  static String fileIn(String sqsh, String path) {
    return c.exec("node1", "unsquashfs", "-cat", sqsh, path).stdout();
  }

  /** Imports {@code uri} from the open registry over HTTP and returns the image's path. */
  static String imported(String uri) {
    String out = output();
    ok(importImage(out, uri, HTTP));
    return out;
  }

  // ---------------------------------------------------------------------------------------------

  @Test
  void theTinyImageComesFromTheOpenRegistryInBothSpellings() {
    String out = output();
    Result r = ok(importImage(out, "docker://" + c.registry() + "#clusterrun/tiny", HTTP));
    assertThat(r.stderr())
        .contains("[INFO] Querying registry for permission grant")
        .contains("[INFO] Permission granted")
        .contains("[INFO] Fetching image manifest list")
        .contains("[INFO] Fetching image manifest")
        .contains("[INFO] Creating squashfs filesystem...");
    // docker::configure: the config's Env becomes /etc/environment; enroot's /etc/rc.
    assertThat(fileIn(out, "etc/environment")).contains("CLUSTERRUN_IMAGE=clusterrun/tiny:latest");
    assertThat(fileIn(out, "opt/tiny/README")).contains("clusterrun local-cluster tiny image");
    assertThat(fileIn(out, "etc/rc")).contains(" \"$@\"").contains(" '/bin/sh'");

    // REGISTRY/IMAGE (a first part with ':' or '.' names a registry) is the same image.
    String out2 = imported("docker://" + c.registry() + "/clusterrun/tiny:latest");
    assertThat(fileIn(out2, "opt/tiny/README")).contains("clusterrun local-cluster tiny image");
  }

  @Test
  void aTagPushedAgainIsImportedAgainWithItsNewContent() {
    String repoTag = unique("clusterrun/moving") + ":main";
    String uri = "docker://" + c.registry() + "#" + repoTag;
    c.push(repoTag, "--add", "/opt/tiny/VERSION=1");
    String first = imported(uri);
    assertThat(fileIn(first, "opt/tiny/VERSION")).isEqualTo("1\n");

    // (The tag in the layer keeps its digest apart from any other test's.)
    c.push(
        repoTag,
        "--add",
        "/opt/tiny/VERSION=2",
        "--add",
        "/opt/tiny/TAG=" + repoTag,
        "--remove",
        "/opt/tiny/README");
    String second = output();
    Result r = ok(importImage(second, uri, HTTP));
    assertThat(fileIn(second, "opt/tiny/VERSION")).isEqualTo("2\n");
    // A whiteout of the new version removes what the layer below had.
    assertThat(fileIn(second, "opt/tiny/README")).isEmpty();
    // Layers are cached by digest: the base layer was there, the two new ones were not.
    assertThat(r.stderr()).contains("[INFO] Downloading 2 missing layers...");
  }

  @Test
  void aDigestReferenceImportsExactlyThatVersion() {
    String repo = unique("clusterrun/pinned");
    String first = c.push(repo + ":v", "--add", "/opt/tiny/VERSION=1");
    c.push(repo + ":v", "--add", "/opt/tiny/VERSION=2");
    String base = "docker://" + c.registry() + "#" + repo;

    assertThat(fileIn(imported(base + "@" + first), "opt/tiny/VERSION")).isEqualTo("1\n");
    // With both, the digest wins over the tag (docker::_parse_uri).
    assertThat(fileIn(imported(base + ":v@" + first), "opt/tiny/VERSION")).isEqualTo("1\n");
    assertThat(fileIn(imported(base + ":v"), "opt/tiny/VERSION")).isEqualTo("2\n");
    // Everything of that digest is in the cache now.
    Result again = ok(importImage(output(), base + "@" + first, HTTP));
    assertThat(again.stderr()).contains("[INFO] Found all layers in cache");
  }

  @Test
  void aManifestListGivesThisPlatformsImageOrTheOneArchAsks() {
    String repoTag = unique("clusterrun/multi") + ":1";
    c.push(repoTag, "--arch", "amd64,arm64");
    String uri = "docker://" + c.registry() + "#" + repoTag;
    String arch = c.exec("node1", "uname", "-m").out();
    String expected = arch.equals("aarch64") ? "arm64" : "amd64";
    assertThat(fileIn(imported(uri), "etc/clusterrun-arch")).isEqualTo(expected + "\n");
    // --arch takes uname's names (common::debarch).
    String out = output();
    Result arm = importArch(out, "aarch64", uri);
    assertThat(arm.exitCode()).as("%s", arm).isZero();
    assertThat(fileIn(out, "etc/clusterrun-arch")).isEqualTo("arm64\n");
  }

  static Result importArch(String out, String arch, String uri) {
    return c.exec(
        "node1",
        false,
        null,
        LocalCluster.DEFAULT_TIMEOUT,
        List.of("env", HTTP, "enroot", "import", "-a", arch, "-o", out, uri));
  }

  @Test
  void theOpenRegistryWithoutAllowHttpIsRefusedAsEnrootRefusesIt() {
    String out = output();
    // The cluster's site drop-in allows HTTP; the environment's "no" unsets it, as enroot reads it.
    Result r =
        importImage(out, "docker://" + c.registry() + "#clusterrun/tiny", "ENROOT_ALLOW_HTTP=no");
    // Only https is allowed: curl's TLS handshake with a plain HTTP server fails.
    assertThat(r.exitCode()).as("%s", r).isNotZero();
    assertThat(r.stderr())
        .contains("[INFO] Querying registry for permission grant")
        .contains("curl: (35)")
        .doesNotContain("Permission granted");
    assertThat(c.exec("node1", "test", "-e", out).exitCode()).isNotZero();
  }

  @Test
  void thePrivateRegistryNeedsCredentialsFromTheCredentialsFile() {
    String config = "/tmp/" + unique("enroot-config");
    String uri = "docker://" + c.privateRegistry() + "#clusterrun/tiny";
    String configPath = "ENROOT_CONFIG_PATH=" + config;

    // Anonymous: the registry's basic-auth challenge is answered without credentials. enroot's
    // check of basic credentials keeps curl's messages to itself, so it ends without an error line.
    String out = output();
    Result anonymous = importImage(out, uri, HTTP, configPath);
    assertThat(anonymous.exitCode()).as("%s", anonymous).isEqualTo(1);
    assertThat(anonymous.stderr())
        .contains("[INFO] Authenticating with user: <anonymous>")
        .doesNotContain("Fetching image manifest")
        .doesNotContain("Authentication succeeded");
    assertThat(c.exec("node1", "test", "-e", out).exitCode()).isNotZero();

    // A netrc line for the registry's host (without the port) names the user and its password.
    String user = c.privateRegistryUser();
    ok(
        c.exec(
            "node1",
            false,
            "machine "
                + c.privateRegistry().replaceFirst(":.*", "")
                + " login "
                + user
                + " password "
                + c.privateRegistryPassword()
                + "\n",
            LocalCluster.DEFAULT_TIMEOUT,
            List.of(
                "sh",
                "-c",
                "mkdir -p " + config + " && umask 077 && cat > " + config + "/.credentials")));
    Result r = ok(importImage(out, uri, HTTP, configPath));
    assertThat(r.stderr())
        .contains("[INFO] Authenticating with user: " + user)
        .contains("[INFO] Using credentials from file: " + config + "/.credentials")
        .contains("[INFO] Authentication succeeded")
        .doesNotContain(c.privateRegistryPassword());
    assertThat(fileIn(out, "opt/tiny/README")).contains("clusterrun local-cluster tiny image");

    // A version pushed to the private registry comes with the same credentials.
    String repoTag = unique("clusterrun/private") + ":1";
    c.push(repoTag, "--private", "--add", "/opt/tiny/SECRET=private");
    String out2 = output();
    ok(importImage(out2, "docker://" + c.privateRegistry() + "#" + repoTag, HTTP, configPath));
    assertThat(fileIn(out2, "opt/tiny/SECRET")).isEqualTo("private\n");
    c.exec("node1", "rm", "-rf", config);
  }

  @Test
  void anOciManifestIsNotFoundByEnrootsFirstRequestToDistribution() {
    // enroot 4.1.2 asks for permission with a HEAD of the manifest without an Accept header;
    // Docker's distribution 2.8 answers 404 for an OCI manifest to a client that does not accept
    // OCI. `docker push` makes Docker v2 schema 2 manifests; an OCI one is what other tools push.
    String repoTag = unique("clusterrun/oci") + ":1";
    c.push(repoTag, "--oci");
    String uri = "docker://" + c.registry() + "#" + repoTag;
    Result r = importImage(output(), uri, HTTP);
    assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
    assertThat(r.stderr())
        .contains(
            "[ERROR] URL http://"
                + c.registry()
                + "/v2/"
                + repoTag.replace(":", "/manifests/")
                + " returned error code: 404 Not Found");
  }
}
