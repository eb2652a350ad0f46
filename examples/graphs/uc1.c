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
 * Use case 1 of the proposal, listing 3, "Data-dependent communication
 * operations" (spec T-UC1): each timestep rank 0 broadcasts how many
 * neighbour exchanges to do; a while loop runs that many sendrecvs, its body
 * decrementing the broadcast value (a value parameter of the enclosing
 * graph) with var_reduce(MPI_SUM, -1).  The loop count is known only after a
 * collective, yet the program never waits for it: the graph runs while the
 * timestep computes.
 * Run: examples/graphs/run.sh uc1 [2..4]
 */

#include "common.h"

#define BCAST_VAL 0
#define DECR_VAL 1

static int sbuf[2], rbuf[2], iters, logv[16];

static int record(MPIX_Graph graph, void *extra_state)
{
    (void) graph;
    (void) extra_state;
    if (iters < 16) {
        logv[iters] = rbuf[0] * 1000 + rbuf[1];
    }
    iters++;
    sbuf[1] = iters;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    const int nt[3] = {3, 0, 5};
    int rank, size, left, right, minus_one = -1, b, s, c;
    MPIX_Graph graph, w;
    MPIX_Token token;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (rank - 1 + size) % size;
    right = (rank + 1) % size;

    EX_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &graph));
    EX_OK(MPIX_Graph_var_create(graph, BCAST_VAL, MPIX_GRAPH_VAR_VAL_PARAM, MPI_INT));
    EX_OK(MPIX_Graph_var_create(graph, DECR_VAL, MPIX_GRAPH_VAR_LOCAL, MPI_INT));
    EX_OK(MPIX_Graph_var_set(graph, DECR_VAL, &minus_one));
    EX_OK(MPIX_Bcast_def(MPIX_VAR(BCAST_VAL), 1, MPI_INT, 0, MPI_COMM_WORLD, &token));
    EX_OK(MPIX_Graph_add(graph, &token, &b, MPIX_DEP_NONE));
    /* the loop body declares nothing: BCAST_VAL and DECR_VAL are the
     * enclosing graph's */
    EX_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &w));
    EX_OK(MPIX_Sendrecv_def(sbuf, 2, MPI_INT, right, 7, rbuf, 2, MPI_INT, left, 7, MPI_COMM_WORLD,
                            MPI_STATUS_IGNORE, &token));
    EX_OK(MPIX_Graph_add(w, &token, &s, MPIX_DEP_NONE));
    EX_OK(MPIX_Op_def(record, NULL, &token));
    EX_OK(MPIX_Graph_add(w, &token, &c, s));
    EX_OK(MPIX_Graph_var_reduce(w, BCAST_VAL, DECR_VAL, MPI_SUM, BCAST_VAL, NULL, c));
    EX_OK(MPIX_Graph_while(graph, BCAST_VAL, w, NULL, b));
    EX_OK(MPIX_Graph_free(&w));

    for (int t = 0; t < 3; ++t) {
        int p = (0 == rank) ? nt[t] : 99;
        EX_OK(MPIX_Graph_set_param(graph, BCAST_VAL, &p));
        iters = 0;
        sbuf[0] = rank;
        sbuf[1] = 0;
        EX_OK(MPIX_Graph_def(graph, MPI_INFO_NULL, &token));
        EX_OK(MPIX_Execute_init(token, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &req));
        EX_OK(MPIX_Token_free(&token));
        EX_OK(MPI_Start(&req));
        ex_sleep_ms(10);  /* the timestep's computation */
        EX_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        EX_OK(MPI_Request_free(&req));
        EX_CHECK(nt[t] == iters, "timestep %d: %d exchanges, expected %d", t, iters, nt[t]);
        for (int i = 0; i < iters && i < nt[t]; ++i) {
            EX_CHECK(left * 1000 + i == logv[i], "timestep %d exchange %d: %d, expected %d", t, i,
                     logv[i], left * 1000 + i);
        }
        EX_CHECK(p == ((0 == rank) ? nt[t] : 99), "the value parameter's source was written");
    }
    {
        int x = 0;
        EX_OK(MPIX_Graph_var_get(graph, DECR_VAL, &x));
        EX_CHECK(-1 == x, "DECR_VAL template %d, expected -1", x);
    }
    EX_OK(MPIX_Graph_free(&graph));
    return ex_verdict("UC1 (while loop of neighbour exchanges, count from a bcast)");
}
