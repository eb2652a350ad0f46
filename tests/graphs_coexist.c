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
 * MPI_Enqueue_start refuses it with MPI_ERR_REQUEST.  S23b: once matched
 * (MPI_Match, local for a token without a communicator) it is ordered on a
 * queue like any matched request: its callback runs after the first
 * exchange's wait and before the second exchange's start, every round.
 */

#include "common/qtest.h"
#include <mpi-ext.h>

#define N 16
#define ITERS 100

static int *rbuf1, *rbuf2, seen[2], ncalls;

/* S23b: runs between the two exchanges of the queue */
static int between(MPIX_Graph graph, void *extra)
{
    (void) graph;
    (void) extra;
    seen[0] = *rbuf1;
    seen[1] = *rbuf2;
    ncalls++;
    return MPI_SUCCESS;
}

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

    QT_STEP("S23b: a matched execution request ordered on a queue between two exchanges");
    {
        static int s1, r1, s2, r2;
        MPI_Request p1[2], p2[2];
        int rc;
        s1 = rank + 100;
        s2 = rank + 200;
        r1 = r2 = -1;
        seen[0] = seen[1] = -7;
        ncalls = 0;
        MPI_Recv_init(&r1, 1, MPI_INT, left, 31, MPI_COMM_WORLD, &p1[0]);
        MPI_Send_init(&s1, 1, MPI_INT, right, 31, MPI_COMM_WORLD, &p1[1]);
        MPI_Recv_init(&r2, 1, MPI_INT, left, 32, MPI_COMM_WORLD, &p2[0]);
        MPI_Send_init(&s2, 1, MPI_INT, right, 32, MPI_COMM_WORLD, &p2[1]);
        QT_OK(MPI_Matchall(2, p1));
        QT_OK(MPI_Matchall(2, p2));
        rbuf1 = &r1;
        rbuf2 = &r2;
        QT_OK(MPIX_Op_def(between, NULL, &t));
        QT_OK(MPIX_Execute_init(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &ex));
        QT_OK(MPIX_Token_free(&t));
        /* a local token: its request lives on MPI_COMM_SELF, so matching is
         * local */
        rc = MPI_Match(&ex);
        QT_CHECK(MPI_SUCCESS == rc, "MPI_Match of an execution request returned %d", rc);
        if (MPI_SUCCESS == rc) {
            QT_OK(MPI_Is_matched(ex, &flag));
            QT_CHECK(1 == flag, "MPI_Is_matched after MPI_Match gave %d", flag);
            for (int round = 0; round < 2; ++round) {
                QT_OK(MPI_Enqueue_startall(&q, 2, p1));
                QT_OK(MPI_Enqueue_waitall(&q, 2, p1, MPI_STATUSES_IGNORE));
                QT_OK(MPI_Enqueue_start(&q, &ex));
                QT_OK(MPI_Enqueue_wait(&q, &ex, MPI_STATUS_IGNORE));
                QT_OK(MPI_Enqueue_startall(&q, 2, p2));
                QT_OK(MPI_Enqueue_waitall(&q, 2, p2, MPI_STATUSES_IGNORE));
                QT_OK(MPI_Queue_fence(&q));
                QT_CHECK(round + 1 == ncalls, "round %d: the callback ran %d times", round, ncalls);
                QT_CHECK(left + 100 == seen[0], "the callback ran before the first exchange "
                         "completed (saw %d)", seen[0]);
                QT_CHECK(0 != round || -1 == seen[1], "the callback ran after the second exchange "
                         "(saw %d)", seen[1]);
                QT_CHECK(left + 200 == r2, "second exchange received %d", r2);
                r1 = -1;
            }
        }
        QT_OK(MPI_Request_free(&ex));
        for (int k = 0; k < 2; ++k) {
            MPI_Request_free(&p1[k]);
            MPI_Request_free(&p2[k]);
        }
    }

    for (int k = 0; k < 4; ++k) {
        MPI_Request_free(&reqs[k]);
    }
    QT_OK(MPI_Queue_free(&q));
    QT_OK(MPIX_Stream_free(&s));
    return qt_finalize();
}
