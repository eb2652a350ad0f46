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
 * Use case 4 of the proposal, listing 6, "Offload collective I/O for writing
 * checkpoint file" (spec T-UC4): a graph opens a file collectively (name and
 * communicator are parameters), writes three buffers with concurrent
 * MPIX_File_write_at_all_c (offset, address, count and datatype of each are
 * parameters), joins them and closes the file.  Each checkpoint sets the
 * parameters, defs, starts, and is waited for before the next one, so the
 * checkpoint I/O overlaps the computation in between.  Rank 0 then reads
 * both files with plain MPI-IO and checks every block.
 * Run: examples/graphs/run.sh uc4 [2..4]
 */

#include "common.h"

#define B 1024
#define FILE_NAME 0
#define FILE_COMM 1
#define FILE_HANDLE 2
#define OFF(k) (10 + (k))
#define PTR(k) (20 + (k))
#define CNT(k) (30 + (k))
#define TYP(k) (40 + (k))

int main(int argc, char **argv)
{
    char dir[256], name[2][300];
    int rank, n, provided, o = -1, w[3], j = -1;
    static int buf[3][B];
    MPIX_Graph g;
    MPIX_Token t;
    MPI_Comm fcomm;
    MPI_Request req = MPI_REQUEST_NULL;

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm_dup(MPI_COMM_WORLD, &fcomm);
    ex_tmpdir(dir, sizeof(dir));

    EX_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    EX_OK(MPIX_Graph_var_create(g, FILE_NAME, MPIX_GRAPH_VAR_VAL_PARAM, MPI_LOCAL_TYPE_STRING));
    EX_OK(MPIX_Graph_var_create(g, FILE_COMM, MPIX_GRAPH_VAR_VAL_PARAM, MPI_LOCAL_TYPE_COMM));
    EX_OK(MPIX_Graph_var_create(g, FILE_HANDLE, MPIX_GRAPH_VAR_LOCAL, MPI_LOCAL_TYPE_FILE));
    EX_OK(MPIX_File_open_def(MPIX_VAR(FILE_COMM), MPIX_VAR(FILE_NAME),
                             MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
                             MPIX_VAR(FILE_HANDLE), &t));
    EX_OK(MPIX_Graph_add(g, &t, &o, MPIX_DEP_NONE));
    for (int k = 0; k < 3; ++k) {
        EX_OK(MPIX_Graph_var_create(g, OFF(k), MPIX_GRAPH_VAR_VAL_PARAM, MPI_OFFSET));
        EX_OK(MPIX_Graph_var_create(g, PTR(k), MPIX_GRAPH_VAR_VAL_PARAM, MPI_AINT));
        EX_OK(MPIX_Graph_var_create(g, CNT(k), MPIX_GRAPH_VAR_VAL_PARAM, MPI_COUNT));
        EX_OK(MPIX_Graph_var_create(g, TYP(k), MPIX_GRAPH_VAR_VAL_PARAM, MPI_LOCAL_TYPE_DATATYPE));
        EX_OK(MPIX_File_write_at_all_c_def(MPIX_VAR(FILE_HANDLE), MPIX_VAR_OFFSET(OFF(k)),
                                           MPIX_VAR_ADDR(PTR(k)), MPIX_VAR_COUNT(CNT(k)),
                                           MPIX_VAR(TYP(k)), MPI_STATUS_IGNORE, &t));
        EX_OK(MPIX_Graph_add(g, &t, &w[k], o));
    }
    EX_OK(MPIX_Graph_join(g, 3, w, &j));
    EX_OK(MPIX_File_close_def(MPIX_VAR(FILE_HANDLE), &t));
    EX_OK(MPIX_Graph_add(g, &t, NULL, j));
    EX_CHECK(1 == o && 2 == w[0] && 3 == w[1] && 4 == w[2] && 5 == j,
             "op IDs %d %d %d %d %d, expected 1..5", o, w[0], w[1], w[2], j);

    for (int c = 1; c <= 2; ++c) {
        const char *np = name[c - 1];
        snprintf(name[c - 1], sizeof(name[c - 1]), "%s/ckpt_%d", dir, c);
        for (int k = 0; k < 3; ++k) {
            MPI_Offset off = (MPI_Offset) (k * n + rank) * B * 4;
            MPI_Aint ptr = (MPI_Aint) buf[k];
            MPI_Count cnt = B;
            MPI_Datatype ty = MPI_INT;
            for (int i = 0; i < B; ++i) {
                buf[k][i] = 10000 * c + 100 * k + rank;
            }
            EX_OK(MPIX_Graph_set_param(g, OFF(k), &off));
            EX_OK(MPIX_Graph_set_param(g, PTR(k), &ptr));
            EX_OK(MPIX_Graph_set_param(g, CNT(k), &cnt));
            EX_OK(MPIX_Graph_set_param(g, TYP(k), &ty));
        }
        EX_OK(MPIX_Graph_set_param(g, FILE_NAME, &np));
        EX_OK(MPIX_Graph_set_param(g, FILE_COMM, &fcomm));
        EX_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
        EX_OK(MPIX_Execute_init(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &req));
        EX_OK(MPIX_Token_free(&t));
        EX_OK(MPI_Start(&req));
        ex_sleep_ms(20);  /* the next timesteps' computation */
        EX_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        EX_OK(MPI_Request_free(&req));
    }
    EX_OK(MPIX_Graph_free(&g));
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        static int rd[B];
        for (int c = 1; c <= 2; ++c) {
            MPI_File fh;
            MPI_Offset size = 0;
            EX_OK(MPI_File_open(MPI_COMM_SELF, name[c - 1], MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
            EX_OK(MPI_File_get_size(fh, &size));
            EX_CHECK((MPI_Offset) 3 * n * B * 4 == size, "checkpoint %d: %lld bytes", c,
                     (long long) size);
            for (int k = 0; k < 3; ++k) {
                for (int r = 0; r < n; ++r) {
                    int bad = 0;
                    EX_OK(MPI_File_read_at(fh, (MPI_Offset) (k * n + r) * B * 4, rd, B, MPI_INT,
                                           MPI_STATUS_IGNORE));
                    for (int i = 0; i < B; ++i) {
                        bad += rd[i] != 10000 * c + 100 * k + r;
                    }
                    EX_CHECK(0 == bad, "checkpoint %d block (%d,%d): %d ints wrong", c, k, r, bad);
                }
            }
            MPI_File_close(&fh);
            unlink(name[c - 1]);
        }
        rmdir(dir);
    }
    MPI_Comm_free(&fcomm);
    return ex_verdict("UC4 (checkpoint: open, three concurrent write_at_all_c, join, close)");
}
