package dev.clusterrun.core.check;

import dev.clusterrun.core.cluster.Host;
import dev.clusterrun.core.enroot.LaunchAgentHook;
import dev.clusterrun.core.image.ImagePin;
import dev.clusterrun.core.image.RegistrySettings;
import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.NodeShell;
import dev.clusterrun.core.remote.SshLogins;
import dev.clusterrun.core.remote.SshMasters;
import dev.clusterrun.core.session.FanOut;
import dev.clusterrun.core.session.Progress;
import dev.clusterrun.core.session.Session;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The flow of {@code clusterrun check}, and of the checks {@code run} makes first: the fact script
 * on every node in parallel (one round trip each), then the shared-path proof and the head's SSH
 * probe (side by side), then the registered checks ({@link CheckId}). Every remote call has its own
 * timeout, so a slow node never hides the others; a node that fails is a result, not an exception.
 *
 * @param expected what {@code clusterrun setup} installs
 * @param factTimeout per node, for the fact script
 * @param probeTimeout per call, for the proof steps and the head's SSH probe
 * @param enrootVersions the nodes' enroot versions remembered ({@link #remembering}), or null
 * @param diagnosis the flow of {@code clusterrun check}: the session lets go of the nodes once the
 *     rounds are done (nothing else asks them), and the nodes also give the host's {@code mpirun
 *     --version}
 */
public record CheckFlow(
    ExpectedSetup expected,
    Duration factTimeout,
    Duration probeTimeout,
    EnrootVersions enrootVersions,
    boolean diagnosis) {
  static final Duration FACT_TIMEOUT = Duration.ofSeconds(30);
  static final Duration PROBE_TIMEOUT = Duration.ofSeconds(30);

  /** A flow that remembers no enroot version and is not {@code check}'s diagnosis. */
  public CheckFlow(ExpectedSetup expected, Duration factTimeout, Duration probeTimeout) {
    this(expected, factTimeout, probeTimeout, null, false);
  }

  /**
   * This flow, taking the nodes' enroot versions from {@code versions} where their executable is
   * unchanged, and remembering the ones read afresh. Without it every node starts {@code enroot
   * version}.
   */
  public CheckFlow remembering(EnrootVersions versions) {
    return new CheckFlow(expected, factTimeout, probeTimeout, versions, diagnosis);
  }

  private CheckFlow asDiagnosis() {
    return new CheckFlow(expected, factTimeout, probeTimeout, enrootVersions, true);
  }

  /** The checks as {@code check} and {@code run} make them: this clusterrun's hook and drop-in. */
  public static CheckFlow standard() {
    ExpectedSetup std = ExpectedSetup.standard(LaunchAgentHook.VERSION);
    return new CheckFlow(
        new ExpectedSetup(
            std.sysconfDir(),
            std.hookFileName(),
            std.hookVersion(),
            LaunchAgentHook.sha256(),
            std.dropInFileName(),
            null),
        FACT_TIMEOUT,
        PROBE_TIMEOUT);
  }

  /**
   * {@code clusterrun check}: opens the session, checks, and closes it; the head lets go of the
   * nodes as soon as the last round is done, while the checks are judged and {@code show} shows the
   * outcome.
   */
  public static CheckOutcome run(CheckRequest rq, Progress progress, Consumer<CheckOutcome> show)
      throws InterruptedException {
    CheckFlow flow = standard().asDiagnosis();
    if (rq.workspace() != null) {
      // enroot's version is read once per executable, as a run reads it (EnrootVersions).
      flow = flow.remembering(EnrootVersions.in(rq.workspace().toString()));
    }
    SshMasters masters = SshMasters.forSettings(rq.ssh(), PROBE_TIMEOUT);
    Opening opening = flow.opening(rq.job(), rq.selection(), null);
    if (masters != null) {
      opening.give(masters);
    }
    try (Session session = Session.open(rq.hostfile(), rq.ssh(), progress, masters)) {
      CheckOutcome o =
          new CheckOutcome(
              flow.check(session, rq.job(), rq.selection(), null, false, opening).report());
      show.accept(o);
      return o;
    }
  }

  /**
   * The fact script for {@code job}: what the session's opening round runs ({@link Opening}), so
   * that the checks find the facts gathered already.
   */
  public String factScript(CheckJob job) {
    return FactScript.render(
        expected.sysconfDir(),
        job.containerNames(),
        enrootVersions == null ? null : enrootVersions.table(),
        diagnosis);
  }

  /**
   * The session's opening round, so that the checks need no other round on most nodes: the fact
   * script, and the first two rounds of the data path's proof and the workspace's ({@link
   * CarriedProof}). Over the head's OpenSSH masters ({@link #give}) it rides on their logins;
   * without them it is the checks' first round over clusterrun's own connections.
   */
  public record Opening(String factScript, CarriedProof proof) {
    /** What every node but the head runs. */
    public String nodeScript() {
      return proof == null ? factScript : factScript + proof.nodeTail();
    }

    /** What the head runs. */
    public String headScript() {
      return proof == null ? factScript : factScript + proof.headTail();
    }

    /** Gives the scripts to the head's logins. */
    public void give(SshMasters masters) {
      masters.first(nodeScript(), headScript());
    }
  }

  /** The opening for {@code job} and {@code selection}, proving {@code workspace} (or null). */
  public Opening opening(CheckJob job, CheckSelection selection, String workspace) {
    CarriedProof c = new CarriedProof(selection.includes(CheckId.DATA_PATH_SHARED), workspace);
    return new Opening(factScript(job), c.any() ? c : null);
  }

  /** The checks over an open session. */
  public CheckReport check(Session session, CheckJob job, CheckSelection selection)
      throws InterruptedException {
    return check(session, job, selection, null, false).report();
  }

  /**
   * The checks, and a job's workspace proven shared in the rounds of the data path's proof.
   *
   * @param workspace the verdict for the workspace (created by the head first; every node of the
   *     session), null when none was asked or the proof could not run
   * @param sshMasters the directory of the head's SSH master connections to the nodes, kept open
   *     until the session closes (null when none were kept)
   */
  public record Checked(CheckReport report, SharedPathProof.Verdict workspace, String sshMasters) {}

  /**
   * {@link #check}, proving {@code workspace} (when not null) shared in the same rounds.
   *
   * @param keepSshMasters keep the head's SSH probe logins open as master connections for mpirun
   *     ({@link SshMasters}); the session ends them when it closes
   */
  public Checked check(
      Session session,
      CheckJob job,
      CheckSelection selection,
      String workspace,
      boolean keepSshMasters)
      throws InterruptedException {
    return check(session, job, selection, workspace, keepSshMasters, null);
  }

  /**
   * {@link #check(Session, CheckJob, CheckSelection, String, boolean)} after the session's first
   * commands ran {@code opening} ({@link Opening#give}): what they gathered is used, not asked
   * again.
   */
  public Checked check(
      Session session,
      CheckJob job,
      CheckSelection selection,
      String workspace,
      boolean keepSshMasters,
      Opening opening)
      throws InterruptedException {
    try {
      Round r = new Round(session, job, selection, workspace, keepSshMasters, opening);
      return new Checked(r.run(), r.workspaceVerdict, r.sshMasters);
    } finally {
      session.progress().done("checks");
    }
  }

  /** One check round: its nodes, its facts, its proof and probe. */
  private final class Round {
    final Session session;
    final CheckJob job;
    final CheckSelection selection;
    final String workspace;
    final boolean keepSshMasters;
    final Opening opening;

    /** What each node printed in the session's first command (facts and proof), by node. */
    final Map<String, ExecResult> firstOut = new ConcurrentHashMap<>();

    final long start = System.nanoTime();
    final List<String> nodes = new ArrayList<>();
    SharedPathProof.Verdict workspaceVerdict;
    volatile String sshMasters;

    Round(
        Session session,
        CheckJob job,
        CheckSelection selection,
        String workspace,
        boolean keepSshMasters,
        Opening opening) {
      this.session = session;
      this.job = job;
      this.selection = selection;
      this.workspace = workspace;
      this.keepSshMasters = keepSshMasters;
      this.opening = opening;
      if (!session.hostfile().names().contains(session.head())) {
        nodes.add(session.head());
      }
      nodes.addAll(session.hostfile().names());
    }

    CheckReport run() throws InterruptedException {
      String head = session.head();
      // 0. The head's SSH probe needs neither facts nor proof: it runs beside them from the start
      // (one command on the head that itself fans out).
      List<String> sshTargets = nodes.stream().filter(n -> !n.equals(head)).toList();
      FanOut.Task<Timed<Map<String, NodeToNodeSsh.Answer>>> sshProbe = null;
      Timed<Map<String, NodeToNodeSsh.Answer>> probedAtOpen = null;
      SshLogins.Result opened = session.reach().logins();
      if (opened != null) {
        // The session's connections are the probe's own logins: their outcomes are the verdict.
        Map<String, NodeToNodeSsh.Answer> a = NodeToNodeSsh.answers(opened.logins());
        a.keySet().retainAll(sshTargets);
        probedAtOpen = new Timed<>(a, session.reach().took());
        sshMasters = opened.masters();
      } else if (selection.includes(CheckId.SSH_FROM_HEAD)
          && session.shells().containsKey(head)
          && !session.unreachable().containsKey(head)) {
        sshProbe = session.fanOut().beside(() -> Timed.of(() -> probe(sshTargets)));
      }

      // 1. Facts, one round trip per node.
      Map<String, Facts> facts = facts();
      Duration factsTime = Timed.since(start);
      if (enrootVersions != null) {
        enrootVersions.learn(facts.values());
      }

      // 2. The shared-path proof needs every node's data path from the facts.
      Facts headFacts = facts.get(head);
      boolean headOk =
          headFacts != null && headFacts.answered() && session.shells().containsKey(head);
      // The job's registry image: one request from the head, beside the proof.
      FanOut.Task<ImagePin.Outcome> image = null;
      if (job.image() != null && selection.includes(CheckId.IMAGE) && headOk) {
        RegistrySettings rs = ImagePin.settings(RegistryFacts.enrootValues(headFacts));
        image = session.fanOut().beside(() -> job.image().resolve(rs));
      }
      Timed<SharedPathProof.Verdict> proof = Timed.none();
      boolean proveDataPath =
          headOk && nodes.size() > 1 && selection.includes(CheckId.DATA_PATH_SHARED);
      if (carried()) {
        // The head wrote the probes with its facts, most nodes read them with theirs.
        proof = finishCarried(facts, proveDataPath);
      } else if (proveDataPath || (workspace != null && session.shells().containsKey(head))) {
        proof = prove(facts, proveDataPath);
      }
      Timed<Map<String, NodeToNodeSsh.Answer>> ssh = Timed.none();
      if (probedAtOpen != null && selection.includes(CheckId.SSH_FROM_HEAD)) {
        ssh = probedAtOpen;
      } else if (sshProbe != null) {
        // Said even when the probe is done already: progress keeps one phase order.
        session.progress().phase("ssh-from-head", sshTargets);
        ssh = sshProbe.join();
      }
      // As before the probe ran early: without the head's own facts there is no SSH verdict.
      Map<String, NodeToNodeSsh.Answer> sshAnswers = headOk ? ssh.value() : null;
      if (diagnosis) {
        // No node is asked anything more.
        session.release();
      }

      // 3. The checks themselves are pure.
      Map<String, Host> hosts = new LinkedHashMap<>();
      for (Host h : session.hostfile().hosts()) {
        hosts.put(h.name(), h);
      }
      CheckInput in =
          new CheckInput(
              nodes,
              head,
              facts,
              hosts,
              proof.value(),
              sshAnswers,
              job,
              expected,
              image == null ? null : image.join());
      List<CheckResult> results = Checks.evaluate(in, selection);
      List<CheckId> checks = Arrays.stream(CheckId.values()).filter(selection::includes).toList();
      return new CheckReport(
          nodes,
          head,
          checks,
          results,
          facts,
          new CheckReport.Timings(Timed.since(start), factsTime, proof.took(), ssh.took()),
          proof.value() == null ? null : proof.value().cleanupProblem());
    }

    /** The head's SSH probe; masters it keeps are ended when the session closes. */
    Map<String, NodeToNodeSsh.Answer> probe(List<String> targets) {
      SshLogins.Result p =
          SshLogins.run(
              session.headShell(),
              targets,
              probeTimeout,
              keepSshMasters ? SshLogins.Ask.kept(null) : SshLogins.Ask.PLAIN);
      if (p.masters() != null) {
        NodeShell headShell = session.headShell();
        session.onClose(() -> SshMasters.closeMasters(headShell, p.masters(), probeTimeout));
        sshMasters = p.masters();
      }
      return NodeToNodeSsh.answers(p.logins());
    }

    /** Whether the proof's first rounds rode on the session's first commands. */
    boolean carried() {
      return opening != null
          && opening.proof() != null
          && Objects.equals(opening.proof().workspace(), workspace)
          && firstOut.containsKey(session.head());
    }

    Timed<SharedPathProof.Verdict> finishCarried(Map<String, Facts> facts, boolean dataPath)
        throws InterruptedException {
      Map<String, String> dataPaths = new LinkedHashMap<>();
      Map<String, String> hostnames = new LinkedHashMap<>();
      Map<String, ExecResult> nodeOuts = new LinkedHashMap<>();
      for (String n : nodes) {
        Facts f = facts.get(n);
        if (f.answered() && session.shells().containsKey(n)) {
          dataPaths.put(n, f.storage().dataPath());
          if (f.host().hostname() != null) {
            hostnames.put(n, f.host().hostname());
          }
          ExecResult o = firstOut.get(n);
          if (o != null && !n.equals(session.head())) {
            nodeOuts.put(n, o);
          }
        }
      }
      if (opening.proof().dataPath()) {
        session.progress().phase("data-path-shared", new ArrayList<>(dataPaths.keySet()));
      }
      long t = System.nanoTime();
      try {
        List<SharedPathProof.Verdict> v =
            opening
                .proof()
                .finish(
                    new SharedPathProof(session.fanOut(), probeTimeout),
                    session.head(),
                    session.shells(),
                    dataPaths,
                    hostnames,
                    firstOut.get(session.head()),
                    nodeOuts);
        workspaceVerdict = v.get(1);
        return new Timed<>(dataPath ? v.get(0) : null, Timed.since(t));
      } catch (RuntimeException e) {
        return new Timed<>(null, Timed.since(t));
      }
    }

    Map<String, Facts> facts() throws InterruptedException {
      String script = factScript(job);
      List<Facts> gathered =
          session.fanOut().map("facts", nodes, n -> gather(n, script), session.progress());
      Map<String, Facts> facts = new LinkedHashMap<>();
      for (int i = 0; i < nodes.size(); i++) {
        facts.put(nodes.get(i), gathered.get(i));
      }
      return facts;
    }

    private Facts gather(String node, String script) {
      String failure = session.unreachable().get(node);
      if (failure != null) {
        return Facts.unanswered(node, failure, Duration.ZERO);
      }
      // Gathered by the session's opening round (a login, or the head beside them), when it ran.
      ExecResult first = opening == null ? null : session.reach().firstAnswer(node);
      if (first != null) {
        firstOut.put(node, first);
        return FactParser.parse(node, first);
      }
      NodeShell shell = session.shells().get(node);
      if (shell == null) {
        return Facts.unanswered(node, "no connection", Duration.ZERO);
      }
      try {
        return FactParser.parse(node, shell.run(script, factTimeout));
      } catch (RuntimeException e) {
        return Facts.unanswered(node, "internal error: " + e, Duration.ZERO);
      }
    }

    /**
     * The data path's proof (when {@code dataPath}) and the workspace's (when given), in the same
     * rounds; returns the data path's verdict, null when it was not asked.
     */
    Timed<SharedPathProof.Verdict> prove(Map<String, Facts> facts, boolean dataPath)
        throws InterruptedException {
      Map<String, String> dataPaths = new LinkedHashMap<>();
      for (String n : nodes) {
        Facts f = facts.get(n);
        if (f.answered() && session.shells().containsKey(n)) {
          dataPaths.put(n, f.storage().dataPath());
        }
      }
      List<SharedPathProof.Subject> subjects = new ArrayList<>();
      if (dataPath) {
        subjects.add(new SharedPathProof.Subject(dataPaths, false));
      }
      if (workspace != null) {
        subjects.add(SharedPathProof.Subject.created(workspace, session.shells().keySet()));
      }
      if (dataPath) {
        session.progress().phase("data-path-shared", new ArrayList<>(dataPaths.keySet()));
      }
      long t = System.nanoTime();
      try {
        List<SharedPathProof.Verdict> v =
            new SharedPathProof(session.fanOut(), probeTimeout)
                .prove(session.head(), session.shells(), subjects);
        if (workspace != null) {
          workspaceVerdict = v.get(v.size() - 1);
        }
        return new Timed<>(dataPath ? v.get(0) : null, Timed.since(t));
      } catch (RuntimeException e) {
        return new Timed<>(null, Timed.since(t));
      }
    }
  }
}
