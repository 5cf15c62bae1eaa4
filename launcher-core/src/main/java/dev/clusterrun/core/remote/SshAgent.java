package dev.clusterrun.core.remote;

import java.io.Closeable;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.schmizz.sshj.common.Buffer;

/**
 * A client for the OpenSSH agent protocol (draft-miller-ssh-agent) over the agent's UNIX domain
 * socket: list identities and ask for signatures. The private keys never leave the agent. One
 * instance per SSH connection attempt; not thread-safe.
 */
public final class SshAgent implements Closeable {
  private static final byte FAILURE = 5;
  private static final byte REQUEST_IDENTITIES = 11;
  private static final byte IDENTITIES_ANSWER = 12;
  private static final byte SIGN_REQUEST = 13;
  private static final byte SIGN_RESPONSE = 14;
  private static final int MAX_MESSAGE = 256 * 1024;

  /** The flag for RSA keys: sign with SHA-2 (512) instead of SHA-1. */
  public static final int RSA_SHA2_512 = 4;

  /** One key the agent holds. {@code blob} is the SSH wire encoding of the public key. */
  public record Identity(byte[] blob, String comment) {
    /** The key type from the blob, e.g. {@code ssh-ed25519}. */
    public String keyType() {
      try {
        return new Buffer.PlainBuffer(blob).readString();
      } catch (Buffer.BufferException e) {
        return "unknown";
      }
    }
  }

  private final SocketChannel channel;

  private SshAgent(SocketChannel channel) {
    this.channel = channel;
  }

  /** Connects to the agent listening on {@code socket}. */
  public static SshAgent connect(Path socket) throws IOException {
    SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
    try {
      ch.connect(UnixDomainSocketAddress.of(socket));
    } catch (IOException e) {
      ch.close();
      throw new IOException("cannot reach ssh-agent at " + socket + ": " + e.getMessage(), e);
    }
    return new SshAgent(ch);
  }

  /** The keys the agent offers, in its order. */
  public List<Identity> identities() throws IOException {
    Buffer.PlainBuffer reply = request(new byte[] {REQUEST_IDENTITIES});
    try {
      byte type = reply.readByte();
      if (type != IDENTITIES_ANSWER) {
        throw new IOException("ssh-agent refused to list keys (reply " + type + ")");
      }
      long n = reply.readUInt32();
      List<Identity> out = new ArrayList<>();
      for (long i = 0; i < n; i++) {
        byte[] blob = reply.readBytes();
        String comment = reply.readString(StandardCharsets.UTF_8);
        out.add(new Identity(blob, comment));
      }
      return out;
    } catch (Buffer.BufferException e) {
      throw new IOException("malformed answer from ssh-agent: " + e.getMessage(), e);
    }
  }

  /**
   * Asks the agent to sign {@code data} with the key {@code blob}.
   *
   * @return the SSH signature encoding: string algorithm, string signature
   */
  public byte[] sign(byte[] blob, byte[] data, int flags) throws IOException {
    Buffer.PlainBuffer req = new Buffer.PlainBuffer();
    req.putByte(SIGN_REQUEST).putString(blob).putString(data).putUInt32(flags);
    Buffer.PlainBuffer reply = request(req.getCompactData());
    try {
      byte type = reply.readByte();
      if (type == FAILURE) {
        throw new IOException(
            "ssh-agent refused to sign (key locked, confirmation denied or not found)");
      }
      if (type != SIGN_RESPONSE) {
        throw new IOException("unexpected reply " + type + " from ssh-agent");
      }
      return reply.readBytes();
    } catch (Buffer.BufferException e) {
      throw new IOException("malformed signature from ssh-agent: " + e.getMessage(), e);
    }
  }

  private Buffer.PlainBuffer request(byte[] body) throws IOException {
    ByteBuffer out = ByteBuffer.allocate(4 + body.length);
    out.putInt(body.length).put(body).flip();
    while (out.hasRemaining()) {
      channel.write(out);
    }
    ByteBuffer len = ByteBuffer.allocate(4);
    readFully(len);
    int n = len.flip().getInt();
    if (n <= 0 || n > MAX_MESSAGE) {
      throw new IOException("bad message length " + n + " from ssh-agent");
    }
    ByteBuffer msg = ByteBuffer.allocate(n);
    readFully(msg);
    return new Buffer.PlainBuffer(msg.array());
  }

  private void readFully(ByteBuffer b) throws IOException {
    while (b.hasRemaining()) {
      if (channel.read(b) < 0) {
        throw new IOException("ssh-agent closed the connection");
      }
    }
  }

  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException e) {
      // nothing to do
    }
  }
}
