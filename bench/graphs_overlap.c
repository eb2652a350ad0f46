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
 * Overlap of the host thread's computation with a graph (the UC1 pattern:
 * a while-loop graph of N neighbour exchanges, Sendrecv_def to the right,
 * from the left, and a var_reduce decrement) executing at a location.
 * Every round measures, on every rank, alternating:
 *   comm:     MPI_Start + MPI_Wait of the graph's execution request
 *   compute:  the host's computation alone (calibrated to about t_comm)
 *   both:     MPI_Start, the computation, MPI_Wait
 * overlap = (t_comm + t_compute - t_both) / min(t_comm, t_compute):
 * 1 when the two run side by side, 0 when one waits for the other.  The
 * figures are the best of ROUNDS for each time and the median of the
 * per-round overlaps.  Two locations, in the same run:
 *   MPIX_OFFLOAD_PTHREAD (the strong-progress thread runs the loop), and
 *   MPIX_LOC_INPLACE (the baseline: the loop only moves in MPI calls).
 * Also printed: how much slower the computation ran beside the graph
 * (compute inside "both" / compute alone).
 *
 * Each rank runs a host thread and, at PTHREAD, a progress thread: the
 * figure means something when ranks x 2 <= cores (run-graphs-overlap.sh
 * picks the number of ranks; with one rank the neighbour is the rank
 * itself).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>
#include <mpi-ext.h>

#include "bench_graphs.h"
#include "bench_util.h"

#define ROUNDS 21

static int rank, size;
static int nwhile = 1000;
static int sv[2], rv[2];
static volatile double sink;

/* the host's work: a dependent floating-point chain, no memory traffic
 * and no MPI call */
static void compute(long iters)
{
    double x = 1.0;
    for (long i = 0; i < iters; ++i) {
        x = x * 1.0000001 + 1e-9;
    }
    sink = x;
}

static MPI_Request uc1_request(int loc)
{
    MPIX_Token t;
    MPI_Request req;

    t = bench_uc1_token(nwhile, (rank + 1) % size, (rank - 1 + size) % size, sv, rv);
    if (MPI_SUCCESS != MPIX_Execute_init(t, MPI_INFO_NULL, loc, NULL, &req)) {
        fprintf(stderr, "MPIX_Execute_init refused the location\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPIX_Token_free(&t);
    return req;
}

static double run_comm(MPI_Request *req)
{
    double t0;

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = bench_now();
    MPI_Start(req);
    MPI_Wait(req, MPI_STATUS_IGNORE);
    return bench_now() - t0;
}

static double run_compute(long k)
{
    double t0;

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = bench_now();
    compute(k);
    return bench_now() - t0;
}

static double run_both(MPI_Request *req, long k, double *tcomp)
{
    double t0, t1;

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = bench_now();
    MPI_Start(req);
    t1 = bench_now();
    compute(k);
    *tcomp = bench_now() - t1;
    MPI_Wait(req, MPI_STATUS_IGNORE);
    return bench_now() - t0;
}

static void measure(const char *name, int loc, long k)
{
    MPI_Request req = uc1_request(loc);
    double bc = 1e9, bk = 1e9, bb = 1e9, bkin = 1e9, ov[ROUNDS], in;

    /* warm up the caches of requests and activations */
    (void) run_comm(&req);
    for (int round = 0; round < ROUNDS; ++round) {
        double tc = run_comm(&req);
        double tk = run_compute(k);
        double tb = run_both(&req, k, &in);
        double mn = tc < tk ? tc : tk;
        ov[round] = (tc + tk - tb) / mn;
        bc = tc < bc ? tc : bc;
        bk = tk < bk ? tk : bk;
        bb = tb < bb ? tb : bb;
        bkin = in < bkin ? in : bkin;
    }
    MPI_Request_free(&req);
    if (0 == rank) {
        double mn = bc < bk ? bc : bk;
        printf("%-8s N=%d  comm %7.1f us  compute %7.1f us  both %7.1f us  overlap %5.1f %% "
               "(median %5.1f %%)  compute slowed %.2fx\n", name, nwhile, bc * 1e6, bk * 1e6,
               bb * 1e6, 100.0 * (bc + bk - bb) / mn, 100.0 * bench_median(ov, ROUNDS), bkin / bk);
    }
}

int main(int argc, char **argv)
{
    int provided;
    long k;
    double tcomm, tk;
    MPI_Request req;

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (1 < argc) {
        nwhile = atoi(argv[1]);
    }
    if (MPI_THREAD_MULTIPLE != provided) {
        if (0 == rank) {
            printf("MPI_THREAD_MULTIPLE not provided: MPIX_OFFLOAD_PTHREAD unavailable\n");
        }
        MPI_Finalize();
        return 0;
    }
    sv[0] = rank;
    /* calibrate the computation to the loop's time alone at PTHREAD (the
     * hardest case: neither part can hide a much shorter other) */
    req = uc1_request(MPIX_OFFLOAD_PTHREAD);
    tcomm = 1e9;
    for (int i = 0; i < 5; ++i) {
        double t = run_comm(&req);
        tcomm = t < tcomm ? t : tcomm;
    }
    MPI_Request_free(&req);
    k = 1000000;
    tk = 1e9;
    for (int i = 0; i < 5; ++i) {
        double t = run_compute(k);
        tk = t < tk ? t : tk;
    }
    k = (long) (k * tcomm / tk);
    /* the same amount of work on every rank */
    MPI_Allreduce(MPI_IN_PLACE, &k, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("ranks %d, host compute %ld iterations (about the loop's time alone)\n", size, k);
    }
    measure("PTHREAD", MPIX_OFFLOAD_PTHREAD, k);
    measure("INPLACE", MPIX_LOC_INPLACE, k);
    MPI_Finalize();
    return 0;
}
