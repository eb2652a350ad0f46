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
 * The hand-off between the completion of a matched request and its
 * MPI_Request_free, under MPI_THREAD_MULTIPLE with the progress thread
 * (run with mpi_async_progress=1): completions then run in the progress
 * thread while the program waits and frees in its own threads.
 *
 *   - wait, then free at once: the free releases the request while the
 *     completion may still be returning in the progress thread;
 *   - free while active: the completion, in whichever thread, releases it;
 *   - both at once from several program threads, each on its own pair.
 *
 * A completion that touches a released request reads freed memory; the
 * runner sets MALLOC_PERTURB_ and disables glibc's per-thread cache so that
 * such a read sees garbage and the double release that follows aborts.
 * Every message is also checked.  Ranks 0 and 1 take part; others idle.
 */

#include <pthread.h>

#include "common/qtest.h"

#define NTHREADS 3
#define ITERS 1500

struct worker {
    int id;
    int peer;
    int failures;
};

static int rank;

/* one fresh matched pair per iteration: each release is a race candidate */
static void *work(void *arg)
{
    struct worker *w = arg;
    int tag = 100 + w->id;

    for (int it = 0; it < ITERS; ++it) {
        int out = it * 16 + w->id, in = -1;
        MPI_Request req;
        MPI_Status st;

        if (0 == rank) {
            if (MPI_SUCCESS != MPI_Send_init(&out, 1, MPI_INT, w->peer, tag, MPI_COMM_WORLD, &req)
                || MPI_SUCCESS != MPI_Match(&req) || MPI_SUCCESS != MPI_Start(&req)) {
                w->failures++;
                return NULL;
            }
            if (it & 1) {
                /* free while active: the completion releases it */
                if (MPI_SUCCESS != MPI_Request_free(&req) || MPI_REQUEST_NULL != req) {
                    w->failures++;
                }
                /* the receiver acknowledges, so that out stays valid */
                MPI_Recv(&in, 1, MPI_INT, w->peer, tag + 50, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                if (in != out) {
                    w->failures++;
                }
            } else {
                if (MPI_SUCCESS != MPI_Wait(&req, &st) || MPI_SUCCESS != MPI_Request_free(&req)) {
                    w->failures++;
                }
            }
        } else {
            if (MPI_SUCCESS != MPI_Recv_init(&in, 1, MPI_INT, w->peer, tag, MPI_COMM_WORLD, &req)
                || MPI_SUCCESS != MPI_Match(&req) || MPI_SUCCESS != MPI_Start(&req)
                || MPI_SUCCESS != MPI_Wait(&req, &st)) {
                w->failures++;
                return NULL;
            }
            /* released while the completion may still be returning */
            if (MPI_SUCCESS != MPI_Request_free(&req)) {
                w->failures++;
            }
            if (in != out || st.MPI_SOURCE != w->peer || st.MPI_TAG != tag) {
                if (w->failures++ < 5) {
                    fprintf(stderr, "[rank %d] thread %d iteration %d: got %d from %d tag %d\n",
                            rank, w->id, it, in, st.MPI_SOURCE, st.MPI_TAG);
                }
            }
            if (it & 1) {
                MPI_Send(&in, 1, MPI_INT, w->peer, tag + 50, MPI_COMM_WORLD);
            }
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    pthread_t threads[NTHREADS];
    struct worker workers[NTHREADS];
    int provided;

    qt_init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (MPI_THREAD_MULTIPLE != provided) {
        if (0 == rank) {
            printf("SKIP: MPI_THREAD_MULTIPLE not provided\n");
        }
        MPI_Finalize();
        return 0;
    }
    QT_STEP("threads free matched requests while completions run");
    if (rank < 2) {
        for (int i = 0; i < NTHREADS; ++i) {
            workers[i] = (struct worker){.id = i, .peer = 1 - rank, .failures = 0};
            pthread_create(&threads[i], NULL, work, &workers[i]);
        }
        for (int i = 0; i < NTHREADS; ++i) {
            pthread_join(threads[i], NULL);
            QT_CHECK(0 == workers[i].failures, "thread %d: %d failure(s)", i,
                     workers[i].failures);
        }
    }
    return qt_finalize();
}
