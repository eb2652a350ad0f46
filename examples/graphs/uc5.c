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
 * Use case 5 of the proposal, listing 7, "Data dependent asynchronous
 * communication" (spec T-UC5): two concurrent in-place MPI_MAX allreduces
 * on value parameters A and B, joined; var_reduce(MPIX_LESS_THAN_OR_EQUAL)
 * writes A <= B into a reference parameter; an if/else runs a ring sendrecv
 * only when it holds.  The branch is taken by MPI, consistently on every
 * rank, without an application thread deciding it.  The sub-graph is freed
 * right after if_else (and, in the copy-semantics check, changed: the change
 * is never seen).
 * Run: examples/graphs/run.sh uc5 [2..4]
 */

#include "common.h"

#define GRAPH_COMM 0
#define VAR_A 1
#define VAR_B 2
#define SEND_BUF 3
#define RECV_BUF 4
#define COMP_VAL 5

static volatile int late_flag;

static int set_late(MPIX_Graph graph, void *extra_state)
{
    (void) graph;
    (void) extra_state;
    late_flag = 1;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int rank, n, left, right, comp_val = 7, ar[2], jn, cmp;
    float sendbuf[2], recvbuf[2];
    MPI_Aint saddr = (MPI_Aint) sendbuf, raddr = (MPI_Aint) recvbuf;
    MPI_Comm gcomm;
    MPIX_Graph graph, sub;
    MPIX_Token token;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm_dup(MPI_COMM_WORLD, &gcomm);
    left = (rank - 1 + n) % n;
    right = (rank + 1) % n;

    EX_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &graph));
    EX_OK(MPIX_Graph_var_create(graph, GRAPH_COMM, MPIX_GRAPH_VAR_VAL_PARAM, MPI_LOCAL_TYPE_COMM));
    EX_OK(MPIX_Graph_var_create(graph, VAR_A, MPIX_GRAPH_VAR_VAL_PARAM, MPI_INT));
    EX_OK(MPIX_Graph_var_create(graph, VAR_B, MPIX_GRAPH_VAR_VAL_PARAM, MPI_INT));
    EX_OK(MPIX_Graph_var_create(graph, SEND_BUF, MPIX_GRAPH_VAR_VAL_PARAM, MPI_AINT));
    EX_OK(MPIX_Graph_var_create(graph, RECV_BUF, MPIX_GRAPH_VAR_VAL_PARAM, MPI_AINT));
    EX_OK(MPIX_Graph_var_create(graph, COMP_VAL, MPIX_GRAPH_VAR_REF_PARAM, MPI_INT));
    EX_OK(MPIX_Allreduce_def(MPI_IN_PLACE, MPIX_VAR(VAR_A), 1, MPI_INT, MPI_MAX,
                             MPIX_VAR(GRAPH_COMM), &token));
    EX_OK(MPIX_Graph_add(graph, &token, &ar[0], MPIX_DEP_NONE));
    EX_OK(MPIX_Allreduce_def(MPI_IN_PLACE, MPIX_VAR(VAR_B), 1, MPI_INT, MPI_MAX,
                             MPIX_VAR(GRAPH_COMM), &token));
    EX_OK(MPIX_Graph_add(graph, &token, &ar[1], MPIX_DEP_NONE));
    EX_OK(MPIX_Graph_join(graph, 2, ar, &jn));
    EX_OK(MPIX_Graph_var_reduce(graph, VAR_A, VAR_B, MPIX_LESS_THAN_OR_EQUAL, COMP_VAL, &cmp, jn));
    EX_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &sub));
    EX_OK(MPIX_Sendrecv_def(MPIX_VAR_ADDR(SEND_BUF), 2, MPI_FLOAT, right, 0,
                            MPIX_VAR_ADDR(RECV_BUF), 2, MPI_FLOAT, left, 0, MPIX_VAR(GRAPH_COMM),
                            MPI_STATUS_IGNORE, &token));
    EX_OK(MPIX_Graph_add(sub, &token, NULL, MPIX_DEP_NONE));
    EX_OK(MPIX_Graph_IfElse(graph, COMP_VAL, sub, MPIX_GRAPH_NULL, NULL, cmp));
    /* copy semantics: a change to sub after if_else is never seen */
    EX_OK(MPIX_Op_def(set_late, NULL, &token));
    EX_OK(MPIX_Graph_add(sub, &token, NULL, MPIX_DEP_NONE));
    EX_OK(MPIX_Graph_free(&sub));
    EX_OK(MPIX_Graph_set_param(graph, GRAPH_COMM, &gcomm));
    EX_OK(MPIX_Graph_set_param(graph, SEND_BUF, &saddr));
    EX_OK(MPIX_Graph_set_param(graph, RECV_BUF, &raddr));
    EX_OK(MPIX_Graph_set_param(graph, COMP_VAL, &comp_val));

    late_flag = 0;
    for (int t = 0; t < 8; ++t) {
        int a = t + rank, b = (0 == rank) ? 5 : 0, cond = (t + n - 1 <= 5);
        sendbuf[0] = rank * 10 + t;
        sendbuf[1] = rank * 10 + t + 0.5f;
        recvbuf[0] = recvbuf[1] = -1;
        comp_val = 7;
        EX_OK(MPIX_Graph_set_param(graph, VAR_A, &a));
        EX_OK(MPIX_Graph_set_param(graph, VAR_B, &b));
        EX_OK(MPIX_Graph_def(graph, MPI_INFO_NULL, &token));
        EX_OK(MPIX_Execute_init(token, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &req));
        EX_OK(MPIX_Token_free(&token));
        EX_OK(MPI_Start(&req));
        EX_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        EX_OK(MPI_Request_free(&req));
        EX_CHECK(comp_val == cond, "timestep %d: comparison %d, expected %d", t, comp_val, cond);
        if (cond) {
            EX_CHECK(recvbuf[0] == left * 10 + t && recvbuf[1] == left * 10 + t + 0.5f,
                     "timestep %d: received %g %g", t, recvbuf[0], recvbuf[1]);
        } else {
            EX_CHECK(-1 == recvbuf[0] && -1 == recvbuf[1], "timestep %d: the branch ran", t);
        }
        EX_CHECK(a == t + rank && b == ((0 == rank) ? 5 : 0), "the value parameters' sources "
                 "were written");
    }
    EX_CHECK(0 == late_flag, "a change made to the sub-graph after if_else ran");
    EX_OK(MPIX_Graph_free(&graph));
    MPI_Comm_free(&gcomm);
    return ex_verdict("UC5 (allreduces, comparison, if/else ring exchange)");
}
