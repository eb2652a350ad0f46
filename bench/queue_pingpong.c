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
 * 8-byte ping-pong on matched requests between ranks 0 and 1:
 *   (a) MPI_Start / MPI_Wait
 *   (b) every iteration enqueued on a default queue, one fence at the end
 *   (c) enqueued, with a fence each iteration
 * interleaved round by round; prints the best half round trip of each, the
 * ratios of the bests to (a), and the median over rounds of each round's
 * ratio to (a) (steadier on a shared machine, where a whole round can be
 * slowed).
 */

#include <stdio.h>
#include <time.h>

#include <mpi.h>

#include "bench_util.h"

#define ITERS 20000
#define ROUNDS 15

/* order of operations for a rank: rank 0 sends first */
static double run(int mode, MPI_Request *send, MPI_Request *recv, MPI_Queue *q, int rank)
{
    MPI_Request *first = (0 == rank) ? send : recv, *second = (0 == rank) ? recv : send;
    double t0;

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = bench_now();
    for (int i = 0; i < ITERS; ++i) {
        if (0 == mode) {
            MPI_Start(first);
            MPI_Wait(first, MPI_STATUS_IGNORE);
            MPI_Start(second);
            MPI_Wait(second, MPI_STATUS_IGNORE);
        } else {
            MPI_Enqueue_start(q, first);
            MPI_Enqueue_wait(q, first, MPI_STATUS_IGNORE);
            MPI_Enqueue_start(q, second);
            MPI_Enqueue_wait(q, second, MPI_STATUS_IGNORE);
            if (2 == mode) {
                MPI_Queue_fence(q);
            }
        }
    }
    if (1 == mode) {
        MPI_Queue_fence(q);
    }
    return (bench_now() - t0) / ITERS / 2;
}

int main(int argc, char **argv)
{
    char sbuf[8] = {0}, rbuf[8];
    double best[3] = {1e9, 1e9, 1e9}, ratio_b[ROUNDS], ratio_c[ROUNDS];
    MPI_Request reqs[2];
    MPI_Queue q;
    int rank, peer;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    peer = 1 - rank;
    if (rank < 2) {
        MPI_Queue_init(&q, MPI_QUEUE_TYPE_DEFAULT, NULL);
        MPI_Send_init(sbuf, 8, MPI_CHAR, peer, 1, MPI_COMM_WORLD, &reqs[0]);
        MPI_Recv_init(rbuf, 8, MPI_CHAR, peer, 1, MPI_COMM_WORLD, &reqs[1]);
        MPI_Matchall(2, reqs);
        for (int r = 0; r < ROUNDS; ++r) {
            double t[3];
            for (int m = 0; m < 3; ++m) {
                t[m] = run(m, &reqs[0], &reqs[1], &q, rank);
                best[m] = t[m] < best[m] ? t[m] : best[m];
            }
            ratio_b[r] = t[1] / t[0];
            ratio_c[r] = t[2] / t[0];
        }
        MPI_Request_free(&reqs[0]);
        MPI_Request_free(&reqs[1]);
        MPI_Queue_free(&q);
    }
    if (0 == rank) {
        printf("a_start_wait_us=%.3f b_enqueue_one_fence_us=%.3f c_enqueue_fence_each_us=%.3f "
               "ratio_b=%.3f ratio_c=%.3f median_ratio_b=%.3f median_ratio_c=%.3f\n",
               best[0] * 1e6, best[1] * 1e6, best[2] * 1e6, best[1] / best[0], best[2] / best[0],
               bench_median(ratio_b, ROUNDS), bench_median(ratio_c, ROUNDS));
    }
    MPI_Finalize();
    return 0;
}
