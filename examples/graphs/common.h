/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/* What every example shares: a check that counts failures, the verdict,
 * and a per-run directory for files. */

#ifndef EXAMPLES_GRAPHS_COMMON_H
#define EXAMPLES_GRAPHS_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mpi.h>
#include <mpi-ext.h>

static int ex_failures = 0;

#define EX_CHECK(cond, ...)                                                  \
    do {                                                                     \
        if (!(cond)) {                                                       \
            int r_;                                                          \
            MPI_Comm_rank(MPI_COMM_WORLD, &r_);                              \
            ex_failures++;                                                   \
            fprintf(stderr, "[rank %d] MISMATCH %s:%d: ", r_, __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                                    \
            fputc('\n', stderr);                                             \
        }                                                                    \
    } while (0)

/* an MPI call that must succeed */
#define EX_OK(call) EX_CHECK(MPI_SUCCESS == (call), "%s failed", #call)

static inline void ex_sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long) (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* a directory of this run, made by rank 0 and broadcast */
static inline void ex_tmpdir(char *dir, size_t len)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (0 == rank) {
        const char *base = getenv("TMPDIR");
        snprintf(dir, len, "%s/mpix-graphs-XXXXXX", NULL != base ? base : "/tmp");
        if (NULL == mkdtemp(dir)) {
            dir[0] = '\0';
        }
    }
    MPI_Bcast(dir, (int) len, MPI_CHAR, 0, MPI_COMM_WORLD);
}

static inline int ex_verdict(const char *name)
{
    int total = 0, rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Allreduce(&ex_failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("%s: %s\n", name, 0 == total ? "results checked, OK" : "FAILED");
    }
    MPI_Finalize();
    return 0 == total ? 0 : 1;
}

#endif
