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
 * Queue and request handles crossing between C and Fortran (the C half;
 * queue_handles.f90 is the Fortran half, "use mpi_f08" and mpif.h-style
 * integers):
 *   - the Fortran constants MPI_QUEUE_NULL and MPI_REQUEST_EMPTY are the
 *     Fortran indices of the C objects;
 *   - a queue and matched requests made in C are used from Fortran
 *     (enqueued starts and waits, statuses written into C memory), then
 *     again from C;
 *   - a queue made in Fortran is used and freed from C, after which the
 *     Fortran handle is refused with MPI_ERR_ARG.
 */

#include "common/qtest.h"

#define N 256

/* The Fortran half (BIND(C) procedures of queue_handles.f90) */
extern void qf_check_constants(MPI_Fint queue_null, MPI_Fint request_empty, int *failures);
extern void qf_ring(MPI_Fint queue, MPI_Fint *reqs, int *statuses, int *failures);
extern void qf_make_queue(MPI_Fint *queue, int *failures);
extern void qf_free_freed_queue(MPI_Fint queue, int *failures);

static int rank, size, left, right;
static double sl[N], sr[N], rl[N], rr[N];

static void fill(int iter)
{
    for (int i = 0; i < N; ++i) {
        sl[i] = 1000.0 * rank + iter + i / 1000.0;
        sr[i] = -(1000.0 * rank + iter + i / 1000.0);
        rl[i] = rr[i] = 0.0;
    }
}

static void check_ring(int iter, MPI_Status *st)
{
    int count;

    for (int i = 0; i < N; ++i) {
        if (rl[i] != -(1000.0 * left + iter + i / 1000.0)
            || rr[i] != 1000.0 * right + iter + i / 1000.0) {
            QT_CHECK(0, "ring data of iteration %d wrong at %d", iter, i);
            break;
        }
    }
    QT_CHECK(left == st[0].MPI_SOURCE && 1 == st[0].MPI_TAG, "status 0: source %d tag %d",
             st[0].MPI_SOURCE, st[0].MPI_TAG);
    QT_CHECK(right == st[1].MPI_SOURCE && 2 == st[1].MPI_TAG, "status 1: source %d tag %d",
             st[1].MPI_SOURCE, st[1].MPI_TAG);
    MPI_Get_count(&st[0], MPI_DOUBLE, &count);
    QT_CHECK(N == count, "status 0: count %d", count);
}

int main(int argc, char **argv)
{
    MPI_Queue q = MPI_QUEUE_NULL, fq;
    MPI_Request reqs[4];
    MPI_Fint freqs[4], fqueue = -1;
    MPI_Status st[4];
    int ffail = 0;

    qt_init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    rank = qt_rank;
    left = (rank - 1 + size) % size;
    right = (rank + 1) % size;

    QT_STEP("Fortran constants against the C handles");
    qf_check_constants(MPI_Queue_c2f(MPI_QUEUE_NULL), MPI_Request_c2f(MPI_REQUEST_EMPTY), &ffail);

    QT_STEP("a queue and matched requests made in C");
    QT_OK(MPI_Queue_init(&q, MPI_QUEUE_TYPE_DEFAULT, NULL));
    MPI_Recv_init(rl, N, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &reqs[0]);
    MPI_Recv_init(rr, N, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &reqs[1]);
    MPI_Send_init(sl, N, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &reqs[2]);
    MPI_Send_init(sr, N, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &reqs[3]);
    QT_OK(MPI_Matchall(4, reqs));
    for (int i = 0; i < 4; ++i) {
        freqs[i] = MPI_Request_c2f(reqs[i]);
    }

    QT_STEP("the C queue used from Fortran");
    fill(1);
    qf_ring(MPI_Queue_c2f(q), freqs, (int *) st, &ffail);
    check_ring(1, st);

    QT_STEP("the same queue and requests from C again");
    fill(2);
    QT_OK(MPI_Enqueue_startall(&q, 4, reqs));
    QT_OK(MPI_Enqueue_waitall(&q, 4, reqs, st));
    QT_OK(MPI_Queue_fence(&q));
    check_ring(2, st);
    QT_OK(MPI_Queue_free(&q));

    QT_STEP("a queue made in Fortran used from C");
    qf_make_queue(&fqueue, &ffail);
    fq = MPI_Queue_f2c(fqueue);
    QT_CHECK(NULL != fq && MPI_QUEUE_NULL != fq, "MPI_Queue_f2c of the Fortran queue %d",
             (int) fqueue);
    QT_CHECK(MPI_Queue_c2f(fq) == fqueue, "c2f(f2c(%d)) is %d", (int) fqueue,
             (int) MPI_Queue_c2f(fq));
    fill(3);
    QT_OK(MPI_Enqueue_startall(&fq, 2, &reqs[0]));
    QT_OK(MPI_Enqueue_startall(&fq, 2, &reqs[2]));
    QT_OK(MPI_Enqueue_waitall(&fq, 4, reqs, st));
    QT_OK(MPI_Queue_fence(&fq));
    check_ring(3, st);
    QT_OK(MPI_Queue_free(&fq));
    QT_CHECK(MPI_QUEUE_NULL == fq, "MPI_Queue_free did not set MPI_QUEUE_NULL");

    QT_STEP("the Fortran handle of a queue freed in C");
    qf_free_freed_queue(fqueue, &ffail);

    for (int i = 0; i < 4; ++i) {
        MPI_Request_free(&reqs[i]);
    }
    QT_CHECK(0 == ffail, "%d failure(s) in the Fortran half", ffail);
    return qt_finalize();
}
