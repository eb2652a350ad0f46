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
 * Nonblocking file I/O from four threads at once (MPI_THREAD_MULTIPLE):
 * each of four threads writes its own file with MPI_File_iwrite_at + MPI_Wait in a
 * loop, so that one thread's MPI_Wait walks ompio's list of pending requests
 * in opal_progress while the other adds and frees requests.  Stock 5.0.7
 * walks that list without a lock (patch 0014); this test then dies in
 * mca_common_ompio_progress or corrupts the list.  Each file is read back
 * and checked.  argv[1] (optional): iterations per thread.
 * QTEST_AIO_THREADS (optional): glibc's POSIX AIO, which ompio's fbtl/posix
 * uses for the nonblocking calls, gets at most that many worker threads
 * (the ThreadSanitizer pass sets 1: a worker that starts another one
 * creates it inside glibc, out of the runtime's sight, and the new thread
 * crashes in the runtime's allocator, llvm/llvm-project#109742).
 */

#define _GNU_SOURCE
#include <aio.h>
#include <pthread.h>

#include "common/qtest.h"

#define NTHREADS 4

static int rank, iters = 4000;
static const char *dir;

typedef struct {
    int id;
    int failures;
    char msg[256];
} worker_t;

static void *worker(void *arg)
{
    worker_t *w = (worker_t *) arg;
    char name[512];
    MPI_File fh;
    MPI_Request req;
    MPI_Status st;
    long long v, back;
    int rc, count;

    snprintf(name, sizeof(name), "%s/ompio_threads.%d.%d", dir, rank, w->id);
    rc = MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                       MPI_INFO_NULL, &fh);
    if (MPI_SUCCESS != rc) {
        snprintf(w->msg, sizeof(w->msg), "thread %d: MPI_File_open returned %d", w->id, rc);
        w->failures++;
        return NULL;
    }
    MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
    for (int i = 0; i < iters && 0 == w->failures; ++i) {
        v = (long long) w->id * 1000000007LL + i;
        rc = MPI_File_iwrite_at(fh, (MPI_Offset) i * sizeof(v), &v, 1, MPI_LONG_LONG, &req);
        if (MPI_SUCCESS == rc) {
            rc = MPI_Wait(&req, &st);
        }
        if (MPI_SUCCESS != rc) {
            snprintf(w->msg, sizeof(w->msg), "thread %d: write %d returned %d", w->id, i, rc);
            w->failures++;
        }
    }
    for (int i = 0; i < iters && 0 == w->failures; ++i) {
        back = -1;
        rc = MPI_File_iread_at(fh, (MPI_Offset) i * sizeof(back), &back, 1, MPI_LONG_LONG, &req);
        if (MPI_SUCCESS == rc) {
            rc = MPI_Wait(&req, &st);
        }
        count = -1;
        MPI_Get_count(&st, MPI_LONG_LONG, &count);
        if (MPI_SUCCESS != rc || 1 != count || (long long) w->id * 1000000007LL + i != back) {
            snprintf(w->msg, sizeof(w->msg), "thread %d: read %d gave rc %d count %d value %lld",
                     w->id, i, rc, count, back);
            w->failures++;
        }
    }
    MPI_File_close(&fh);
    return NULL;
}

int main(int argc, char **argv)
{
    pthread_t th[NTHREADS];
    worker_t w[NTHREADS];
    int provided;

    if (NULL != getenv("QTEST_AIO_THREADS")) {
        struct aioinit ai;

        /* workers that never go idle: none is ever started again */
        memset(&ai, 0, sizeof(ai));
        ai.aio_threads = atoi(getenv("QTEST_AIO_THREADS"));
        ai.aio_num = 4 * NTHREADS;
        ai.aio_idle_time = 3600;
        aio_init(&ai);
    }
    qt_init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc > 1) {
        iters = atoi(argv[1]);
    }
    dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    QT_CHECK(MPI_THREAD_MULTIPLE == provided, "MPI_THREAD_MULTIPLE not provided (%d)", provided);
    if (MPI_THREAD_MULTIPLE == provided) {
        QT_STEP("four threads: MPI_File_iwrite_at/iread_at + MPI_Wait loops");
        for (int t = 0; t < NTHREADS; ++t) {
            w[t].id = t;
            w[t].failures = 0;
            w[t].msg[0] = '\0';
            QT_CHECK(0 == pthread_create(&th[t], NULL, worker, &w[t]), "pthread_create %d", t);
        }
        for (int t = 0; t < NTHREADS; ++t) {
            pthread_join(th[t], NULL);
            QT_CHECK(0 == w[t].failures, "%s", w[t].msg);
        }
    }
    return qt_finalize();
}
