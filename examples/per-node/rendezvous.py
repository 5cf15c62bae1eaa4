"""A per-node rendezvous with the Python standard library alone.

Started once on every node by `clusterrun run --launcher=per-node`: every node connects to
MASTER_ADDR:MASTER_PORT (the first node of the hostfile listens there) and sends its NODE_RANK and
hostname; the rank-0 node checks that every rank of NNODES arrived exactly once, from as many
distinct hosts, prints one line, and answers each node. Exit 0 when all is well.
"""

import os
import socket
import sys
import time

rank = int(os.environ["NODE_RANK"])
nnodes = int(os.environ["NNODES"])
addr = os.environ["MASTER_ADDR"]
port = int(os.environ["MASTER_PORT"])
host = socket.gethostname()
# torchrun's names carry the same values.
for name, value in (("PET_NODE_RANK", rank), ("PET_NNODES", nnodes), ("PET_MASTER_PORT", port)):
    if os.environ.get(name) != str(value):
        sys.exit("%s=%r differs from %r" % (name, os.environ.get(name), value))
if os.environ.get("PET_MASTER_ADDR") != addr:
    sys.exit("PET_MASTER_ADDR differs from MASTER_ADDR")
deadline = time.time() + 60

if rank == 0:
    server = socket.create_server(("", port))
    server.settimeout(max(1, deadline - time.time()))
    seen = {0: host}
    conns = []
    while len(conns) < nnodes - 1:
        conn, _ = server.accept()
        line = conn.makefile().readline().split()
        r, h = int(line[0]), line[1]
        if r in seen:
            sys.exit("rank %d arrived twice (from %s and %s)" % (r, seen[r], h))
        seen[r] = h
        conns.append(conn)
    if sorted(seen) != list(range(nnodes)) or len(set(seen.values())) != nnodes:
        sys.exit("gathered the wrong set: %r" % seen)
    print("gathered %d ranks: %s" % (nnodes, " ".join("%d=%s" % kv for kv in sorted(seen.items()))))
    for conn in conns:
        conn.sendall(b"ok\n")
        conn.close()
else:
    while True:
        try:
            conn = socket.create_connection((addr, port), timeout=5)
            break
        except OSError:
            if time.time() > deadline:
                raise
            time.sleep(0.2)
    conn.sendall(("%d %s\n" % (rank, host)).encode())
    answer = conn.makefile().readline().strip()
    if answer != "ok":
        sys.exit("rank 0 answered %r" % answer)
    print("rank %d on %s met rank 0 at %s:%d" % (rank, host, addr, port))
print("marker=%s" % os.environ.get("PN_MARKER"))
