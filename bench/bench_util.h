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
 * What every benchmark of bench/ needs: a clock and the median of a few
 * rounds.  Header only: each benchmark is one program built by mpicc
 * (bench/common.sh).
 */

#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <string.h>
#include <time.h>

#define BENCH_MAX_ROUNDS 256

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* the median of n <= BENCH_MAX_ROUNDS values (the input is left as is) */
static inline double bench_median(const double *in, int n)
{
    double v[BENCH_MAX_ROUNDS];

    if (n > BENCH_MAX_ROUNDS) {
        n = BENCH_MAX_ROUNDS;
    }
    memcpy(v, in, n * sizeof(*v));
    for (int i = 1; i < n; ++i) {
        for (int j = i; j > 0 && v[j] < v[j - 1]; --j) {
            double x = v[j];
            v[j] = v[j - 1];
            v[j - 1] = x;
        }
    }
    return v[n / 2];
}

#endif /* BENCH_UTIL_H */
