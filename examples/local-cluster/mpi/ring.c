/*
 * A small real MPI program for the clusterrun local cluster: every rank passes a token round a
 * ring and joins an allreduce, then reports where it ran. One line per rank on stdout:
 *
 *   rank=R size=S host=HOSTNAME mntns=mnt:[INODE] ring=FROM allreduce=SUM ok=1
 *
 * ring is the rank the token came from (R-1 mod S); allreduce is the sum of (rank+1) over all
 * ranks, S*(S+1)/2. ok=1 when both are what they must be; the exit code is non-zero otherwise.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  int next = (rank + 1) % size, prev = (rank + size - 1) % size, got = -1;
  MPI_Sendrecv(&rank, 1, MPI_INT, next, 7, &got, 1, MPI_INT, prev, 7, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);

  long mine = rank + 1, sum = 0;
  MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);

  char host[256] = "?", mntns[256] = "?";
  gethostname(host, sizeof host - 1);
  ssize_t n = readlink("/proc/self/ns/mnt", mntns, sizeof mntns - 1);
  if (n >= 0) mntns[n] = '\0';

  int ok = got == prev && sum == (long)size * (size + 1) / 2;
  printf("rank=%d size=%d host=%s mntns=%s ring=%d allreduce=%ld ok=%d\n", rank, size, host,
         mntns, got, sum, ok);
  fflush(stdout);
  MPI_Finalize();
  return ok ? 0 : 1;
}
