/*
 * clusterrun screen's measurements: one program, started once by mpirun across every node of the
 * hostfile, one rank per slot (ranks fill each node's slots before the next node's, in hostfile
 * order, as Open MPI maps by default).
 *
 *   screen REPEAT NODES ROUNDS
 *     REPEAT  how many times each measurement is taken (clusterrun keeps the best)
 *     NODES   how many nodes the hostfile has (the program checks it found as many)
 *     ROUNDS  the pair rounds, node indices in hostfile order: "0-1,2-3/1-2,3-0"; "-" for none
 *             (the second look at nodes' own figures)
 *
 * Each node alone, all nodes at once (every rank of every node):
 *   dgemm: C += A * B on 64 x 64 doubles (2 * 64^3 flops each), in Gflop/s;
 *   triad: STREAM's a = b + s * c on 2,000,000 doubles (24 bytes per element), in MB/s (10^6
 *          bytes per second);
 *   each run in bursts of BURST seconds with a pause as long after each, until the bursts add up
 *   to WINDOW seconds, the work divided by the bursts' time. The window spans several periods of a
 *   CPU quota (cgroup cpu.cfs_period_us, 100 ms by default), so a throttled node cannot hide in
 *   one period. A node's figure is the mean of its ranks'.
 * Nodes in pairs (the first rank of each node; rounds one after the other, all rounds once per
 * repeat so repeats are spread in time; in a round, the pairs' latencies one pair after the other
 * (a token passed on, the waiting ranks asleep), then every pair's bandwidth at once):
 *   latency:   8-byte messages, the best of LAT_TRIPS round trips (after one to warm up), half a
 *              round trip in microseconds: the best single one, as one moment when both ranks
 *              are on a CPU at once is enough (where nodes share a machine, a batch of round
 *              trips without a context switch may never come);
 *   bandwidth: 1 MiB and 4 MiB messages sent back and forth (both directions counted, MB/s), the
 *              best round trip of each size, at most BW_MAX round trips or BW_BUDGET seconds.
 * Ranks that wait (between phases, outside the round's pairs) sleep instead of polling, so they
 * do not take the CPU from nodes that share one (virtual machines, the local test cluster). Each
 * rank starts a session of its own (clusterrun starts it as a child, not a process group leader):
 * Linux's autogroup scheduling shares the CPU between sessions, and on the head node the ranks
 * would otherwise share one with mpirun and clusterrun, unlike the other nodes' ranks.
 *
 * Rank 0 prints every line (one writer: lines never mix), in this order:
 *   clusterrun-screen begin nodes=N ranks=P repeat=R
 *   clusterrun-screen node=I host=NAME ranks=K                         (each node)
 *   clusterrun-screen node=I rep=M dgemm_Gflops=X triad_MBps=Y         (each node and repeat)
 *   clusterrun-screen pair=I-J rep=M bandwidth_MBps=X latency_us=Y     (each pair and repeat)
 *   clusterrun-screen end
 * Problems go to stderr as "clusterrun-screen: ..." and the program exits 1.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MM_N 64
#define TRIAD_N 2000000
#define WINDOW 0.3
#define BURST 0.02
#define LAT_TRIPS 300
#define BW_MAX 30
#define BW_BUDGET 0.3
#define BW_BYTES (4 * 1024 * 1024)
#define MAX_PAIRS 100000

static double mm_a[MM_N * MM_N], mm_b[MM_N * MM_N], mm_c[MM_N * MM_N];
static double *ta, *tb, *tc;
static volatile double sink; /* the results are read, so the loops are kept */
static int pair_a[MAX_PAIRS], pair_b[MAX_PAIRS], pair_round[MAX_PAIRS];
static int npairs, nrounds;

static void die(const char *what) {
  fprintf(stderr, "clusterrun-screen: %s\n", what);
  fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

/* A barrier that sleeps while it waits. */
static void quiet_barrier(void) {
  MPI_Request r;
  int done = 0;
  struct timespec ts = {0, 1000000};
  MPI_Ibarrier(MPI_COMM_WORLD, &r);
  while (!done) {
    MPI_Test(&r, &done, MPI_STATUS_IGNORE);
    if (!done) {
      nanosleep(&ts, NULL);
    }
  }
}

/* A token from `src` (the pair before in a round's latency chain), received asleep. */
static void quiet_token(int src) {
  MPI_Request r;
  int done = 0, token = 0;
  struct timespec ts = {0, 200000};
  MPI_Irecv(&token, 1, MPI_INT, src, 3, MPI_COMM_WORLD, &r);
  while (!done) {
    MPI_Test(&r, &done, MPI_STATUS_IGNORE);
    if (!done) {
      nanosleep(&ts, NULL);
    }
  }
}

/* The pair of `round` after (step 1) or before (step -1) pair k, or -1. */
static int neighbour_pair(int k, int round, int step) {
  for (int j = k + step; j >= 0 && j < npairs; j += step) {
    if (pair_round[j] == round) {
      return j;
    }
  }
  return -1;
}

static void mm(void) {
  for (int i = 0; i < MM_N; i++) {
    for (int k = 0; k < MM_N; k++) {
      double aik = mm_a[i * MM_N + k];
      for (int j = 0; j < MM_N; j++) {
        mm_c[i * MM_N + j] += aik * mm_b[k * MM_N + j];
      }
    }
  }
}

/*
 * Runs `kernel` in bursts of BURST seconds, each followed by a pause as long, until the bursts add
 * up to WINDOW seconds; returns the work per second of burst. Half the time busy, the ranks of
 * nodes that share a machine (virtual machines, the local test cluster) do not take the CPU from
 * each other, while a CPU quota (cpu.cfs_quota_us) still stretches the bursts past its share.
 */
static double bursts(long (*kernel)(double), double work_per_unit) {
  double busy = 0.0, units = 0.0;
  struct timespec pause = {0, (long)(BURST * 1e9)};
  while (busy < WINDOW) {
    double t0 = MPI_Wtime();
    units += (double)kernel(t0 + BURST);
    busy += MPI_Wtime() - t0;
    nanosleep(&pause, NULL);
  }
  return units * work_per_unit / busy;
}

static long mm_until(double until) {
  long n = 0;
  do {
    mm();
    n++;
  } while (MPI_Wtime() < until);
  return n;
}

static long triad_until(double until) {
  long n = 0;
  do {
    for (long i = 0; i < TRIAD_N; i++) {
      ta[i] = tb[i] + 3.0 * tc[i];
    }
    n++;
  } while (MPI_Wtime() < until);
  return n;
}

static double dgemm_window(void) { return bursts(mm_until, 2.0 * MM_N * MM_N * MM_N / 1e9); }

static double triad_window(void) { return bursts(triad_until, 24.0 * TRIAD_N / 1e6); }

static double latency(int peer, int first, char *buf) {
  double best = -1.0;
  for (int t = 0; t <= LAT_TRIPS; t++) {
    double t0 = MPI_Wtime();
    if (first) {
      MPI_Send(buf, 8, MPI_CHAR, peer, 1, MPI_COMM_WORLD);
      MPI_Recv(buf, 8, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf, 8, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, 8, MPI_CHAR, peer, 1, MPI_COMM_WORLD);
    }
    double us = (MPI_Wtime() - t0) * 1e6 / 2.0;
    if (t > 0 && (best < 0 || us < best)) {
      best = us;
    }
  }
  return best;
}

/*
 * Round trips of `bytes` until the first of the pair says stop: its message's first byte is 1 to
 * go on, 0 (a 1-byte message) to stop, so both ends agree without a clock. The first round trip
 * warms up when `warm` is set.
 */
static double bandwidth(int peer, int first, char *buf, int bytes, int warm) {
  double best = 0.0, start = MPI_Wtime();
  for (int it = 0;; it++) {
    if (first) {
      int measured = warm ? it - 1 : it;
      int go = measured < 1 || (measured < BW_MAX && MPI_Wtime() - start < BW_BUDGET);
      buf[0] = (char)go;
      double t0 = MPI_Wtime();
      MPI_Send(buf, go ? bytes : 1, MPI_CHAR, peer, 2, MPI_COMM_WORLD);
      if (!go) {
        break;
      }
      MPI_Recv(buf, bytes, MPI_CHAR, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      double mbps = 2.0 * bytes / (MPI_Wtime() - t0) / 1e6;
      if (measured >= 0 && mbps > best) {
        best = mbps;
      }
    } else {
      MPI_Recv(buf, bytes, MPI_CHAR, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (buf[0] == 0) {
        break;
      }
      MPI_Send(buf, bytes, MPI_CHAR, peer, 2, MPI_COMM_WORLD);
    }
  }
  return best;
}

/* "0-1,2-3/1-2,3-0" into pair_a/pair_b/pair_round; every index below nodes; "-": no pair. */
static int parse_rounds(const char *text, int nodes) {
  const char *p = text;
  nrounds = 1;
  npairs = 0;
  if (strcmp(text, "-") == 0) {
    nrounds = 0;
    return 1;
  }
  while (*p) {
    char *end;
    long a = strtol(p, &end, 10);
    if (end == p || *end != '-') {
      return 0;
    }
    p = end + 1;
    long b = strtol(p, &end, 10);
    if (end == p || a < 0 || b < 0 || a >= nodes || b >= nodes || a == b || npairs >= MAX_PAIRS) {
      return 0;
    }
    pair_a[npairs] = (int)a;
    pair_b[npairs] = (int)b;
    pair_round[npairs] = nrounds - 1;
    npairs++;
    p = end;
    if (*p == ',') {
      p++;
    } else if (*p == '/') {
      nrounds++;
      p++;
    } else if (*p) {
      return 0;
    }
  }
  return npairs > 0;
}

static void compute_phase(int repeat, double *mine) {
  for (int i = 0; i < MM_N * MM_N; i++) {
    mm_a[i] = 1.0 / MM_N;
    mm_b[i] = 1.0 / MM_N;
    mm_c[i] = 0.0;
  }
  ta = malloc(sizeof(double) * TRIAD_N);
  tb = malloc(sizeof(double) * TRIAD_N);
  tc = malloc(sizeof(double) * TRIAD_N);
  if (!ta || !tb || !tc) {
    die("cannot allocate the triad's arrays");
  }
  for (long i = 0; i < TRIAD_N; i++) {
    ta[i] = 0.0;
    tb[i] = 1.0;
    tc[i] = 2.0;
  }
  for (int r = 0; r < repeat; r++) {
    quiet_barrier();
    mine[2 * r] = dgemm_window();
    mine[2 * r + 1] = triad_window();
  }
  sink = mm_c[MM_N + 1] + ta[TRIAD_N / 2];
  free(ta);
  free(tb);
  free(tc);
}

/* Pair figures by (repeat, pair): [2 * (r * npairs + k)] bandwidth, [... + 1] latency; -1 unset. */
static void pair_phase(int repeat, int node, int leader, const int *leader_rank, double *res) {
  char *buf = calloc(BW_BYTES, 1);
  if (!buf) {
    die("cannot allocate the message buffer");
  }
  for (int r = 0; r < repeat; r++) {
    for (int round = 0; round < nrounds; round++) {
      int k = -1;
      for (int j = 0; leader && j < npairs && k < 0; j++) {
        if (pair_round[j] == round && (pair_a[j] == node || pair_b[j] == node)) {
          k = j;
        }
      }
      int first = k >= 0 && pair_a[k] == node;
      int peer = k < 0 ? -1 : leader_rank[first ? pair_b[k] : pair_a[k]];
      quiet_barrier();
      /*
       * Latency one pair at a time: where nodes share a machine, pairs measuring at once share its
       * cores, and the scheduler puts the two ends of a pair on one core (every message then waits
       * for a context switch: 50-70 us instead of 12 us for 8 nodes on 2 cores). On a real cluster
       * it costs 300 round trips per pair.
       */
      if (k >= 0) {
        int prev = neighbour_pair(k, round, -1), next = neighbour_pair(k, round, 1);
        if (prev >= 0) {
          quiet_token(leader_rank[pair_a[prev]]);
        }
        double lat = latency(peer, first, buf);
        if (first) {
          res[2 * (r * npairs + k) + 1] = lat;
          if (next >= 0) {
            int token = 1;
            MPI_Send(&token, 1, MPI_INT, leader_rank[pair_a[next]], 3, MPI_COMM_WORLD);
            MPI_Send(&token, 1, MPI_INT, leader_rank[pair_b[next]], 3, MPI_COMM_WORLD);
          }
        }
      }
      quiet_barrier();
      if (k >= 0) {
        double bw1 = bandwidth(peer, first, buf, 1024 * 1024, r == 0);
        double bw4 = bandwidth(peer, first, buf, BW_BYTES, r == 0);
        if (first) {
          res[2 * (r * npairs + k)] = bw1 > bw4 ? bw1 : bw4;
        }
      }
    }
  }
  free(buf);
}

static void print_nodes(int size, int nodes, int repeat, const int *node_of, const char *names,
                        const double *all) {
  for (int n = 0; n < nodes; n++) {
    int k = 0, first = -1;
    for (int q = 0; q < size; q++) {
      if (node_of[q] == n) {
        k++;
        first = first < 0 ? q : first;
      }
    }
    printf("clusterrun-screen node=%d host=%s ranks=%d\n", n, names + first * MPI_MAX_PROCESSOR_NAME,
           k);
  }
  for (int n = 0; n < nodes; n++) {
    for (int r = 0; r < repeat; r++) {
      double g = 0.0, m = 0.0;
      int k = 0;
      for (int q = 0; q < size; q++) {
        if (node_of[q] == n) {
          g += all[q * 2 * repeat + 2 * r];
          m += all[q * 2 * repeat + 2 * r + 1];
          k++;
        }
      }
      printf("clusterrun-screen node=%d rep=%d dgemm_Gflops=%.3f triad_MBps=%.1f\n", n, r + 1,
             g / k, m / k);
    }
  }
}

int main(int argc, char **argv) {
  int rank, size, len, local, node, nodes, repeat = 0, expected = 0;
  char name[MPI_MAX_PROCESSOR_NAME];
  MPI_Comm nodecomm, leaders;
  (void)setsid(); /* fails harmlessly when the rank leads its process group */
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 4 || (repeat = atoi(argv[1])) < 1 || repeat > 100 || (expected = atoi(argv[2])) < 1) {
    die("usage: screen REPEAT NODES ROUNDS");
  }
  memset(name, 0, sizeof name);
  MPI_Get_processor_name(name, &len);
#ifdef CLUSTERRUN_SCREEN_RANK_IS_NODE
  /* for testing on one machine without a cluster: every rank is a node of its own */
  MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &nodecomm);
#else
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &nodecomm);
#endif
  MPI_Comm_rank(nodecomm, &local);
  MPI_Comm_split(MPI_COMM_WORLD, local == 0 ? 0 : MPI_UNDEFINED, rank, &leaders);
  node = 0;
  nodes = 0;
  if (local == 0) {
    MPI_Comm_rank(leaders, &node);
    MPI_Comm_size(leaders, &nodes);
  }
  MPI_Bcast(&node, 1, MPI_INT, 0, nodecomm);
  MPI_Bcast(&nodes, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (nodes != expected) {
    /* rank 0 stops them all; the others wait for it */
    char why[160];
    snprintf(why, sizeof why, "the hostfile has %d nodes, the ranks are on %d", expected, nodes);
    if (rank == 0) {
      die(why);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (!parse_rounds(argv[3], nodes)) {
    die("ROUNDS is not like 0-1,2-3/1-2,3-0 with node indices below NODES, nor -");
  }
  int *node_of = malloc(sizeof(int) * size);
  int *leader_rank = malloc(sizeof(int) * nodes);
  char *names = malloc((size_t)size * MPI_MAX_PROCESSOR_NAME);
  double *mine = malloc(sizeof(double) * 2 * repeat);
  double *all = malloc(sizeof(double) * 2 * repeat * size);
  double *res = malloc(sizeof(double) * 2 * repeat * (npairs + 1));
  double *best = malloc(sizeof(double) * 2 * repeat * (npairs + 1));
  if (!node_of || !leader_rank || !names || !mine || !all || !res || !best) {
    die("cannot allocate");
  }
  MPI_Allgather(&node, 1, MPI_INT, node_of, 1, MPI_INT, MPI_COMM_WORLD);
  for (int q = size - 1; q >= 0; q--) {
    leader_rank[node_of[q]] = q;
  }
  MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0,
             MPI_COMM_WORLD);
  compute_phase(repeat, mine);
  MPI_Gather(mine, 2 * repeat, MPI_DOUBLE, all, 2 * repeat, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  for (int i = 0; i < 2 * repeat * npairs; i++) {
    res[i] = -1.0;
  }
  pair_phase(repeat, node, local == 0, leader_rank, res);
  MPI_Reduce(res, best, 2 * repeat * npairs, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("clusterrun-screen begin nodes=%d ranks=%d repeat=%d\n", nodes, size, repeat);
    print_nodes(size, nodes, repeat, node_of, names, all);
    for (int k = 0; k < npairs; k++) {
      for (int r = 0; r < repeat; r++) {
        printf("clusterrun-screen pair=%d-%d rep=%d bandwidth_MBps=%.2f latency_us=%.2f\n",
               pair_a[k], pair_b[k], r + 1, best[2 * (r * npairs + k)],
               best[2 * (r * npairs + k) + 1]);
      }
    }
    printf("clusterrun-screen end\n");
    fflush(stdout);
  }
  quiet_barrier();
  MPI_Finalize();
  return 0;
}
