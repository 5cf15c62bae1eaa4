package dev.clusterrun.core.remote;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * Decides whether a hostfile name is this machine (the head node, which runs commands locally
 * instead of over SSH): the name is {@code localhost}, this machine's host name or FQDN, or
 * resolves to an address of one of this machine's network interfaces (loopback included).
 */
public final class HeadDetector {
  private final Set<String> names;
  private final Set<InetAddress> addresses;
  private final Function<String, InetAddress[]> resolver;

  /**
   * @param names this machine's names (lower case compared)
   * @param addresses this machine's interface addresses
   * @param resolver name resolution, e.g. {@code InetAddress::getAllByName}; returns an empty array
   *     for a name that does not resolve
   */
  public HeadDetector(
      Set<String> names, Set<InetAddress> addresses, Function<String, InetAddress[]> resolver) {
    Set<String> n = new HashSet<>();
    for (String s : names) {
      n.add(s.toLowerCase(Locale.ROOT));
    }
    n.add("localhost");
    this.names = Set.copyOf(n);
    this.addresses = Set.copyOf(addresses);
    this.resolver = resolver;
  }

  /** This machine, as the operating system describes it. */
  public static HeadDetector forThisMachine() {
    Set<String> names = new HashSet<>();
    try {
      names.add(Files.readString(Path.of("/proc/sys/kernel/hostname")).strip());
    } catch (IOException e) {
      // not Linux: the JDK below still knows
    }
    try {
      InetAddress local = InetAddress.getLocalHost();
      names.add(local.getHostName());
      names.add(local.getCanonicalHostName());
    } catch (UnknownHostException e) {
      // no name for ourselves: interface addresses still decide
    }
    Set<InetAddress> addrs = new HashSet<>();
    try {
      for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
        addrs.addAll(Collections.list(ni.getInetAddresses()));
      }
    } catch (SocketException e) {
      // no interfaces listed: names still decide
    }
    return new HeadDetector(names, addrs, HeadDetector::resolve);
  }

  private static InetAddress[] resolve(String name) {
    try {
      return InetAddress.getAllByName(name);
    } catch (UnknownHostException e) {
      return new InetAddress[0];
    }
  }

  /** True when {@code hostfileName} names this machine. */
  public boolean isHead(String hostfileName) {
    String n = hostfileName.toLowerCase(Locale.ROOT);
    if (names.contains(n)) {
      return true;
    }
    // Strip a trailing dot of an absolute FQDN, and compare short names both ways.
    if (n.endsWith(".") && names.contains(n.substring(0, n.length() - 1))) {
      return true;
    }
    for (InetAddress a : resolver.apply(hostfileName)) {
      if (a.isLoopbackAddress() || addresses.contains(a)) {
        return true;
      }
    }
    return false;
  }
}
