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
 * How long MPI_Init and MPI_Finalize take in a process that does nothing
 * else: rank 0 prints "init <s> finalize <s>".
 */

#include <stdio.h>
#include <time.h>

#include <mpi.h>

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

int main(int argc, char **argv)
{
    double t0 = now(), t1, t2;
    int rank;

    MPI_Init(&argc, &argv);
    t1 = now();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    t2 = now();
    MPI_Finalize();
    if (0 == rank) {
        printf("init %.3f finalize %.3f\n", t1 - t0, now() - t2);
    }
    return 0;
}
