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
 * The queues' hand-offs under load, MPI_THREAD_MULTIPLE: OWN threads a rank
 * each drive a queue of their own, SHARED threads enqueue their sends on
 * one queue they all use at once (the chapter lets threads use a queue
 * concurrently) and their receives on a queue of their own.  Every thread
 * has its matched pair in a ring (its own tag) and, in each iteration,
 * enqueues its starts and waits, fences, and checks the data and the
 * receive's status.  Interleaved with that traffic:
 *   - a refused MPI_Cancel of its receive while the enqueued start is
 *     pending (MPI_ERR_REQUEST, the request left as it was);
 *   - every CANCEL_EVERY iterations a plain receive nobody sends to,
 *     cancelled (MPI_Test_cancelled must say so);
 *   - every FREE_EVERY iterations its requests freed, made again and
 *     matched again (MPI_Matchall), and every QUEUE_EVERY its own queue
 *     freed and made again.
 * A thread counts every failure and keeps the first (iteration, call,
 * result).  QTEST_STRESS_ITERS=N sets the iterations a thread; the
 * default makes 10^5 queue operations a rank (enqueued starts and waits,
 * fences: 5 an iteration on an own queue, 6 on the shared one); the TSan
 * pass runs a reduced count.  Run
 * with the progress thread on (recipe "progress") or off.
 */

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/qtest.h"

#define NOWN         4
#define NSHARED      2
#define NTHREADS     (NOWN + NSHARED)
#define CANCEL_EVERY 16
#define FREE_EVERY   64
#define QUEUE_EVERY  256
#define TAG_BASE     100
#define TAG_NOBODY   900

static int rank, size, left, right;
/* queue operations an iteration: 2 enqueued starts, 2 waits, the own
 * queue's fence, and the shared queue's fence for its threads */
#define OPS_AN_ITERATION (5 * NOWN + 6 * NSHARED)
static int iters = (100000 + OPS_AN_ITERATION - 1) / OPS_AN_ITERATION;
static MPI_Queue shared_queue;
static int thread_errors[NTHREADS];
static char thread_first[NTHREADS][200];
static char join_step[NTHREADS][64];

typedef struct {
    int t;
    int shared;             /* sends on shared_queue */
    MPI_Queue own;
    MPI_Request reqs[2];    /* receive, send */
    int s, r;
} worker_t;

static void thread_failed(worker_t *w, int it, const char *what, int rc, int got, int want)
{
    if (0 == thread_errors[w->t]++) {
        snprintf(thread_first[w->t], sizeof(thread_first[w->t]),
                 "first at iteration %d: %s returned %d (got %d, want %d)", it, what, rc, got,
                 want);
    }
}

static int class_of(int rc)
{
    int cls = rc;

    if (MPI_SUCCESS != rc) {
        MPI_Error_class(rc, &cls);
    }
    return cls;
}

static int pair_make(worker_t *w, int it)
{
    int rc, tag = TAG_BASE + w->t;

    if (MPI_SUCCESS != (rc = MPI_Recv_init(&w->r, 1, MPI_INT, left, tag, MPI_COMM_WORLD,
                                           &w->reqs[0]))
        || MPI_SUCCESS != (rc = MPI_Send_init(&w->s, 1, MPI_INT, right, tag, MPI_COMM_WORLD,
                                              &w->reqs[1]))) {
        thread_failed(w, it, "MPI_Recv_init/MPI_Send_init", rc, 0, 0);
        return rc;
    }
    if (MPI_SUCCESS != (rc = MPI_Matchall(2, w->reqs))) {
        thread_failed(w, it, "MPI_Matchall", rc, 0, 0);
    }
    return rc;
}

static void pair_free(worker_t *w, int it)
{
    for (int i = 0; i < 2; ++i) {
        int rc = MPI_Request_free(&w->reqs[i]);

        if (MPI_SUCCESS != rc || MPI_REQUEST_NULL != w->reqs[i]) {
            thread_failed(w, it, "MPI_Request_free", rc, 0, 0);
        }
    }
}

/* a receive nobody sends to, cancelled while the queues run */
static void plain_cancel(worker_t *w, int it)
{
    MPI_Request req;
    MPI_Status st;
    int rc, flag = 0, dummy;

    if (MPI_SUCCESS != (rc = MPI_Irecv(&dummy, 1, MPI_INT, left, TAG_NOBODY + w->t,
                                       MPI_COMM_WORLD, &req))
        || MPI_SUCCESS != (rc = MPI_Cancel(&req)) || MPI_SUCCESS != (rc = MPI_Wait(&req, &st))
        || MPI_SUCCESS != (rc = MPI_Test_cancelled(&st, &flag)) || !flag) {
        thread_failed(w, it, "cancel of a plain receive (MPI_Test_cancelled)", rc, flag, 1);
    }
}

static void iteration(worker_t *w, int it)
{
    MPI_Queue *sq = w->shared ? &shared_queue : &w->own;
    MPI_Status st;
    int rc, count = -1, want = left * 1000000 + w->t * 100000 + it % 100000;

    w->s = rank * 1000000 + w->t * 100000 + it % 100000;
    w->r = -1;
    if (MPI_SUCCESS != (rc = MPI_Enqueue_start(&w->own, &w->reqs[0]))) {
        thread_failed(w, it, "MPI_Enqueue_start (receive)", rc, 0, 0);
    }
    if (MPI_SUCCESS != (rc = MPI_Enqueue_start(sq, &w->reqs[1]))) {
        thread_failed(w, it, "MPI_Enqueue_start (send)", rc, 0, 0);
    }
    /* erroneous while the start is pending: refused, nothing changed */
    if (MPI_ERR_REQUEST != class_of(rc = MPI_Cancel(&w->reqs[0]))) {
        thread_failed(w, it, "MPI_Cancel of a receive whose start is pending", class_of(rc), 0,
                      MPI_ERR_REQUEST);
    }
    if (MPI_SUCCESS != (rc = MPI_Enqueue_wait(sq, &w->reqs[1], MPI_STATUS_IGNORE))) {
        thread_failed(w, it, "MPI_Enqueue_wait (send)", rc, 0, 0);
    }
    if (MPI_SUCCESS != (rc = MPI_Enqueue_wait(&w->own, &w->reqs[0], &st))) {
        thread_failed(w, it, "MPI_Enqueue_wait (receive)", rc, 0, 0);
    }
    if (MPI_SUCCESS != (rc = MPI_Queue_fence(&w->own))) {
        thread_failed(w, it, "MPI_Queue_fence (own queue)", rc, 0, 0);
    }
    if (w->shared && MPI_SUCCESS != (rc = MPI_Queue_fence(sq))) {
        thread_failed(w, it, "MPI_Queue_fence (shared queue)", rc, 0, 0);
    }
    if (want != w->r) {
        thread_failed(w, it, "the received value", MPI_SUCCESS, w->r, want);
    }
    MPI_Get_count(&st, MPI_INT, &count);
    if (left != st.MPI_SOURCE || TAG_BASE + w->t != st.MPI_TAG || MPI_SUCCESS != st.MPI_ERROR
        || 1 != count) {
        thread_failed(w, it, "the receive's status (source; tag, error, count checked too)", st.MPI_ERROR, st.MPI_SOURCE, left);
    }
}

static void *worker(void *arg)
{
    worker_t *w = arg;
    int rc;

    if (MPI_SUCCESS != (rc = MPI_Queue_init(&w->own, MPI_QUEUE_TYPE_DEFAULT, NULL))) {
        thread_failed(w, -1, "MPI_Queue_init", rc, 0, 0);
        return NULL;
    }
    if (MPI_SUCCESS != pair_make(w, -1)) {
        return NULL;
    }
    for (int it = 0; it < iters; ++it) {
        iteration(w, it);
        if (0 == (it + 1) % CANCEL_EVERY) {
            plain_cancel(w, it);
        }
        if (0 == (it + 1) % FREE_EVERY && it + 1 < iters) {
            pair_free(w, it);
            if (MPI_SUCCESS != pair_make(w, it)) {
                return NULL;
            }
        }
        if (0 == (it + 1) % QUEUE_EVERY) {
            if (MPI_SUCCESS != (rc = MPI_Queue_free(&w->own))
                || MPI_SUCCESS != (rc = MPI_Queue_init(&w->own, MPI_QUEUE_TYPE_DEFAULT, NULL))) {
                thread_failed(w, it, "MPI_Queue_free/MPI_Queue_init", rc, 0, 0);
                return NULL;
            }
        }
    }
    pair_free(w, iters);
    if (MPI_SUCCESS != (rc = MPI_Queue_free(&w->own))) {
        thread_failed(w, iters, "MPI_Queue_free", rc, 0, 0);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    pthread_t threads[NTHREADS];
    worker_t workers[NTHREADS];
    int provided, total_errors = 0;

    qt_init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (rank - 1 + size) % size;
    right = (rank + 1) % size;
    if (MPI_THREAD_MULTIPLE != provided) {
        QT_CHECK(0, "provided thread level %d, want MPI_THREAD_MULTIPLE", provided);
        return qt_finalize();
    }
    if (NULL != getenv("QTEST_STRESS_ITERS")) {
        iters = atoi(getenv("QTEST_STRESS_ITERS"));
        iters = iters < 1 ? 1 : iters;
    }

    QT_STEP("MPI_Queue_init of the shared queue");
    QT_OK(MPI_Queue_init(&shared_queue, MPI_QUEUE_TYPE_DEFAULT, NULL));
    QT_STEP("the threads start");
    for (int t = 0; t < NTHREADS; ++t) {
        workers[t] = (worker_t) {.t = t, .shared = t >= NOWN};
        snprintf(join_step[t], sizeof(join_step[t]), "thread %d (%s queue) finishes", t,
                 t >= NOWN ? "shared" : "own");
        pthread_create(&threads[t], NULL, worker, &workers[t]);
    }
    for (int t = 0; t < NTHREADS; ++t) {
        QT_STEP(join_step[t]);
        pthread_join(threads[t], NULL);
        QT_CHECK(0 == thread_errors[t], "thread %d (%s queue): %d errors, %s", t,
                 workers[t].shared ? "shared" : "own", thread_errors[t], thread_first[t]);
        total_errors += thread_errors[t];
    }
    QT_STEP("MPI_Queue_free of the shared queue");
    QT_OK(MPI_Queue_free(&shared_queue));
    if (0 == rank && 0 == total_errors) {
        printf("queue_stress: %d threads (%d on one shared queue), %d queue operations and %d "
               "messages a rank, checked\n", NTHREADS, NSHARED, OPS_AN_ITERATION * iters,
               NTHREADS * iters);
    }
    return qt_finalize();
}
