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
 * PaRSEC-style message rate. Rank 0 issues bursts of small MPI_Isend; every
 * request goes into a pending list guarded by a lock (a runtime's
 * communication engine is shared by threads), and the list is drained with
 * MPI_Testsome between bursts and at the end of a window. Rank 1 receives
 * the window and acknowledges it.
 *
 *   (a) track: every request goes into the list
 *   (b) skip:  a request that is MPI_REQUEST_EMPTY is already complete and
 *              never enters the list; Testsome runs only when it is not empty
 *   (c) test:  what a runtime does without the handle: MPI_Test each request
 *              at once and track only those not complete (the proposal's
 *              baseline: the test may run the progress engine)
 *
 * All run in the same job, interleaved round by round; prints the best
 * message rate of each and the ratios (b)/(a) and (b)/(c).
 */

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include "bench_util.h"

#define BURST 16
#define WINDOW 256
#define WINDOWS 200
#define ROUNDS 7

struct pending {
    pthread_mutex_t lock;
    MPI_Request reqs[WINDOW];
    int n;
};

/* Testsome over the list, then compact it (what the runtime does). */
static void drain_once(struct pending *p)
{
    int indices[WINDOW], outcount, i, j;

    pthread_mutex_lock(&p->lock);
    if (p->n > 0) {
        MPI_Testsome(p->n, p->reqs, &outcount, indices, MPI_STATUSES_IGNORE);
        for (i = 0, j = 0; i < p->n; i++) {
            if (MPI_REQUEST_NULL != p->reqs[i]) {
                p->reqs[j++] = p->reqs[i];
            }
        }
        p->n = j;
    }
    pthread_mutex_unlock(&p->lock);
}

enum { MODE_TRACK, MODE_SKIP, MODE_TEST, NMODES };

static double sender(struct pending *p, const char *buf, int mode, long *tracked)
{
    MPI_Request r;
    char ack;
    double t0;
    int w, i, b, flag;

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = bench_now();
    for (w = 0; w < WINDOWS; w++) {
        for (i = 0; i < WINDOW; i += BURST) {
            for (b = 0; b < BURST; b++) {
                MPI_Isend(buf + (i + b) * 8, 8, MPI_CHAR, 1, 1, MPI_COMM_WORLD, &r);
                if (MODE_SKIP == mode && MPI_REQUEST_EMPTY == r) {
                    continue;
                }
                if (MODE_TEST == mode) {
                    MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
                    if (flag) {
                        continue;
                    }
                }
                pthread_mutex_lock(&p->lock);
                p->reqs[p->n++] = r;
                pthread_mutex_unlock(&p->lock);
                (*tracked)++;
            }
            drain_once(p);
        }
        while (p->n > 0) {
            drain_once(p);
        }
        MPI_Recv(&ack, 1, MPI_CHAR, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    return WINDOWS * WINDOW / (bench_now() - t0);
}

static void receiver(char *buf)
{
    MPI_Request reqs[WINDOW];
    char ack = 0;
    int w, i;

    MPI_Barrier(MPI_COMM_WORLD);
    for (w = 0; w < WINDOWS; w++) {
        for (i = 0; i < WINDOW; i++) {
            MPI_Irecv(buf + i * 8, 8, MPI_CHAR, 0, 1, MPI_COMM_WORLD, &reqs[i]);
        }
        MPI_Waitall(WINDOW, reqs, MPI_STATUSES_IGNORE);
        MPI_Send(&ack, 1, MPI_CHAR, 0, 2, MPI_COMM_WORLD);
    }
}

int main(int argc, char **argv)
{
    static char buf[WINDOW * 8];
    struct pending p;
    double rate, best[NMODES] = {0, 0, 0};
    long tracked[NMODES] = {0, 0, 0};
    int rank, size, round, mode;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (2 != size) {
        if (0 == rank) {
            fprintf(stderr, "run with 2 ranks\n");
        }
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(buf, 1, sizeof(buf));
    pthread_mutex_init(&p.lock, NULL);
    p.n = 0;

    for (round = 0; round < ROUNDS + 1; round++) {
        for (mode = 0; mode < NMODES; mode++) {
            if (0 == rank) {
                rate = sender(&p, buf, mode, &tracked[mode]);
                /* round 0 warms up */
                if (round > 0 && rate > best[mode]) {
                    best[mode] = rate;
                }
            } else {
                receiver(buf);
            }
        }
    }
    if (0 == rank) {
        long total = (long) (ROUNDS + 1) * WINDOWS * WINDOW;
        printf("(a) track %.2f  (b) skip-empty %.2f  (c) test-first %.2f Mmsg/s"
               "  (b)/(a) %.3f  (b)/(c) %.3f  tracked (b) %.1f%% (c) %.1f%%\n",
               best[MODE_TRACK] / 1e6, best[MODE_SKIP] / 1e6, best[MODE_TEST] / 1e6,
               best[MODE_SKIP] / best[MODE_TRACK], best[MODE_SKIP] / best[MODE_TEST],
               100.0 * tracked[MODE_SKIP] / total, 100.0 * tracked[MODE_TEST] / total);
    }
    pthread_mutex_destroy(&p.lock);
    MPI_Finalize();
    return 0;
}
