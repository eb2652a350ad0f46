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
 * Listing 1 of the proposal, "Deferred operations added to graphs" (spec
 * T-L1): rank 0's graph opens a file, reads 4 ints, closes it and
 * broadcasts them; the other ranks' graph is the broadcast.  The file handle
 * is a future held in a local variable of type MPI_LOCAL_TYPE_FILE.  The
 * graph becomes a token, the token a persistent request that is started
 * twice (the file is read again each time).  The listing offloads to a CUDA
 * stream; here the location is MPIX_LOC_INPLACE (the file open and close
 * run on a worker thread, hence MPI_THREAD_MULTIPLE).
 * Run: examples/graphs/run.sh l1 [2..4]
 */

#include "common.h"

#define FH 0

int main(int argc, char **argv)
{
    char dir[256], name[300];
    int rank, provided, buf[4], o = -1, r = -1;
    MPIX_Graph graph;
    MPIX_Token token;
    MPI_Request req;

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    ex_tmpdir(dir, sizeof(dir));
    snprintf(name, sizeof(name), "%s/l1.dat", dir);
    if (0 == rank) {
        const int data[4] = {11, 22, 33, 44};
        FILE *f = fopen(name, "wb");
        EX_CHECK(NULL != f && 4 == fwrite(data, sizeof(int), 4, f), "cannot write %s", name);
        if (NULL != f) {
            fclose(f);
        }
    }

    EX_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &graph));
    if (0 == rank) {
        int close_id;
        EX_OK(MPIX_Graph_var_create(graph, FH, MPIX_GRAPH_VAR_LOCAL, MPI_LOCAL_TYPE_FILE));
        EX_OK(MPIX_File_open_def(MPI_COMM_SELF, name, MPI_MODE_RDONLY, MPI_INFO_NULL,
                                 MPIX_VAR(FH), &token));
        EX_OK(MPIX_Graph_add(graph, &token, &o, MPIX_DEP_NONE));
        EX_OK(MPIX_File_read_def(MPIX_VAR(FH), buf, 4, MPI_INT, MPI_STATUS_IGNORE, &token));
        EX_OK(MPIX_Graph_add(graph, &token, &r, o));
        EX_OK(MPIX_File_close_def(MPIX_VAR(FH), &token));
        EX_OK(MPIX_Graph_add(graph, &token, &close_id, r));
        EX_OK(MPIX_Bcast_def(buf, 4, MPI_INT, 0, MPI_COMM_WORLD, &token));
        EX_OK(MPIX_Graph_add(graph, &token, NULL, r));
        EX_CHECK(1 == o && 2 == r, "op IDs %d %d, expected 1 2 (creation order)", o, r);
        /* the name was copied at _def */
        memset(name, 'x', sizeof(name) - 1);
    } else {
        EX_OK(MPIX_Bcast_def(buf, 4, MPI_INT, 0, MPI_COMM_WORLD, &token));
        EX_OK(MPIX_Graph_add(graph, &token, NULL, MPIX_DEP_NONE));
    }
    EX_OK(MPIX_Graph_def(graph, MPI_INFO_NULL, &token));
    EX_OK(MPIX_Graph_free(&graph));
    EX_OK(MPIX_Execute_init(token, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &req));
    EX_OK(MPIX_Token_free(&token));
    for (int round = 0; round < 2; ++round) {
        memset(buf, 0, sizeof(buf));
        EX_OK(MPI_Start(&req));
        ex_sleep_ms(5);  /* "computation" */
        EX_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        EX_CHECK(11 == buf[0] && 22 == buf[1] && 33 == buf[2] && 44 == buf[3],
                 "round %d: %d %d %d %d, expected 11 22 33 44", round, buf[0], buf[1], buf[2],
                 buf[3]);
    }
    EX_OK(MPI_Request_free(&req));
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        snprintf(name, sizeof(name), "%s/l1.dat", dir);
        unlink(name);
        rmdir(dir);
    }
    return ex_verdict("L1 (graph: file open/read/close + bcast)");
}
