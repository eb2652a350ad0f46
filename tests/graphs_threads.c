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
 * S18 (spec section 3.3), MPI_THREAD_MULTIPLE: two threads each enqueue
 * 1000 callbacks (thread id, sequence number) on one stream while a third
 * calls MPIX_Stream_sync again and again; every callback runs once, each
 * thread's in its own order; the final sync succeeds.  Then PTHREAD-located
 * streams (allowed under MPI_THREAD_MULTIPLE) with an exchange between
 * ranks.
 */

#include <pthread.h>
#include <stdint.h>

#include "common/qtest.h"
#include <mpi-ext.h>

#define PER_THREAD 1000

static int rank, size;
static MPIX_Stream shared_stream;
static int entries[2 * PER_THREAD][2];
static int seen[2 * PER_THREAD + 1][2];
static int nseen = 0;
static volatile int enqueuers_done = 0;
static int thread_errors[3];

/* callbacks of one stream run one at a time: the log needs no lock */
static int record(MPIX_Graph graph, void *extra)
{
    int *e = (int *) extra;
    (void) graph;
    if (nseen < 2 * PER_THREAD + 1) {
        seen[nseen][0] = e[0];
        seen[nseen][1] = e[1];
        nseen++;
    }
    return MPI_SUCCESS;
}

static void *enqueuer(void *arg)
{
    int id = (int) (intptr_t) arg;

    for (int i = 0; i < PER_THREAD; ++i) {
        int *e = entries[id * PER_THREAD + i];
        MPIX_Token t;
        e[0] = id;
        e[1] = i;
        if (MPI_SUCCESS != MPIX_Op_def(record, e, &t)
            || MPI_SUCCESS != MPIX_Stream_enqueue(shared_stream, &t)) {
            thread_errors[id]++;
        }
    }
    __atomic_add_fetch(&enqueuers_done, 1, __ATOMIC_SEQ_CST);
    return NULL;
}

static void *syncer(void *arg)
{
    (void) arg;
    while (__atomic_load_n(&enqueuers_done, __ATOMIC_SEQ_CST) < 2) {
        if (MPI_SUCCESS != MPIX_Stream_sync(shared_stream)) {
            thread_errors[2]++;
        }
    }
    return NULL;
}

static void s18(void)
{
    pthread_t th[3];
    int next[2] = {0, 0};

    QT_STEP("S18: two enqueuing threads and a syncing thread on one stream");
    QT_OK(MPIX_Stream_create(MPI_SESSION_NULL, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL,
                             &shared_stream));
    pthread_create(&th[2], NULL, syncer, NULL);
    pthread_create(&th[0], NULL, enqueuer, (void *) (intptr_t) 0);
    pthread_create(&th[1], NULL, enqueuer, (void *) (intptr_t) 1);
    for (int i = 0; i < 3; ++i) {
        pthread_join(th[i], NULL);
        QT_CHECK(0 == thread_errors[i], "thread %d: %d failed calls", i, thread_errors[i]);
    }
    QT_OK(MPIX_Stream_sync(shared_stream));
    QT_CHECK(2 * PER_THREAD == nseen, "%d callbacks ran, expected %d", nseen, 2 * PER_THREAD);
    for (int i = 0; i < nseen; ++i) {
        int id = seen[i][0];
        QT_CHECK(0 <= id && id < 2 && seen[i][1] == next[id], "entry %d: thread %d seq %d, expected %d",
                 i, id, seen[i][1], (0 <= id && id < 2) ? next[id] : -1);
        if (0 <= id && id < 2) {
            next[id] = seen[i][1] + 1;
        }
    }
    QT_OK(MPIX_Stream_free(&shared_stream));
}

static void pthread_streams(void)
{
    MPIX_Stream s;
    MPIX_Token t;
    int right = (rank + 1) % size, left = (rank - 1 + size) % size, sv, rv = -1;

    QT_STEP("PTHREAD stream under MPI_THREAD_MULTIPLE: sendrecv ring");
    QT_OK(MPIX_Stream_create(MPI_SESSION_NULL, MPI_INFO_NULL, MPIX_OFFLOAD_PTHREAD, NULL, &s));
    for (int i = 0; i < 20; ++i) {
        sv = rank * 100 + i;
        QT_OK(MPIX_Sendrecv_def(&sv, 1, MPI_INT, right, 4, &rv, 1, MPI_INT, left, 4,
                                MPI_COMM_WORLD, MPI_STATUS_IGNORE, &t));
        QT_OK(MPIX_Stream_enqueue(s, &t));
        QT_OK(MPIX_Stream_sync(s));
        QT_CHECK(left * 100 + i == rv, "iteration %d received %d", i, rv);
    }
    QT_OK(MPIX_Stream_free(&s));
}

int main(int argc, char **argv)
{
    int provided;

    qt_init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    QT_CHECK(MPI_THREAD_MULTIPLE == provided, "provided thread level %d", provided);
    s18();
    pthread_streams();
    return qt_finalize();
}
