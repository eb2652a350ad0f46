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
 * Use case 2 of the proposal, listing 4, "Asynchronously allocate and
 * receive unknown message" (spec T-UC2): rank 1's graph receives a length
 * into a local MPI_COUNT variable, allocates that many bytes (the address is
 * a future stored through a reference parameter into the program's
 * msg_buf), then receives the payload into it.  With strong progress
 * (mpi_async_progress=1 or MPI_THREAD_MULTIPLE) it runs at
 * MPIX_OFFLOAD_PTHREAD and completes while the program spins without MPI
 * calls; the graph is freed before its token runs.
 * Run: examples/graphs/run.sh uc2 2
 */

#include "common.h"

#define MSG_LEN 0
#define MSG_BUF_PTR 1

static volatile int done_flag;

static int set_done(MPIX_Graph graph, void *extra_state)
{
    (void) graph;
    (void) extra_state;
    done_flag = 1;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    const MPI_Count lens[2] = {100000, 10};
    int rank, provided, a, b, c;
    void *msg_buf = NULL;
    MPIX_Graph graph;
    MPIX_Token token;
    MPI_Request req;

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    {
        int size;
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        EX_CHECK(2 == size, "UC2 runs on 2 ranks");
        if (2 != size) {
            return ex_verdict("UC2");
        }
    }
    if (1 == rank) {
        EX_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &graph));
        EX_OK(MPIX_Graph_var_create(graph, MSG_LEN, MPIX_GRAPH_VAR_LOCAL, MPI_COUNT));
        EX_OK(MPIX_Graph_var_create(graph, MSG_BUF_PTR, MPIX_GRAPH_VAR_REF_PARAM, MPI_AINT));
        EX_OK(MPIX_Recv_def(MPIX_VAR(MSG_LEN), 1, MPI_COUNT, 0, 1, MPI_COMM_WORLD,
                            MPI_STATUS_IGNORE, &token));
        EX_OK(MPIX_Graph_add(graph, &token, &a, MPIX_DEP_NONE));
        EX_OK(MPIX_Alloc_mem_def(MPIX_VAR_AINT(MSG_LEN), MPI_INFO_NULL, MPIX_VAR(MSG_BUF_PTR),
                                 &token));
        EX_OK(MPIX_Graph_add(graph, &token, &b, a));
        EX_OK(MPIX_Recv_def(MPIX_VAR_ADDR(MSG_BUF_PTR), MPIX_VAR_INT(MSG_LEN), MPI_BYTE, 0, 2,
                            MPI_COMM_WORLD, MPI_STATUS_IGNORE, &token));
        EX_OK(MPIX_Graph_add(graph, &token, &c, b));
        EX_OK(MPIX_Op_def(set_done, NULL, &token));
        EX_OK(MPIX_Graph_add(graph, &token, NULL, c));
        EX_OK(MPIX_Graph_set_param(graph, MSG_BUF_PTR, &msg_buf));
        EX_OK(MPIX_Graph_def(graph, MPI_INFO_NULL, &token));
        EX_OK(MPIX_Graph_free(&graph));  /* before executing: the token is independent */
        EX_OK(MPIX_Execute_init(token, MPI_INFO_NULL, MPIX_OFFLOAD_PTHREAD, NULL, &req));
        EX_OK(MPIX_Token_free(&token));
    }
    for (int round = 0; round < 2; ++round) {
        MPI_Count len = lens[round];
        MPI_Barrier(MPI_COMM_WORLD);
        if (0 == rank) {
            unsigned char *payload = malloc((size_t) len);
            for (MPI_Count i = 0; i < len; ++i) {
                payload[i] = (unsigned char) ((i * 7) % 256);
            }
            ex_sleep_ms(100);
            EX_OK(MPI_Send(&len, 1, MPI_COUNT, 1, 1, MPI_COMM_WORLD));
            EX_OK(MPI_Send(payload, (int) len, MPI_BYTE, 1, 2, MPI_COMM_WORLD));
            free(payload);
        } else {
            msg_buf = NULL;
            done_flag = 0;
            EX_OK(MPI_Start(&req));
            /* compute without MPI calls: strong progress completes the graph */
            for (int ms = 0; ms < 10000 && !done_flag; ++ms) {
                ex_sleep_ms(1);
            }
            EX_CHECK(done_flag, "round %d: the graph did not complete while the program "
                     "computed", round);
            EX_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
            EX_CHECK(NULL != msg_buf, "round %d: no buffer was allocated", round);
            if (NULL != msg_buf) {
                int bad = 0;
                for (MPI_Count i = 0; i < len; ++i) {
                    bad += ((unsigned char *) msg_buf)[i] != (unsigned char) ((i * 7) % 256);
                }
                EX_CHECK(0 == bad, "round %d: %d bytes wrong", round, bad);
                EX_OK(MPI_Free_mem(msg_buf));
            }
        }
    }
    if (1 == rank) {
        EX_OK(MPI_Request_free(&req));
    }
    return ex_verdict("UC2 (receive a length, allocate, receive into the new buffer)");
}
