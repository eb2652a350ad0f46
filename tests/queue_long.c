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
 * A long run: 100,000 enqueued exchange cycles on one queue with one fence
 * every 1,000, and after the first 10,000 no growth of the heap in use
 * (512 KiB at most) nor of resident memory (8 MiB at most; not where
 * QTEST_NO_RSS says resident memory tells nothing on the transport).
 * QTEST_LONG_CYCLES and QTEST_LONG_WARMUP (multiples of 1,000) change the
 * two counts, for transports whose own pools take longer to be touched
 * whole (libfabric's tcp provider: tests/tests.list).
 */

#include "common/qtest.h"

#define CYCLES 100000
#define WARMUP 10000
#define FENCE_EVERY 1000
#define SLACK_KB (8 * 1024)
#define HEAP_SLACK_KB 512

int main(int argc, char **argv)
{
    int rank, size, left, right, s = 0, r = -1, bad = 0;
    long base = -1, end, heap_base = -1, heap_end;
    MPI_Request reqs[2];
    MPI_Queue q;
    const char *env_cycles = getenv("QTEST_LONG_CYCLES"), *env_warmup = getenv("QTEST_LONG_WARMUP");
    long cycles = NULL != env_cycles ? atol(env_cycles) : CYCLES;
    long warmup = NULL != env_warmup ? atol(env_warmup) : WARMUP;

    qt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (rank - 1 + size) % size;
    right = (rank + 1) % size;

    MPI_Queue_init(&q, MPI_QUEUE_TYPE_DEFAULT, NULL);
    MPI_Recv_init(&r, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &reqs[0]);
    MPI_Send_init(&s, 1, MPI_INT, right, 1, MPI_COMM_WORLD, &reqs[1]);
    MPI_Matchall(2, reqs);

    QT_STEP("enqueued cycles");
    QT_CHECK(0 < cycles && 0 <= warmup && warmup < cycles && 0 == warmup % FENCE_EVERY,
             "QTEST_LONG_CYCLES %ld, QTEST_LONG_WARMUP %ld", cycles, warmup);
    for (long c = 0; c < cycles; c += FENCE_EVERY) {
        s = c + rank;
        for (int i = 0; i < FENCE_EVERY; ++i) {
            MPI_Enqueue_startall(&q, 2, reqs);
            MPI_Enqueue_waitall(&q, 2, reqs, MPI_STATUSES_IGNORE);
        }
        if (MPI_SUCCESS != MPI_Queue_fence(&q) || r != c + left) {
            bad++;
        }
        if (warmup == c) {
            base = qt_rss_kb();
            heap_base = qt_heap_kb();
        }
    }
    end = qt_rss_kb();
    heap_end = qt_heap_kb();
    QT_CHECK(0 == bad, "%d fences saw wrong data", bad);
    QT_CHECK(heap_base < 0 || heap_end - heap_base < HEAP_SLACK_KB,
             "heap in use grew from %ld to %ld KiB", heap_base, heap_end);
    QT_CHECK(!qt_rss_checked() || (base > 0 && end > 0 && end - base < SLACK_KB),
             "resident memory grew from %ld to %ld KiB",
             base, end);
    MPI_Request_free(&reqs[0]);
    MPI_Request_free(&reqs[1]);
    MPI_Queue_free(&q);
    return qt_finalize();
}
