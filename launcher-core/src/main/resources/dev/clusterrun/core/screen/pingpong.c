/*
 * clusterrun screen's ping-pong: ranks 2k and 2k+1 are a pair (a rank without a partner waits).
 * Every pair measures at the same time, over the job's network:
 *   bandwidth: 4 MiB messages sent back and forth, the best of ITER_BW round trips, in MB/s
 *              (10^6 bytes per second, both directions counted);
 *   latency:   8-byte messages, the best of BATCHES batches of LAT_ITERS round trips, half a
 *              round trip in microseconds.
 * The even rank of each pair prints one line:
 *   clusterrun-screen pair=R-P host=NAME peer=NAME bandwidth_MBps=X latency_us=Y
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BW_BYTES (4 * 1024 * 1024)
#define ITER_BW 6
#define LAT_ITERS 100
#define BATCHES 10

int main(int argc, char **argv) {
  int rank, size, len, peer;
  char name[MPI_MAX_PROCESSOR_NAME], peer_name[MPI_MAX_PROCESSOR_NAME];
  char *buf;
  double best_bw = 0.0, best_lat = -1.0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  memset(name, 0, sizeof name);
  memset(peer_name, 0, sizeof peer_name);
  MPI_Get_processor_name(name, &len);
  peer = rank ^ 1;
  if (peer >= size) {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
  }
  buf = calloc(BW_BYTES, 1);
  if (buf == NULL) {
    fprintf(stderr, "clusterrun-screen: rank %d: cannot allocate %d bytes\n", rank, BW_BYTES);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Sendrecv(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, peer, 0, peer_name, MPI_MAX_PROCESSOR_NAME,
               MPI_CHAR, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  /* latency: one warm-up batch, then the best batch */
  for (int b = 0; b <= BATCHES; b++) {
    double t0 = MPI_Wtime();
    for (int i = 0; i < LAT_ITERS; i++) {
      if (rank % 2 == 0) {
        MPI_Send(buf, 8, MPI_CHAR, peer, 1, MPI_COMM_WORLD);
        MPI_Recv(buf, 8, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(buf, 8, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, 8, MPI_CHAR, peer, 1, MPI_COMM_WORLD);
      }
    }
    double us = (MPI_Wtime() - t0) * 1e6 / (2.0 * LAT_ITERS);
    if (b > 0 && (best_lat < 0 || us < best_lat)) {
      best_lat = us;
    }
  }
  /* bandwidth: one warm-up round trip, then the best */
  for (int i = 0; i <= ITER_BW; i++) {
    double t0 = MPI_Wtime();
    if (rank % 2 == 0) {
      MPI_Send(buf, BW_BYTES, MPI_CHAR, peer, 2, MPI_COMM_WORLD);
      MPI_Recv(buf, BW_BYTES, MPI_CHAR, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf, BW_BYTES, MPI_CHAR, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, BW_BYTES, MPI_CHAR, peer, 2, MPI_COMM_WORLD);
    }
    double mbps = 2.0 * BW_BYTES / (MPI_Wtime() - t0) / 1e6;
    if (i > 0 && mbps > best_bw) {
      best_bw = mbps;
    }
  }
  if (rank % 2 == 0) {
    printf("clusterrun-screen pair=%d-%d host=%s peer=%s bandwidth_MBps=%.2f latency_us=%.2f\n",
           rank, peer, name, peer_name, best_bw, best_lat);
    fflush(stdout);
  }
  free(buf);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
