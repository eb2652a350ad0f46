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
 * Use case 3 of the proposal, listing 5, "Prefetch compressed data from file
 * and broadcast to other ranks" (spec T-UC3).  Rank 0's graph opens a file
 * whose name is a string value parameter, gets its size, allocates, reads,
 * then closes the file while a callback decompresses (run-length pairs)
 * into new memory and sets the length and pointer (reference parameters);
 * the compressed buffer is freed; the length and the data are broadcast on a
 * communicator held in a local variable.  The other ranks receive the
 * length, allocate, receive the data.  Timestep 1 leaves out the explicit
 * dependency of get_size on open: the implicit edge of the future file
 * handle orders them (spec 2.3).  The proposal runs it on a smart NIC
 * (MPIX_OFFLOAD_NITRO), which is refused here; the graph runs in place.
 * Run: examples/graphs/run.sh uc3 [2..4]
 */

#include "common.h"

#define FILE_NAME 0
#define FILE_HANDLE 1
#define FILE_SIZE 2
#define COMP_BUF_PTR 3
#define BUF_LEN 4
#define BUF_PTR 5
#define BCAST_COMM 6

static MPI_Offset seen_size;

static int decompress(MPIX_Graph graph, void *extra_state)
{
    MPI_Offset size = 0;
    MPI_Aint comp = 0, out_ptr;
    MPI_Count len = 0;
    unsigned char *in, *out;

    (void) extra_state;
    MPIX_Graph_var_get(graph, FILE_SIZE, &size);
    MPIX_Graph_var_get(graph, COMP_BUF_PTR, &comp);
    seen_size = size;
    in = (unsigned char *) comp;
    for (MPI_Offset i = 0; i + 1 < size; i += 2) {
        len += in[i];
    }
    out = malloc((size_t) len);
    if (NULL == out) {
        return MPI_ERR_NO_MEM;
    }
    len = 0;
    for (MPI_Offset i = 0; i + 1 < size; i += 2) {
        memset(out + len, in[i + 1], in[i]);
        len += in[i];
    }
    out_ptr = (MPI_Aint) out;
    MPIX_Graph_var_set(graph, BUF_LEN, &len);
    MPIX_Graph_var_set(graph, BUF_PTR, &out_ptr);
    return MPI_SUCCESS;
}

static MPIX_Token build(int rank, int implicit_edge, const char *name, MPI_Count *buf_len,
                        MPI_Aint *buf_ptr)
{
    MPIX_Graph g;
    MPIX_Token t;
    MPI_Comm comm = MPI_COMM_WORLD;
    int o, s, a, r, d, b;

    EX_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    EX_OK(MPIX_Graph_var_create(g, BUF_LEN, MPIX_GRAPH_VAR_REF_PARAM, MPI_COUNT));
    EX_OK(MPIX_Graph_var_create(g, BUF_PTR, MPIX_GRAPH_VAR_REF_PARAM, MPI_AINT));
    EX_OK(MPIX_Graph_var_create(g, BCAST_COMM, MPIX_GRAPH_VAR_LOCAL, MPI_LOCAL_TYPE_COMM));
    EX_OK(MPIX_Graph_var_set(g, BCAST_COMM, &comm));
    if (0 == rank) {
        EX_OK(MPIX_Graph_var_create(g, FILE_NAME, MPIX_GRAPH_VAR_VAL_PARAM, MPI_LOCAL_TYPE_STRING));
        EX_OK(MPIX_Graph_var_create(g, FILE_HANDLE, MPIX_GRAPH_VAR_LOCAL, MPI_LOCAL_TYPE_FILE));
        EX_OK(MPIX_Graph_var_create(g, FILE_SIZE, MPIX_GRAPH_VAR_LOCAL, MPI_OFFSET));
        EX_OK(MPIX_Graph_var_create(g, COMP_BUF_PTR, MPIX_GRAPH_VAR_LOCAL, MPI_AINT));
        EX_OK(MPIX_File_open_def(MPI_COMM_SELF, MPIX_VAR(FILE_NAME), MPI_MODE_RDONLY,
                                 MPI_INFO_NULL, MPIX_VAR(FILE_HANDLE), &t));
        EX_OK(MPIX_Graph_add(g, &t, &o, MPIX_DEP_NONE));
        EX_OK(MPIX_File_get_size_def(MPIX_VAR(FILE_HANDLE), MPIX_VAR(FILE_SIZE), &t));
        EX_OK(MPIX_Graph_add(g, &t, &s, implicit_edge ? MPIX_DEP_NONE : o));
        EX_OK(MPIX_Alloc_mem_def(MPIX_VAR_AINT(FILE_SIZE), MPI_INFO_NULL, MPIX_VAR(COMP_BUF_PTR),
                                 &t));
        EX_OK(MPIX_Graph_add(g, &t, &a, s));
        EX_OK(MPIX_File_read_def(MPIX_VAR(FILE_HANDLE), MPIX_VAR_ADDR(COMP_BUF_PTR),
                                 MPIX_VAR_INT(FILE_SIZE), MPI_BYTE, MPI_STATUS_IGNORE, &t));
        EX_OK(MPIX_Graph_add(g, &t, &r, a));
        EX_OK(MPIX_File_close_def(MPIX_VAR(FILE_HANDLE), &t));
        EX_OK(MPIX_Graph_add(g, &t, NULL, r));
        EX_OK(MPIX_Op_def(decompress, NULL, &t));
        EX_OK(MPIX_Graph_add(g, &t, &d, r));
        EX_OK(MPIX_Free_mem_def(MPIX_VAR_ADDR(COMP_BUF_PTR), &t));
        EX_OK(MPIX_Graph_add(g, &t, NULL, d));
        EX_OK(MPIX_Bcast_def(MPIX_VAR(BUF_LEN), 1, MPI_COUNT, 0, MPIX_VAR(BCAST_COMM), &t));
        EX_OK(MPIX_Graph_add(g, &t, &b, d));
        EX_OK(MPIX_Bcast_def(MPIX_VAR_ADDR(BUF_PTR), MPIX_VAR_INT(BUF_LEN), MPI_BYTE, 0,
                             MPIX_VAR(BCAST_COMM), &t));
        EX_OK(MPIX_Graph_add(g, &t, NULL, b));
        EX_OK(MPIX_Graph_set_param(g, FILE_NAME, &name));
    } else {
        EX_OK(MPIX_Bcast_def(MPIX_VAR(BUF_LEN), 1, MPI_COUNT, 0, MPIX_VAR(BCAST_COMM), &t));
        EX_OK(MPIX_Graph_add(g, &t, &b, MPIX_DEP_NONE));
        EX_OK(MPIX_Alloc_mem_def(MPIX_VAR_AINT(BUF_LEN), MPI_INFO_NULL, MPIX_VAR(BUF_PTR), &t));
        EX_OK(MPIX_Graph_add(g, &t, &a, b));
        EX_OK(MPIX_Bcast_def(MPIX_VAR_ADDR(BUF_PTR), MPIX_VAR_INT(BUF_LEN), MPI_BYTE, 0,
                             MPIX_VAR(BCAST_COMM), &t));
        EX_OK(MPIX_Graph_add(g, &t, NULL, a));
    }
    EX_OK(MPIX_Graph_set_param(g, BUF_LEN, buf_len));
    EX_OK(MPIX_Graph_set_param(g, BUF_PTR, buf_ptr));
    t = MPIX_TOKEN_NULL;
    EX_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
    EX_OK(MPIX_Graph_free(&g));
    return t;
}

int main(int argc, char **argv)
{
    char dir[256], names[2][300];
    int rank, provided;
    MPI_Request req;

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    ex_tmpdir(dir, sizeof(dir));
    for (int t = 0; t < 2; ++t) {
        snprintf(names[t], sizeof(names[t]), "%s/uc3_%d.rle", dir, t);
        if (0 == rank) {
            unsigned char rle[6] = {200, (unsigned char) ('A' + t), 100, (unsigned char) ('a' + t),
                                    250, (unsigned char) ('0' + t)};
            FILE *f = fopen(names[t], "wb");
            EX_CHECK(NULL != f && 6 == fwrite(rle, 1, 6, f), "cannot write %s", names[t]);
            if (NULL != f) {
                fclose(f);
            }
        }
    }
    for (int t = 0; t < 2; ++t) {
        MPI_Count buf_len = 0;
        MPI_Aint buf_ptr = 0;
        MPIX_Token token = build(rank, 1 == t, names[t], &buf_len, &buf_ptr);
        if (0 == t) {
            EX_CHECK(MPI_ERR_ARG == MPIX_Execute_init(token, MPI_INFO_NULL, MPIX_OFFLOAD_NITRO,
                                                      NULL, &req),
                     "MPIX_OFFLOAD_NITRO was not refused");
        }
        seen_size = -1;
        EX_OK(MPIX_Execute_init(token, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &req));
        EX_OK(MPIX_Token_free(&token));
        EX_OK(MPI_Start(&req));
        ex_sleep_ms(20);
        EX_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        EX_OK(MPI_Request_free(&req));
        EX_CHECK(550 == buf_len, "timestep %d: length %lld, expected 550", t, (long long) buf_len);
        if (550 == buf_len && 0 != buf_ptr) {
            const char *p = (const char *) buf_ptr;
            int bad = 0;
            for (int i = 0; i < 550; ++i) {
                bad += p[i] != (i < 200 ? 'A' + t : i < 300 ? 'a' + t : '0' + t);
            }
            EX_CHECK(0 == bad, "timestep %d: %d bytes wrong", t, bad);
        }
        if (0 == rank) {
            EX_CHECK(6 == seen_size, "timestep %d: the callback saw size %lld, expected 6", t,
                     (long long) seen_size);
            free((void *) buf_ptr);
        } else if (0 != buf_ptr) {
            EX_OK(MPI_Free_mem((void *) buf_ptr));
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        unlink(names[0]);
        unlink(names[1]);
        rmdir(dir);
    }
    return ex_verdict("UC3 (file prefetch, decompress callback, bcast on a variable comm)");
}
