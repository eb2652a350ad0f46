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
 * MPIX graphs against plain MPI, 2 ranks, each figure beside its baseline
 * from the same run (variants alternate round by round; best of ROUNDS and
 * the median of the per-round ratios):
 *   fanout:  one execution of a 64-node graph of independent 8-byte sends
 *            (MPI_Start + MPI_Wait of an MPIX_Execute_init request) vs 64
 *            MPI_Isend + MPI_Waitall; rank 1 receives with 64 MPI_Irecv +
 *            MPI_Waitall in both, and a zero-byte reply closes each batch
 *   while:   the UC1 pattern, a while-loop graph of N = 1000 neighbour
 *            exchanges (Sendrecv_def, var_reduce decrement) vs the same loop
 *            of MPI_Sendrecv
 *   scaling: building + MPIX_Graph_def, and executing, a graph of 100, 1000
 *            and 10000 independent no-op nodes (rank 0 alone): time per node
 * With the argument "callgrind" and one rank (the neighbour is the rank
 * itself, so every count is deterministic), the same fan-out and loop run
 * once each in functions named cg_* for instruction counts
 * (run-graphs-graph.sh with GRAPHS_CALLGRIND=1); cg_fanout_gsends and
 * cg_fanout_isends count the sending side of the fan-out alone.
 */

#include <stdio.h>
#include <string.h>
#include <time.h>

#include <mpi.h>
#include <mpi-ext.h>

#include "bench_graphs.h"
#include "bench_util.h"

#define BATCH 64
#define ROUNDS 15
#define NWHILE 1000

static int rank;

static char sbuf[BATCH][8], rbuf[BATCH][8];

static void recv_batch(void)
{
    MPI_Request r[BATCH];
    for (int i = 0; i < BATCH; ++i) {
        MPI_Irecv(rbuf[i], 8, MPI_BYTE, 0, i, MPI_COMM_WORLD, &r[i]);
    }
    MPI_Waitall(BATCH, r, MPI_STATUSES_IGNORE);
    MPI_Send(NULL, 0, MPI_BYTE, 0, 999, MPI_COMM_WORLD);
}

static void fanout(void)
{
    MPIX_Token t;
    MPI_Request greq, r[BATCH];
    const int iters = 200;
    double best_g = 1e9, best_b = 1e9, ratio[ROUNDS];

    t = bench_fanout_token(sbuf, BATCH, 1);
    MPIX_Execute_init(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &greq);
    MPIX_Token_free(&t);
    for (int round = 0; round < ROUNDS; ++round) {
        double tg, tb, t0;
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = bench_now();
        for (int it = 0; it < iters; ++it) {
            if (0 == rank) {
                MPI_Start(&greq);
                MPI_Wait(&greq, MPI_STATUS_IGNORE);
                MPI_Recv(NULL, 0, MPI_BYTE, 1, 999, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                recv_batch();
            }
        }
        tg = (bench_now() - t0) / (iters * BATCH);
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = bench_now();
        for (int it = 0; it < iters; ++it) {
            if (0 == rank) {
                for (int i = 0; i < BATCH; ++i) {
                    MPI_Isend(sbuf[i], 8, MPI_BYTE, 1, i, MPI_COMM_WORLD, &r[i]);
                }
                MPI_Waitall(BATCH, r, MPI_STATUSES_IGNORE);
                MPI_Recv(NULL, 0, MPI_BYTE, 1, 999, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                recv_batch();
            }
        }
        tb = (bench_now() - t0) / (iters * BATCH);
        best_g = tg < best_g ? tg : best_g;
        best_b = tb < best_b ? tb : best_b;
        ratio[round] = tg / tb;
    }
    MPI_Request_free(&greq);
    if (0 == rank) {
        printf("fanout  64-send graph %7.1f ns/msg  64 Isend+Waitall %7.1f ns/msg  ratio %.2f "
               "(median %.2f)\n", best_g * 1e9, best_b * 1e9, best_g / best_b,
               bench_median(ratio, ROUNDS));
    }
}

static int sv[2], rv[2];

static void while_loop(void)
{
    MPIX_Token t;
    MPI_Request req;
    int peer = 1 - rank;
    double best_g = 1e9, best_b = 1e9, ratio[ROUNDS];

    t = bench_uc1_token(NWHILE, peer, peer, sv, rv);
    MPIX_Execute_init(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &req);
    MPIX_Token_free(&t);
    for (int round = 0; round < ROUNDS; ++round) {
        double tg, tb, t0;
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = bench_now();
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        tg = (bench_now() - t0) / NWHILE;
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = bench_now();
        for (int i = 0; i < NWHILE; ++i) {
            MPI_Sendrecv(sv, 2, MPI_INT, peer, 7, rv, 2, MPI_INT, peer, 7, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
        }
        tb = (bench_now() - t0) / NWHILE;
        best_g = tg < best_g ? tg : best_g;
        best_b = tb < best_b ? tb : best_b;
        ratio[round] = tg / tb;
    }
    MPI_Request_free(&req);
    if (0 == rank) {
        printf("while   N=%d exchanges graph %7.1f ns/iter  MPI_Sendrecv loop %7.1f ns/iter  "
               "ratio %.2f (median %.2f)\n", NWHILE, best_g * 1e9, best_b * 1e9, best_g / best_b,
               bench_median(ratio, ROUNDS));
    }
}

static void scaling(void)
{
    const int sizes[3] = {100, 1000, 10000};

    if (0 != rank) {
        return;
    }
    for (int k = 0; k < 3; ++k) {
        int n = sizes[k];
        double t0, tbuild, texec = 1e9;
        MPIX_Graph g;
        MPIX_Token t;

        t0 = bench_now();
        MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g);
        for (int i = 0; i < n; ++i) {
            /* a chain every 10 nodes, independent otherwise */
            MPIX_Graph_nop(g, NULL, (i % 10) ? i : MPIX_DEP_NONE);
        }
        MPIX_Graph_def(g, MPI_INFO_NULL, &t);
        tbuild = (bench_now() - t0) / n;
        MPIX_Graph_free(&g);
        for (int r = 0; r < 5; ++r) {
            double te;
            t0 = bench_now();
            MPIX_Execute(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL);
            te = (bench_now() - t0) / n;
            texec = te < texec ? te : texec;
        }
        MPIX_Token_free(&t);
        printf("scaling %5d nodes: build+def %6.1f ns/node  execute %6.1f ns/node\n", n,
               tbuild * 1e9, texec * 1e9);
    }
}

/* ---- callgrind: one rank, sends to itself */

#define CG_BATCHES 50

static void cg_recvs(MPI_Request *r)
{
    for (int i = 0; i < BATCH; ++i) {
        MPI_Irecv(rbuf[i], 8, MPI_BYTE, 0, i, MPI_COMM_WORLD, &r[i]);
    }
}

/* the sending side alone (the receives posted before, reaped after): the
 * graph's MPI_Start + MPI_Wait against 64 MPI_Isend + their MPI_Waitall
 * (noipa: not folded with cg_while_graph, whose body is the same) */
__attribute__((noinline, noipa)) static void cg_fanout_gsends(MPI_Request *greq)
{
    MPI_Start(greq);
    MPI_Wait(greq, MPI_STATUS_IGNORE);
}

__attribute__((noinline)) static void cg_fanout_isends(MPI_Request *s)
{
    for (int i = 0; i < BATCH; ++i) {
        MPI_Isend(sbuf[i], 8, MPI_BYTE, 0, i, MPI_COMM_WORLD, &s[i]);
    }
    MPI_Waitall(BATCH, s, MPI_STATUSES_IGNORE);
}

__attribute__((noinline)) static void cg_fanout_graph(MPI_Request *greq, MPI_Request *r)
{
    for (int b = 0; b < CG_BATCHES; ++b) {
        cg_recvs(r);
        cg_fanout_gsends(greq);
        MPI_Waitall(BATCH, r, MPI_STATUSES_IGNORE);
    }
}

__attribute__((noinline)) static void cg_fanout_isend(MPI_Request *r)
{
    MPI_Request s[BATCH];
    for (int b = 0; b < CG_BATCHES; ++b) {
        cg_recvs(r);
        cg_fanout_isends(s);
        MPI_Waitall(BATCH, r, MPI_STATUSES_IGNORE);
    }
}

__attribute__((noinline)) static void cg_while_graph(MPI_Request *req)
{
    MPI_Start(req);
    MPI_Wait(req, MPI_STATUS_IGNORE);
}

__attribute__((noinline)) static void cg_while_sendrecv(void)
{
    for (int i = 0; i < NWHILE; ++i) {
        MPI_Sendrecv(sv, 2, MPI_INT, 0, 7, rv, 2, MPI_INT, 0, 7, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
    }
}

static void callgrind_runs(void)
{
    MPIX_Token t;
    MPI_Request greq, r[BATCH];

    t = bench_fanout_token(sbuf, BATCH, 0);
    MPIX_Execute_init(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &greq);
    MPIX_Token_free(&t);
    /* warm-up of every path, then the counted runs */
    cg_recvs(r);
    MPI_Start(&greq);
    MPI_Wait(&greq, MPI_STATUS_IGNORE);
    MPI_Waitall(BATCH, r, MPI_STATUSES_IGNORE);
    cg_fanout_graph(&greq, r);
    cg_fanout_isend(r);
    MPI_Request_free(&greq);

    t = bench_uc1_token(NWHILE, 0, 0, sv, rv);
    MPIX_Execute_init(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &greq);
    MPIX_Token_free(&t);
    MPI_Start(&greq);
    MPI_Wait(&greq, MPI_STATUS_IGNORE);
    cg_while_graph(&greq);
    cg_while_sendrecv();
    MPI_Request_free(&greq);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    memset(sbuf, 1, sizeof(sbuf));
    if (1 < argc && 0 == strcmp(argv[1], "callgrind")) {
        callgrind_runs();
        MPI_Finalize();
        return 0;
    }
    fanout();
    while_loop();
    scaling();
    MPI_Finalize();
    return 0;
}
