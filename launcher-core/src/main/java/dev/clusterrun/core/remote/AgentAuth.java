package dev.clusterrun.core.remote;

import java.io.IOException;
import net.schmizz.sshj.common.Buffer;
import net.schmizz.sshj.common.Message;
import net.schmizz.sshj.common.SSHPacket;
import net.schmizz.sshj.transport.TransportException;
import net.schmizz.sshj.userauth.UserAuthException;
import net.schmizz.sshj.userauth.method.AbstractAuthMethod;

/**
 * The SSH {@code publickey} method with a key held by ssh-agent: sshj asks the server whether the
 * key is acceptable, then the agent signs the request (RFC 4252 section 7).
 */
final class AgentAuth extends AbstractAuthMethod {
  private final SshAgent agent;
  private final SshAgent.Identity identity;
  private final String algorithm;
  private final int flags;

  AgentAuth(SshAgent agent, SshAgent.Identity identity) {
    super("publickey");
    this.agent = agent;
    this.identity = identity;
    String type = identity.keyType();
    // RSA keys sign with SHA-2 (ssh-rsa SHA-1 signatures are refused by current servers).
    if (type.equals("ssh-rsa")) {
      algorithm = "rsa-sha2-512";
      flags = SshAgent.RSA_SHA2_512;
    } else if (type.equals("ssh-rsa-cert-v01@openssh.com")) {
      algorithm = "rsa-sha2-512-cert-v01@openssh.com";
      flags = SshAgent.RSA_SHA2_512;
    } else {
      algorithm = type;
      flags = 0;
    }
  }

  @Override
  protected SSHPacket buildReq() throws UserAuthException {
    return buildReq(false);
  }

  private SSHPacket buildReq(boolean signed) throws UserAuthException {
    SSHPacket p = super.buildReq();
    p.putBoolean(signed).putString(algorithm).putString(identity.blob());
    return p;
  }

  @Override
  public void handle(Message cmd, SSHPacket buf) throws UserAuthException, TransportException {
    if (cmd != Message.USERAUTH_60) {
      super.handle(cmd, buf);
      return;
    }
    SSHPacket req = buildReq(true);
    byte[] toSign =
        new Buffer.PlainBuffer()
            .putString(params.getTransport().getSessionID())
            .putBuffer(req)
            .getCompactData();
    byte[] sig;
    try {
      sig = agent.sign(identity.blob(), toSign, flags);
    } catch (IOException e) {
      throw new UserAuthException("ssh-agent key " + identity.comment() + ": " + e.getMessage(), e);
    }
    req.putString(sig);
    params.getTransport().write(req);
  }

  @Override
  public String toString() {
    return "ssh-agent key " + identity.keyType() + " " + identity.comment();
  }
}
