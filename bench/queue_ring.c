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
 * The chapter's Example 13.1 ring (1024 doubles each way), time per
 * iteration: (a) MPI_Startall / MPI_Waitall on matched requests, (b) the
 * example's enqueued startall / waitall with one fence at the end.
 * Interleaved rounds; prints the best of each and (b)/(a).
 */

#include <stdio.h>
#include <time.h>

#include <mpi.h>

#include "bench_util.h"

#define N 1024
#define ITERS 2000
#define ROUNDS 5

int main(int argc, char **argv)
{
    static double sl[N], sr[N], rl[N], rr[N];
    double best[2] = {1e9, 1e9};
    int rank, size, left, right;
    MPI_Request reqs[4];
    MPI_Queue q;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (rank - 1 + size) % size;
    right = (rank + 1) % size;
    MPI_Queue_init(&q, MPI_QUEUE_TYPE_DEFAULT, NULL);
    MPI_Recv_init(rl, N, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &reqs[0]);
    MPI_Recv_init(rr, N, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &reqs[1]);
    MPI_Send_init(sl, N, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &reqs[2]);
    MPI_Send_init(sr, N, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &reqs[3]);
    MPI_Matchall(4, reqs);

    for (int r = 0; r < ROUNDS; ++r) {
        for (int mode = 0; mode < 2; ++mode) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = bench_now();
            for (int it = 0; it < ITERS; ++it) {
                if (0 == mode) {
                    MPI_Startall(2, &reqs[0]);
                    MPI_Startall(2, &reqs[2]);
                    MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE);
                } else {
                    MPI_Enqueue_startall(&q, 2, &reqs[0]);
                    MPI_Enqueue_startall(&q, 2, &reqs[2]);
                    MPI_Enqueue_waitall(&q, 4, reqs, MPI_STATUSES_IGNORE);
                }
            }
            if (1 == mode) {
                MPI_Queue_fence(&q);
            }
            double t = (bench_now() - t0) / ITERS;
            MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            best[mode] = t < best[mode] ? t : best[mode];
        }
    }
    if (0 == rank) {
        printf("ring_startall_us=%.3f ring_enqueued_us=%.3f ratio=%.3f\n", best[0] * 1e6,
               best[1] * 1e6, best[1] / best[0]);
    }
    for (int i = 0; i < 4; ++i) {
        MPI_Request_free(&reqs[i]);
    }
    MPI_Queue_free(&q);
    MPI_Finalize();
    return 0;
}
