/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * Resources of matching are released: 10,000 create / match / start /
 * free cycles between ring neighbours.  After the last cycle the heap in
 * use is within 512 KiB of what it was after cycle 1,000 (a leak of 60
 * bytes a cycle fails), and the resident memory within 8 MiB (a leak of
 * pages: registrations, mappings), unless QTEST_NO_RSS says resident memory
 * tells nothing on this transport.
 */

#include "common/qtest.h"

#define CYCLES 10000
#define WARMUP 1000
#define SLACK_KB (8 * 1024)
#define HEAP_SLACK_KB 512

int main(int argc, char **argv)
{
    int rank, size, left, right, s, r = -1;
    long base = 0, end, heap_base = 0, heap_end;

    qt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (rank - 1 + size) % size;
    right = (rank + 1) % size;

    QT_STEP("match / free cycles");
    for (int c = 0; c < CYCLES; ++c) {
        MPI_Request req[2];
        MPI_Recv_init(&r, 1, MPI_INT, left, 2, MPI_COMM_WORLD, &req[0]);
        MPI_Send_init(&s, 1, MPI_INT, right, 2, MPI_COMM_WORLD, &req[1]);
        if (MPI_SUCCESS != MPI_Matchall(2, req)) {
            QT_CHECK(0, "MPI_Matchall failed in cycle %d", c);
            break;
        }
        if (0 == c % 100) {
            s = c + rank;
            MPI_Startall(2, req);
            MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
            QT_CHECK(c + left == r, "cycle %d received %d", c, r);
        }
        MPI_Request_free(&req[0]);
        MPI_Request_free(&req[1]);
        if (WARMUP == c) {
            base = qt_rss_kb();
            heap_base = qt_heap_kb();
        }
    }
    end = qt_rss_kb();
    heap_end = qt_heap_kb();
    QT_CHECK(heap_base < 0 || heap_end - heap_base < HEAP_SLACK_KB,
             "heap in use grew from %ld KiB to %ld KiB", heap_base, heap_end);
    QT_CHECK(!qt_rss_checked() || (base > 0 && end > 0 && end - base < SLACK_KB),
             "resident memory grew from %ld KiB to %ld KiB", base, end);
    return qt_finalize();
}
