package dev.clusterrun.core.check;

import dev.clusterrun.core.check.SharedPathProof.Status;
import dev.clusterrun.core.check.SharedPathProof.Subject;
import dev.clusterrun.core.check.SharedPathProof.Verdict;
import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.NodeShell;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The data path's proof and a workspace's, their first two rounds carried by the session's opening
 * round (the commands that gather each node's facts): the head writes its probes at the end of its
 * own fact script, and every other node, at the end of its, reads them through the ENROOT_DATA_PATH
 * the facts computed (and the workspace's path) and writes its answer, named after its hostname.
 * Both are what {@code facts.sh} leaves for what follows it, as its header says: {@code
 * ENROOT_DATA_PATH} exported and {@code CR_HOSTNAME}. The head's probe may not be written yet when
 * a node looks (the head gathers its facts beside the logins): such a node is asked again ({@link
 * ProofRounds}), as is every node without those answers. Then the head reads back and removes the
 * probes, as {@link SharedPathProof#prove} does.
 */
public final class CarriedProof {
  private static final int DATA = 0;
  private static final int WORKSPACE = 1;

  /** facts.sh's declared outputs: the effective data path, and the hostname it reported. */
  private static final String DATA_PATH = "\"${ENROOT_DATA_PATH-}\"";

  private static final String HOSTNAME = "\"${CR_HOSTNAME-}\"";

  private final boolean dataPath;
  private final String workspace;
  private final String[] ids = new String[2];
  private final String[] headTokens = new String[2];
  private final String[] nodeTokens = new String[2];

  /**
   * @param dataPath prove each node's ENROOT_DATA_PATH
   * @param workspace the workspace to create and prove (null for none)
   */
  public CarriedProof(boolean dataPath, String workspace) {
    this(dataPath, workspace, SharedPathProof.randomTokens());
  }

  CarriedProof(boolean dataPath, String workspace, Supplier<String> tokens) {
    this.dataPath = dataPath;
    this.workspace = workspace;
    for (int i = 0; i < 2; i++) {
      ids[i] = ProofProbe.newId(tokens);
      headTokens[i] = tokens.get();
      nodeTokens[i] = tokens.get();
    }
  }

  /** Whether there is anything to prove. */
  public boolean any() {
    return dataPath || workspace != null;
  }

  /** Whether each node's ENROOT_DATA_PATH is proven. */
  public boolean dataPath() {
    return dataPath;
  }

  /** The workspace proven, or null. */
  public String workspace() {
    return workspace;
  }

  /** What the head runs after its facts: it writes every probe. */
  public String headTail() {
    StringBuilder b = new StringBuilder();
    if (dataPath) {
      b.append(
          ProofProbe.line(
              "cr_proof_write",
              ProofProbe.q(DATA),
              DATA_PATH,
              "0",
              ProofProbe.q(ids[DATA]),
              ProofProbe.q(headTokens[DATA])));
    }
    if (workspace != null) {
      b.append(
          ProofProbe.call(
              "cr_proof_write", WORKSPACE, workspace, 1, ids[WORKSPACE], headTokens[WORKSPACE]));
    }
    return ProofProbe.script(b.toString());
  }

  /** What every other node runs after its facts: it reads every probe and answers. */
  public String nodeTail() {
    StringBuilder b = new StringBuilder();
    if (dataPath) {
      b.append(read(DATA, DATA_PATH));
    }
    if (workspace != null) {
      b.append(read(WORKSPACE, ProofProbe.q(workspace)));
    }
    return ProofProbe.script(b.toString());
  }

  private String read(int i, String dirWord) {
    return ProofProbe.line(
        "cr_proof_read",
        ProofProbe.q(i),
        dirWord,
        ProofProbe.q(ids[i]),
        ProofProbe.q(headTokens[i]),
        ProofProbe.q(nodeTokens[i]),
        "''",
        HOSTNAME);
  }

  /**
   * The rest of the proof, once the facts are in.
   *
   * @param dataPaths each answering node's ENROOT_DATA_PATH (the head's included)
   * @param hostnames each answering node's hostname, as its facts read it
   * @param headOut what the head printed (its facts and its writes), or null when it gave no answer
   * @param nodeOuts what each other node's opening printed (its facts and its reads), where there
   *     is one
   * @return the data path's verdict (null when not asked) and the workspace's (null when none)
   */
  public List<Verdict> finish(
      SharedPathProof proof,
      String head,
      Map<String, NodeShell> shells,
      Map<String, String> dataPaths,
      Map<String, String> hostnames,
      ExecResult headOut,
      Map<String, ExecResult> nodeOuts)
      throws InterruptedException {
    Verdict[] verdicts = new Verdict[2];
    List<ProofProbe> probes = new ArrayList<>();
    String headData = dataPaths.get(head);
    if (dataPath) {
      Subject sub = new Subject(dataPaths, false);
      if (headData == null || headData.isEmpty() || headOut == null) {
        verdicts[DATA] =
            SharedPathProof.everyNode(
                head, null, sub.paths(), Status.ERROR, "the head has no data path");
      } else {
        probes.add(probe(DATA, sub, headData, hostnames));
      }
    }
    if (workspace != null) {
      Subject sub = Subject.created(workspace, shells.keySet());
      if (headOut == null) {
        verdicts[WORKSPACE] =
            SharedPathProof.everyNode(
                head, null, sub.paths(), Status.ERROR, "the head gave no answer");
      } else {
        probes.add(probe(WORKSPACE, sub, workspace, hostnames));
      }
    }
    if (probes.isEmpty()) {
      return Arrays.asList(verdicts);
    }
    return proof
        .rounds()
        .run(head, shells, probes, verdicts, headOut, new LinkedHashMap<>(nodeOuts));
  }

  private ProofProbe probe(int index, Subject sub, String headDir, Map<String, String> hostnames) {
    return new ProofProbe(
        index,
        sub,
        headDir,
        ids[index],
        headTokens[index],
        n -> nodeTokens[index],
        (n, k) -> "node-" + hostnames.getOrDefault(n, "unknown-" + k),
        n -> hostnames.getOrDefault(n, ""));
  }
}
