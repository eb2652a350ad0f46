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
 * MPI_THREAD_MULTIPLE: several threads per rank, each driving its own queue
 * with its own matched pairs (its own tag), concurrently.  Every call's
 * result is checked, and a thread reports its first failure (iteration,
 * call, result).  QTEST_QUEUE_THREADS_ITERS=N runs N iterations a thread
 * instead of 200 and QTEST_QUEUE_THREADS=T runs T threads (at most 8)
 * instead of 4: a longer, more crowded run finds races the default one may
 * miss.
 */

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/qtest.h"

#define NTHREADS_MAX 8
#define ITERS 200

static int rank, size, left, right, iters = ITERS, nthreads = 4;
static int thread_errors[NTHREADS_MAX];
static char thread_first[NTHREADS_MAX][160];

static void thread_failed(int t, int it, const char *what, int rc, int got, int want)
{
    if (0 == thread_errors[t]++) {
        snprintf(thread_first[t], sizeof(thread_first[t]),
                 "first at iteration %d: %s returned %d (received %d, want %d)", it, what, rc,
                 got, want);
    }
}

static void *worker(void *arg)
{
    int t = (int) (intptr_t) arg, s = 0, r = -1, rc;
    MPI_Request reqs[2];
    MPI_Queue q;

    if (MPI_SUCCESS != (rc = MPI_Queue_init(&q, MPI_QUEUE_TYPE_DEFAULT, NULL))) {
        thread_failed(t, -1, "MPI_Queue_init", rc, 0, 0);
        return NULL;
    }
    MPI_Recv_init(&r, 1, MPI_INT, left, 50 + t, MPI_COMM_WORLD, &reqs[0]);
    MPI_Send_init(&s, 1, MPI_INT, right, 50 + t, MPI_COMM_WORLD, &reqs[1]);
    if (MPI_SUCCESS != (rc = MPI_Matchall(2, reqs))) {
        thread_failed(t, -1, "MPI_Matchall", rc, 0, 0);
        return NULL;
    }
    for (int it = 0; it < iters; ++it) {
        int want = left * 100000 + t * 1000 + it % 1000;
        s = rank * 100000 + t * 1000 + it % 1000;
        if (MPI_SUCCESS != (rc = MPI_Enqueue_startall(&q, 2, reqs))) {
            thread_failed(t, it, "MPI_Enqueue_startall", rc, r, want);
        }
        if (MPI_SUCCESS != (rc = MPI_Enqueue_waitall(&q, 2, reqs, MPI_STATUSES_IGNORE))) {
            thread_failed(t, it, "MPI_Enqueue_waitall", rc, r, want);
        }
        if (MPI_SUCCESS != (rc = MPI_Queue_fence(&q)) || r != want) {
            thread_failed(t, it, "MPI_Queue_fence", rc, r, want);
        }
    }
    MPI_Request_free(&reqs[0]);
    MPI_Request_free(&reqs[1]);
    MPI_Queue_free(&q);
    return NULL;
}

int main(int argc, char **argv)
{
    pthread_t threads[NTHREADS_MAX];
    int provided;

    qt_init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (rank - 1 + size) % size;
    right = (rank + 1) % size;
    QT_CHECK(MPI_THREAD_MULTIPLE == provided, "provided thread level %d", provided);

    if (NULL != getenv("QTEST_QUEUE_THREADS_ITERS")) {
        iters = atoi(getenv("QTEST_QUEUE_THREADS_ITERS"));
    }
    if (NULL != getenv("QTEST_QUEUE_THREADS")) {
        nthreads = atoi(getenv("QTEST_QUEUE_THREADS"));
        nthreads = nthreads < 1 ? 1 : nthreads > NTHREADS_MAX ? NTHREADS_MAX : nthreads;
    }

    QT_STEP("threads with a queue each");
    for (int t = 0; t < nthreads; ++t) {
        pthread_create(&threads[t], NULL, worker, (void *) (intptr_t) t);
    }
    for (int t = 0; t < nthreads; ++t) {
        pthread_join(threads[t], NULL);
        QT_CHECK(0 == thread_errors[t], "thread %d: %d errors, %s", t, thread_errors[t],
                 thread_first[t]);
    }
    return qt_finalize();
}
