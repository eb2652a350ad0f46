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
 * S23 (spec section 3.3): queues and MPIX streams side by side.  The
 * chapter's ring runs on an MPI_Queue while a stream runs 100 sendrecvs on
 * the same communicator (other tags); both are correct.  A persistent
 * execution request is born unmatched: MPI_Is_matched gives 0 and
 * MPI_Enqueue_start refuses it with MPI_ERR_REQUEST (it is never matched in
 * this step: the spec's option "refuse").
 */

#include "common/qtest.h"
#include <mpi-ext.h>

#define N 16
#define ITERS 100

int main(int argc, char **argv)
{
    static int sbuf[ITERS], rbuf[ITERS];
    double sl[N], sr[N], rl[N], rr[N];
    MPI_Request reqs[4], ex;
    MPI_Queue q;
    MPIX_Stream s;
    MPIX_Token t;
    int rank, size, left, right, errors = 0, flag = -1;

    qt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (rank - 1 + size) % size;
    right = (rank + 1) % size;

    QT_STEP("S23: ring on a queue while a stream runs 100 sendrecvs");
    QT_OK(MPI_Queue_init(&q, MPI_QUEUE_TYPE_DEFAULT, NULL));
    MPI_Recv_init(rl, N, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &reqs[0]);
    MPI_Recv_init(rr, N, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &reqs[1]);
    MPI_Send_init(sl, N, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &reqs[2]);
    MPI_Send_init(sr, N, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &reqs[3]);
    QT_OK(MPI_Matchall(4, reqs));
    QT_OK(MPIX_Stream_create(MPI_SESSION_NULL, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &s));
    for (int i = 0; i < ITERS; ++i) {
        sbuf[i] = rank * 1000 + i;
        rbuf[i] = -1;
        QT_OK(MPIX_Sendrecv_def(&sbuf[i], 1, MPI_INT, right, 23, &rbuf[i], 1, MPI_INT, left, 23,
                                MPI_COMM_WORLD, MPI_STATUS_IGNORE, &t));
        QT_OK(MPIX_Stream_enqueue(s, &t));
    }
    for (int it = 0; it < ITERS; ++it) {
        for (int k = 0; k < N; ++k) {
            sl[k] = sr[k] = rank * 10000 + it * 100 + k;
        }
        QT_OK(MPI_Enqueue_startall(&q, 4, reqs));
        QT_OK(MPI_Enqueue_waitall(&q, 4, reqs, MPI_STATUSES_IGNORE));
        QT_OK(MPI_Queue_fence(&q));
        for (int k = 0; k < N; ++k) {
            if (rl[k] != left * 10000 + it * 100 + k || rr[k] != right * 10000 + it * 100 + k) {
                errors++;
            }
        }
    }
    QT_CHECK(0 == errors, "%d wrong ring values", errors);
    QT_OK(MPIX_Stream_sync(s));
    for (int i = 0; i < ITERS; ++i) {
        QT_CHECK(left * 1000 + i == rbuf[i], "stream sendrecv %d received %d", i, rbuf[i]);
    }

    QT_STEP("S23: an execution request is unmatched and cannot be enqueued");
    QT_OK(MPIX_Barrier_def(MPI_COMM_SELF, &t));
    QT_OK(MPIX_Execute_init(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &ex));
    QT_OK(MPI_Is_matched(ex, &flag));
    QT_CHECK(0 == flag, "MPI_Is_matched gave %d", flag);
    QT_CHECK_RC(MPI_Enqueue_start(&q, &ex), MPI_ERR_REQUEST);
    /* still an ordinary persistent request */
    QT_OK(MPI_Start(&ex));
    QT_OK(MPI_Wait(&ex, MPI_STATUS_IGNORE));
    QT_OK(MPI_Request_free(&ex));
    QT_OK(MPIX_Token_free(&t));

    for (int k = 0; k < 4; ++k) {
        MPI_Request_free(&reqs[k]);
    }
    QT_OK(MPI_Queue_free(&q));
    QT_OK(MPIX_Stream_free(&s));
    return qt_finalize();
}
