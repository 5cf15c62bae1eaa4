package dev.clusterrun.core.image;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What to add to enroot's credentials file when a registry asks for credentials it has not. enroot
 * sends credentials only when the file has a {@code machine} line for the registry's host (that
 * line names the user), and curl then takes the token service's own machine line ({@code
 * authn.nvidia.com} for {@code nvcr.io}, as enroot's {@code doc/cmd/import.md} shows): both are
 * needed.
 */
public final class CredentialsAdvice {
  /** NGC's token service: {@code nvcr.io}'s realm sends the token request on to it. */
  static final String NGC_AUTHN = "authn.nvidia.com";

  private CredentialsAdvice() {}

  /**
   * The netrc lines missing for the registry and its token service.
   *
   * @param registry {@code host[:port]}
   * @param realmHost the host of the Bearer challenge's realm, or null (Basic)
   * @return {@code machine HOST login LOGIN password …} lines, none when both hosts are there
   */
  public static List<String> missingMachines(String registry, String realmHost, Netrc netrc) {
    String host = RegistryImage.hostOf(registry);
    String login = login(host);
    List<String> out = new ArrayList<>();
    if (!netrc.names(host)) {
      out.add(line(host, login));
    }
    List<String> services = new ArrayList<>();
    if (realmHost != null) {
      services.add(realmHost);
    }
    if (host.equals("nvcr.io")) {
      services.add(NGC_AUTHN);
    }
    for (String s : services) {
      String line = line(s, login);
      if (!s.equals(host) && netrc.machine(s).isEmpty() && !out.contains(line)) {
        out.add(line);
      }
    }
    return out;
  }

  /**
   * The advice for people: where to write the lines, and which.
   *
   * @param file enroot's credentials file
   */
  public static String advice(Path file, List<String> machines) {
    if (machines.isEmpty()) {
      return "";
    }
    StringBuilder b =
        new StringBuilder("add to ")
            .append(file)
            .append(" (mode 600; enroot reads it as a netrc file):\n");
    for (String m : machines) {
      b.append("  ").append(m).append('\n');
    }
    return b.toString();
  }

  private static String line(String host, String login) {
    return "machine " + host + " login " + login + " password <" + password(host) + ">";
  }

  /** The login a registry documents ({@code $oauthtoken} for NGC), else a placeholder. */
  private static String login(String host) {
    return host.equals("nvcr.io") ? "$oauthtoken" : "<login>";
  }

  private static String password(String host) {
    return host.equals("nvcr.io") || host.equals(NGC_AUTHN) ? "NGC API key" : "password";
  }
}
