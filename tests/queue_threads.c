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
 * with its own matched pairs (its own tag), concurrently.
 */

#include <pthread.h>
#include <stdint.h>

#include "common/qtest.h"

#define NTHREADS 4
#define ITERS 200

static int rank, size, left, right;
static int thread_errors[NTHREADS];

static void *worker(void *arg)
{
    int t = (int) (intptr_t) arg, s = 0, r = -1;
    MPI_Request reqs[2];
    MPI_Queue q;

    if (MPI_SUCCESS != MPI_Queue_init(&q, MPI_QUEUE_TYPE_DEFAULT, NULL)) {
        thread_errors[t]++;
        return NULL;
    }
    MPI_Recv_init(&r, 1, MPI_INT, left, 50 + t, MPI_COMM_WORLD, &reqs[0]);
    MPI_Send_init(&s, 1, MPI_INT, right, 50 + t, MPI_COMM_WORLD, &reqs[1]);
    if (MPI_SUCCESS != MPI_Matchall(2, reqs)) {
        thread_errors[t]++;
        return NULL;
    }
    for (int it = 0; it < ITERS; ++it) {
        s = rank * 100000 + t * 1000 + it;
        MPI_Enqueue_startall(&q, 2, reqs);
        MPI_Enqueue_waitall(&q, 2, reqs, MPI_STATUSES_IGNORE);
        if (MPI_SUCCESS != MPI_Queue_fence(&q) || r != left * 100000 + t * 1000 + it) {
            thread_errors[t]++;
        }
    }
    MPI_Request_free(&reqs[0]);
    MPI_Request_free(&reqs[1]);
    MPI_Queue_free(&q);
    return NULL;
}

int main(int argc, char **argv)
{
    pthread_t threads[NTHREADS];
    int provided;

    qt_init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (rank - 1 + size) % size;
    right = (rank + 1) % size;
    QT_CHECK(MPI_THREAD_MULTIPLE == provided, "provided thread level %d", provided);

    QT_STEP("threads with a queue each");
    for (int t = 0; t < NTHREADS; ++t) {
        pthread_create(&threads[t], NULL, worker, (void *) (intptr_t) t);
    }
    for (int t = 0; t < NTHREADS; ++t) {
        pthread_join(threads[t], NULL);
        QT_CHECK(0 == thread_errors[t], "thread %d: %d errors", t, thread_errors[t]);
    }
    return qt_finalize();
}
