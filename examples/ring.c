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
 * Ring exchange in the shape of the chapter's Example 13.1: a queue, four
 * persistent requests per rank, NITER exchanges, and a check of every
 * received value.
 *
 * This version uses what the fork implements so far: the queue object and
 * MPI_Startall/MPI_Waitall.  It becomes the chapter's example (matching,
 * enqueued starts and waits, fence) as those functions land.
 */

#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

#define N     1024
#define NITER 100

static double value(int rank, int iter, int side, int i)
{
    return rank * 1.0e6 + iter * 1.0e3 + side * 0.5 + i * 1.0e-3;
}

int main(int argc, char *argv[])
{
    static double send_left[N], send_right[N], recv_left[N], recv_right[N];
    int rank, size, left, right, errors = 0, total = 0;
    MPI_Request reqs[4];
    MPI_Status statuses[4];
    MPI_Queue queue;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (rank - 1 + size) % size;
    right = (rank + 1) % size;

    if (MPI_SUCCESS != MPI_Queue_init(&queue, MPI_QUEUE_TYPE_DEFAULT, NULL)) {
        fprintf(stderr, "rank %d: MPI_Queue_init failed\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    MPI_Recv_init(recv_left, N, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &reqs[0]);
    MPI_Recv_init(recv_right, N, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &reqs[1]);
    MPI_Send_init(send_left, N, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &reqs[2]);
    MPI_Send_init(send_right, N, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &reqs[3]);

    for (int iter = 0; iter < NITER; iter++) {
        for (int i = 0; i < N; i++) {
            send_left[i] = value(rank, iter, 0, i);
            send_right[i] = value(rank, iter, 1, i);
        }
        MPI_Startall(2, &reqs[0]);
        MPI_Startall(2, &reqs[2]);
        MPI_Waitall(4, reqs, statuses);

        /* The left neighbour's send_right and the right neighbour's
         * send_left arrive here.  With 2 ranks both neighbours are one rank
         * and messages pair in posting order instead: recv_left gets its
         * send_left, recv_right its send_right. */
        for (int i = 0; i < N; i++) {
            double want_left = value(left, iter, 2 == size ? 0 : 1, i);
            double want_right = value(right, iter, 2 == size ? 1 : 0, i);
            if (recv_left[i] != want_left || recv_right[i] != want_right) {
                errors++;
            }
        }
        if (statuses[0].MPI_SOURCE != left || statuses[1].MPI_SOURCE != right) {
            errors++;
        }
    }

    for (int i = 0; i < 4; i++) {
        MPI_Request_free(&reqs[i]);
    }
    MPI_Queue_free(&queue);

    MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("ring: %d ranks, %d iterations of %d doubles each way: %s\n", size, NITER, N,
               0 == total ? "all data correct" : "DATA ERRORS");
    }
    MPI_Finalize();
    return 0 == total ? 0 : 1;
}
