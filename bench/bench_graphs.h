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
 * The graphs the MPIX graph benchmarks execute (bench/graphs_graph.c,
 * bench/graphs_overlap.c), built the same way in each.
 */

#ifndef BENCH_GRAPHS_H
#define BENCH_GRAPHS_H

#include <mpi.h>
#include <mpi-ext.h>

/* A graph of nsend independent 8-byte sends, bufs[i] to dest with tag i. */
static inline MPIX_Token bench_fanout_token(char (*bufs)[8], int nsend, int dest)
{
    MPIX_Graph g;
    MPIX_Token t;

    MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g);
    for (int i = 0; i < nsend; ++i) {
        MPIX_Send_def(bufs[i], 8, MPI_BYTE, dest, i, MPI_COMM_WORLD, &t);
        MPIX_Graph_add(g, &t, NULL, MPIX_DEP_NONE);
    }
    MPIX_Graph_def(g, MPI_INFO_NULL, &t);
    MPIX_Graph_free(&g);
    return t;
}

/* The UC1 pattern: a while loop of n neighbour exchanges (2 ints of sv to
 * right, 2 into rv from left, tag 7), its counter (variable 0, a value
 * parameter) counted down by var_reduce with the local variable 1 = -1. */
static inline MPIX_Token bench_uc1_token(int n, int right, int left, int *sv, int *rv)
{
    MPIX_Graph g, w;
    MPIX_Token t;
    int m1 = -1, s;

    MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g);
    MPIX_Graph_var_create(g, 0, MPIX_GRAPH_VAR_VAL_PARAM, MPI_INT);
    MPIX_Graph_var_create(g, 1, MPIX_GRAPH_VAR_LOCAL, MPI_INT);
    MPIX_Graph_var_set(g, 1, &m1);
    MPIX_Graph_set_param(g, 0, &n);
    MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &w);
    MPIX_Sendrecv_def(sv, 2, MPI_INT, right, 7, rv, 2, MPI_INT, left, 7, MPI_COMM_WORLD,
                      MPI_STATUS_IGNORE, &t);
    MPIX_Graph_add(w, &t, &s, MPIX_DEP_NONE);
    MPIX_Graph_var_reduce(w, 0, 1, MPI_SUM, 0, NULL, s);
    MPIX_Graph_while(g, 0, w, NULL, MPIX_DEP_NONE);
    MPIX_Graph_free(&w);
    MPIX_Graph_def(g, MPI_INFO_NULL, &t);
    MPIX_Graph_free(&g);
    return t;
}

#endif /* BENCH_GRAPHS_H */
