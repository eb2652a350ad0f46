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
 * Listing 2 of the proposal, "Deferred operations added to streams" (spec
 * T-L2): the same four operations on a stream.  Streams have no variables
 * (D26), so rank 0 enqueues the open/read/close part as a graph token and
 * then the broadcast; the other ranks enqueue the broadcast.  The stream is
 * paused right after creation: nothing runs (isync does not complete, the
 * buffer stays zero) until it is resumed.
 * Run: examples/graphs/run.sh l2 [2..4]
 */

#include "common.h"

#define FH 0

int main(int argc, char **argv)
{
    char dir[256], name[300];
    int rank, provided, buf[4] = {0, 0, 0, 0}, paused = -1, flag = 0;
    MPIX_Graph graph;
    MPIX_Token token;
    MPIX_Stream stream;
    MPI_Request req;

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    ex_tmpdir(dir, sizeof(dir));
    snprintf(name, sizeof(name), "%s/l2.dat", dir);
    if (0 == rank) {
        const int data[4] = {11, 22, 33, 44};
        FILE *f = fopen(name, "wb");
        EX_CHECK(NULL != f && 4 == fwrite(data, sizeof(int), 4, f), "cannot write %s", name);
        if (NULL != f) {
            fclose(f);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);

    EX_OK(MPIX_Stream_create(MPI_SESSION_NULL, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &stream));
    EX_OK(MPIX_Stream_is_paused(stream, &paused));
    EX_CHECK(0 == paused, "a new stream is paused");
    EX_OK(MPIX_Stream_pause(stream));
    EX_OK(MPIX_Stream_is_paused(stream, &paused));
    EX_CHECK(1 == paused, "pause did not pause");
    if (0 == rank) {
        int o, r;
        EX_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &graph));
        EX_OK(MPIX_Graph_var_create(graph, FH, MPIX_GRAPH_VAR_LOCAL, MPI_LOCAL_TYPE_FILE));
        EX_OK(MPIX_File_open_def(MPI_COMM_SELF, name, MPI_MODE_RDONLY, MPI_INFO_NULL,
                                 MPIX_VAR(FH), &token));
        EX_OK(MPIX_Graph_add(graph, &token, &o, MPIX_DEP_NONE));
        EX_OK(MPIX_File_read_def(MPIX_VAR(FH), buf, 4, MPI_INT, MPI_STATUS_IGNORE, &token));
        EX_OK(MPIX_Graph_add(graph, &token, &r, o));
        EX_OK(MPIX_File_close_def(MPIX_VAR(FH), &token));
        EX_OK(MPIX_Graph_add(graph, &token, NULL, r));
        EX_OK(MPIX_Graph_def(graph, MPI_INFO_NULL, &token));
        EX_OK(MPIX_Graph_free(&graph));
        EX_OK(MPIX_Stream_enqueue(stream, &token));
        EX_CHECK(MPIX_TOKEN_NULL == token, "enqueue did not consume the token");
    }
    EX_OK(MPIX_Bcast_def(buf, 4, MPI_INT, 0, MPI_COMM_WORLD, &token));
    EX_OK(MPIX_Stream_enqueue(stream, &token));
    EX_CHECK(MPIX_TOKEN_NULL == token, "enqueue did not consume the token");
    EX_OK(MPIX_Stream_isync(stream, &req));
    for (int i = 0; i < 50 && !flag; ++i) {
        EX_OK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
        ex_sleep_ms(2);
    }
    EX_CHECK(!flag && 0 == buf[0] && 0 == buf[3], "a paused stream ran its tokens");
    EX_OK(MPIX_Stream_resume(stream));
    if (!flag) {
        EX_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    }
    EX_CHECK(11 == buf[0] && 22 == buf[1] && 33 == buf[2] && 44 == buf[3],
             "%d %d %d %d, expected 11 22 33 44", buf[0], buf[1], buf[2], buf[3]);
    EX_OK(MPIX_Stream_sync(stream));
    EX_OK(MPIX_Stream_free(&stream));
    EX_CHECK(MPIX_STREAM_NULL == stream, "free did not set the handle to NULL");
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        unlink(name);
        rmdir(dir);
    }
    return ex_verdict("L2 (stream: paused, graph token + bcast, resumed)");
}
