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
 * The enqueue calls alone, for instruction counts (bench/callgrind-enqueue.sh):
 * one rank exchanges one int with itself through a matched send and receive,
 * MPI_Enqueue_startall + MPI_Enqueue_waitall + MPI_Queue_fence per iteration,
 * on a default queue.  With queue/emulated loaded the queue runs on the
 * stream engine with an emulated stream (the path of a GPU queue); the
 * fence, which waits for the stream's thread, is the only call that polls.
 * Exits 1 when a value did not arrive.
 */

#include <mpi.h>
#include <stdio.h>

#define ITERS 2000

/* the counted loop (callgrind --toggle-collect=exchange) */
static __attribute__((noinline)) int exchange(MPI_Queue *q, MPI_Request *r, int *out,
                                              const int *in, int n)
{
    int bad = 0;

    for (int i = 0; i < n; ++i) {
        *out = i;
        MPI_Enqueue_startall(q, 2, r);
        MPI_Enqueue_waitall(q, 2, r, MPI_STATUSES_IGNORE);
        MPI_Queue_fence(q);
        bad += (*in != i);
    }
    return bad;
}

static __attribute__((noinline)) int warmup(MPI_Queue *q, MPI_Request *r, int *out,
                                            const int *in)
{
    return exchange(q, r, out, in, 100);
}

int main(int argc, char **argv)
{
    int out = 0, in = -1, bad;
    MPI_Request r[2];
    MPI_Queue q;

    MPI_Init(&argc, &argv);
    MPI_Queue_init(&q, MPI_QUEUE_TYPE_DEFAULT, NULL);
    MPI_Recv_init(&in, 1, MPI_INT, 0, 3, MPI_COMM_SELF, &r[1]);
    MPI_Send_init(&out, 1, MPI_INT, 0, 3, MPI_COMM_SELF, &r[0]);
    MPI_Matchall(2, r);
    bad = warmup(&q, r, &out, &in);
    bad += exchange(&q, r, &out, &in, ITERS);
    MPI_Request_free(&r[0]);
    MPI_Request_free(&r[1]);
    MPI_Queue_free(&q);
    MPI_Finalize();
    if (0 != bad) {
        fprintf(stderr, "enqueue_calls: %d values did not arrive\n", bad);
        return 1;
    }
    return 0;
}
