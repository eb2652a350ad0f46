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
 * The chapter's Example 13.1: a ring exchange with a queue.  The requests
 * are matched once; each iteration enqueues the starts of the receives, the
 * starts of the sends and one wait for all four; a fence ends the run.
 * Unlike the example, this one checks every received value, and so fences
 * after each iteration that changes the send data (every 10th here: the
 * others resend the same data without a fence in between).  As the chapter's
 * bindings say, the queue is passed by address (the example passes it by
 * value in three places).
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

    /* Match all requests once, removing per-iteration tag matching and
     * buffer negotiation from the communication critical path */
    MPI_Matchall(4, reqs);

    for (int iter = 0; iter < NITER; iter++) {
        int epoch = iter / 10;
        if (0 == iter % 10) {
            for (int i = 0; i < N; i++) {
                send_left[i] = value(rank, epoch, 0, i);
                send_right[i] = value(rank, epoch, 1, i);
            }
        }
        MPI_Enqueue_startall(&queue, 2, &reqs[0]);
        MPI_Enqueue_startall(&queue, 2, &reqs[2]);
        MPI_Enqueue_waitall(&queue, 4, reqs, statuses);
        if (9 != iter % 10) {
            continue;
        }
        MPI_Queue_fence(&queue);

        /* The left neighbour's send_right and the right neighbour's
         * send_left arrive here.  With 2 ranks both neighbours are one rank
         * and messages pair in match order instead: recv_left gets its
         * send_left, recv_right its send_right. */
        for (int i = 0; i < N; i++) {
            double want_left = value(left, epoch, 2 == size ? 0 : 1, i);
            double want_right = value(right, epoch, 2 == size ? 1 : 0, i);
            if (recv_left[i] != want_left || recv_right[i] != want_right) {
                errors++;
            }
        }
        if (statuses[0].MPI_SOURCE != left || statuses[1].MPI_SOURCE != right) {
            errors++;
        }
    }

    /* Block until all enqueued communication operations complete */
    MPI_Queue_fence(&queue);

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
