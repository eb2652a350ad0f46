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
 * MPI_REQUEST_EMPTY under MPI_THREAD_MULTIPLE: several threads per rank
 * exchange small messages with the peer rank on a communicator carrying
 * mpi_recv_req_may_be_empty, skip the requests that come back empty (the
 * PaRSEC pattern) and complete the others, while also passing the shared
 * handle to the completion functions. Every message must arrive in order and
 * the handle must still give the empty status at the end.
 *
 * Ranks work in pairs (rank ^ 1); run with an even number of ranks.
 */

#include <pthread.h>

#include "common/qtest.h"

#define NTHREADS 4
#define ITERS 3000
#define BATCH 8

struct worker {
    int id;
    int peer;
    MPI_Comm comm;
    int failures;
    long empties;
};

static void *work(void *arg)
{
    struct worker *w = arg;
    MPI_Request reqs[2 * BATCH + 1], e; /* receives, sends, the shared empty handle */
    MPI_Status st;
    int sendv[BATCH], recvv[BATCH], expect = 0, next = 0, i, n, flag, it;

    for (it = 0; it < ITERS / BATCH; it++) {
        n = 0;
        for (i = 0; i < BATCH; i++) {
            recvv[i] = -1;
            if (MPI_SUCCESS
                != MPI_Irecv(&recvv[i], 1, MPI_INT, w->peer, w->id, w->comm, &reqs[n])) {
                w->failures++;
                return NULL;
            }
            if (MPI_REQUEST_EMPTY == reqs[n]) {
                /* the data must be there already */
                w->empties++;
                if (recvv[i] != expect + i) {
                    w->failures++;
                }
            } else {
                n++;
            }
        }
        for (i = 0; i < BATCH; i++) {
            sendv[i] = next++;
            if (MPI_SUCCESS
                != MPI_Isend(&sendv[i], 1, MPI_INT, w->peer, w->id, w->comm, &reqs[n])) {
                w->failures++;
                return NULL;
            }
            if (MPI_REQUEST_EMPTY == reqs[n]) {
                w->empties++;
            } else {
                n++;
            }
        }

        /* The shared handle, concurrently with the other threads. */
        e = MPI_REQUEST_EMPTY;
        flag = 0;
        st.MPI_SOURCE = -77;
        if (MPI_SUCCESS != MPI_Test(&e, &flag, &st) || !flag || MPI_REQUEST_NULL != e
            || MPI_ANY_SOURCE != st.MPI_SOURCE) {
            w->failures++;
        }
        reqs[n++] = MPI_REQUEST_EMPTY;

        if (MPI_SUCCESS != MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE)) {
            w->failures++;
            return NULL;
        }
        for (i = 0; i < BATCH; i++) {
            if (recvv[i] != expect + i) {
                w->failures++;
            }
        }
        expect += BATCH;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    struct worker w[NTHREADS];
    pthread_t tid[NTHREADS];
    MPI_Info info;
    MPI_Comm comm;
    MPI_Request e;
    MPI_Status st;
    int provided, rank, size, i;
    long empties = 0;

    qt_init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    QT_CHECK(MPI_THREAD_MULTIPLE == provided, "MPI_THREAD_MULTIPLE not provided (%d)", provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    QT_CHECK(0 == size % 2, "needs an even number of ranks, got %d", size);
    if (MPI_THREAD_MULTIPLE != provided || 0 != size % 2) {
        return qt_finalize();
    }

    QT_STEP("communicator with mpi_recv_req_may_be_empty");
    QT_OK(MPI_Info_create(&info));
    QT_OK(MPI_Info_set(info, "mpi_recv_req_may_be_empty", "true"));
    QT_OK(MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &comm));
    MPI_Info_free(&info);

    QT_STEP("threads exchanging");
    for (i = 0; i < NTHREADS; i++) {
        w[i].id = i;
        w[i].peer = rank ^ 1;
        w[i].comm = comm;
        w[i].failures = 0;
        w[i].empties = 0;
        QT_CHECK(0 == pthread_create(&tid[i], NULL, work, &w[i]), "pthread_create %d", i);
    }
    for (i = 0; i < NTHREADS; i++) {
        pthread_join(tid[i], NULL);
        QT_CHECK(0 == w[i].failures, "thread %d: %d failure(s)", i, w[i].failures);
        empties += w[i].empties;
    }
    QT_CHECK(empties > 0, "no operation returned MPI_REQUEST_EMPTY in %d", 2 * NTHREADS * ITERS);

    QT_STEP("handle intact afterwards");
    e = MPI_REQUEST_EMPTY;
    st.MPI_SOURCE = st.MPI_TAG = st.MPI_ERROR = -77;
    QT_OK(MPI_Wait(&e, &st));
    QT_CHECK(MPI_ANY_SOURCE == st.MPI_SOURCE && MPI_ANY_TAG == st.MPI_TAG, "status %d %d",
             st.MPI_SOURCE, st.MPI_TAG);
    QT_CHECK(MPI_REQUEST_NULL == e, "handle not reset");

    MPI_Comm_free(&comm);
    if (0 == rank) {
        printf("empties: %ld of %d operations\n", empties, 2 * NTHREADS * ITERS);
    }
    return qt_finalize();
}
