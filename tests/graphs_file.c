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
 * Deferred file and memory operations (spec 1.2, 1.7): File_open_def (the
 * name is copied at _def), File_write_at_all(_c)_def, File_get_size_def,
 * File_read_at_def, File_read_def, File_close_def executed with
 * MPIX_Execute and on a stream; the blocking-only ones on an execution
 * request run on a worker thread when the library is thread safe (argv[1]
 * "pthread", mpi_async_progress=1, where the nonblocking file operations
 * also run beside the progress thread: patch 0014) and otherwise in the
 * thread of the MPI_Wait/MPI_Test family call that drives the execution
 * (patch 0020), alone or inside (nested) graphs;
 * Alloc_mem_def / Free_mem_def.
 */

#include <stdint.h>
#include <unistd.h>

#include "common/qtest.h"
#include <mpi-ext.h>

#define B 256

static int rank, size, threaded = 0;

/* blocking-only operations inside graphs on execution requests, completed
 * by MPI_Test, MPI_Waitall and MPI_Waitany, and an execution whose request
 * the program freed (spec 4.2: in a library that is not thread safe they
 * run in the thread of the call that drives the execution) */
static void blocking_on_requests(const char *dir)
{
    char name[512];
    MPI_File fh = MPI_FILE_NULL;
    MPIX_Graph g, outer;
    MPIX_Token t, topen, tg;
    MPI_Request req, reqs[3];
    int id, flag, indx = -1, tests, sent = rank, got = -1;

    snprintf(name, sizeof(name), "%s/graphs_file2.dat", dir);

    QT_STEP("file: a graph open -> close, persistent, completed by MPI_Test (twice)");
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    QT_OK(MPIX_File_open_def(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR,
                             MPI_INFO_NULL, &fh, &t));
    QT_OK(MPIX_Graph_add(g, &t, &id, MPIX_DEP_NONE));
    QT_OK(MPIX_File_close_def(&fh, &t));
    QT_OK(MPIX_Graph_add(g, &t, NULL, id));
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &tg));
    QT_OK(MPIX_Execute_init(tg, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &req));
    for (int round = 0; round < 2; ++round) {
        if (0 == rank) {
            unlink(name);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        QT_OK(MPI_Start(&req));
        flag = 0;
        for (tests = 0; !flag && tests < 10000000; ++tests) {
            QT_OK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
        }
        QT_CHECK(flag, "round %d: MPI_Test never completed the open -> close graph", round);
        QT_CHECK(MPI_FILE_NULL == fh, "round %d: the graph's close left the handle", round);
        QT_CHECK(0 == access(name, F_OK), "round %d: the graph's open made no file", round);
        /* before rank 0 removes it for the next round */
        MPI_Barrier(MPI_COMM_WORLD);
    }
    QT_OK(MPI_Request_free(&req));

    QT_STEP("file: that graph inside another one, by MPI_Waitall beside a sendrecv");
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &outer));
    QT_OK(MPIX_Graph_add(outer, &tg, NULL, MPIX_DEP_NONE)); /* consumes tg */
    QT_OK(MPIX_Graph_def(outer, MPI_INFO_NULL, &t));
    QT_OK(MPIX_Iexecute(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &reqs[0]));
    QT_OK(MPI_Irecv(&got, 1, MPI_INT, (rank + size - 1) % size, 7, MPI_COMM_WORLD, &reqs[1]));
    QT_OK(MPI_Isend(&sent, 1, MPI_INT, (rank + 1) % size, 7, MPI_COMM_WORLD, &reqs[2]));
    QT_OK(MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE));
    QT_CHECK(MPI_FILE_NULL == fh, "the nested graph's close left the handle");
    QT_CHECK((rank + size - 1) % size == got, "received %d beside the graph", got);
    QT_OK(MPIX_Token_free(&t));
    QT_OK(MPIX_Graph_free(&outer));
    QT_OK(MPIX_Graph_free(&g));

    QT_STEP("file: an open by MPI_Waitany, then a close through a freed request");
    QT_OK(MPIX_File_open_def(MPI_COMM_WORLD, name, MPI_MODE_RDWR, MPI_INFO_NULL, &fh, &topen));
    QT_OK(MPIX_Iexecute(topen, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &reqs[0]));
    reqs[1] = MPI_REQUEST_NULL;
    QT_OK(MPI_Waitany(2, reqs, &indx, MPI_STATUS_IGNORE));
    QT_CHECK(0 == indx, "MPI_Waitany gave index %d", indx);
    QT_CHECK(MPI_FILE_NULL != fh, "the open by MPI_Waitany gave no handle");
    QT_OK(MPIX_Token_free(&topen));
    if (MPI_FILE_NULL == fh) {
        return;
    }
    QT_OK(MPIX_File_close_def(&fh, &t));
    QT_OK(MPIX_Iexecute(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &req));
    QT_OK(MPI_Request_free(&req));
    QT_OK(MPIX_Token_free(&t));
    if (threaded) {
        /* a worker thread closes it: wait for the handle to go */
        for (tests = 0; MPI_FILE_NULL != fh && tests < 10000000; ++tests) {
            QT_OK(MPI_Test(&reqs[1], &flag, MPI_STATUS_IGNORE));
        }
    } else {
        /* any MPI_Wait-family call drives the freed request's execution */
        QT_OK(MPI_Irecv(&got, 1, MPI_INT, (rank + size - 1) % size, 8, MPI_COMM_WORLD, &reqs[0]));
        QT_OK(MPI_Isend(&sent, 1, MPI_INT, (rank + 1) % size, 8, MPI_COMM_WORLD, &reqs[1]));
        QT_OK(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
    }
    QT_CHECK(MPI_FILE_NULL == fh, "the close through a freed request left the handle");
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        unlink(name);
    }
}

static void file_ops(const char *dir)
{
    char name[512];
    MPI_File fh = MPI_FILE_NULL;
    MPIX_Token t, tclose;
    MPI_Request req;
    MPI_Offset fsize = -1;
    MPI_Status st;
    static int out[B], out2[B], in[B];
    int count = -1, rc, cls;

    snprintf(name, sizeof(name), "%s/graphs_file.dat", dir);

    QT_STEP("file: File_open_def copies the name; MPIX_Execute opens");
    QT_OK(MPIX_File_open_def(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                             &fh, &t));
    memset(name, 'x', sizeof(name) - 1);
    QT_OK(MPIX_Execute(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL));
    QT_CHECK(MPI_FILE_NULL != fh, "the deferred open gave no file handle");
    QT_OK(MPIX_Token_free(&t));
    if (MPI_FILE_NULL == fh) {
        return;
    }

    QT_STEP("file: collective writes (int and large-count forms), size");
    for (int i = 0; i < B; ++i) {
        out[i] = rank * 100000 + i;
        out2[i] = -(rank * 100000 + i);
    }
    QT_OK(MPIX_File_write_at_all_def(fh, (MPI_Offset) rank * B * sizeof(int), out, B, MPI_INT,
                                     MPI_STATUS_IGNORE, &t));
    QT_OK(MPIX_Execute(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL));
    QT_OK(MPIX_Token_free(&t));
    QT_OK(MPIX_File_write_at_all_c_def(fh, (MPI_Offset) (size + rank) * B * sizeof(int), out2,
                                       (MPI_Count) B, MPI_INT, &st, &t));
    QT_OK(MPIX_Execute(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL));
    MPI_Get_count(&st, MPI_INT, &count);
    QT_CHECK(B == count, "write_at_all_c status count %d", count);
    QT_OK(MPIX_Token_free(&t));
    MPI_Barrier(MPI_COMM_WORLD);
    QT_OK(MPIX_File_get_size_def(fh, &fsize, &t));
    QT_OK(MPIX_Execute(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL));
    QT_CHECK((MPI_Offset) (2 * size * B * (int) sizeof(int)) == fsize, "file size %lld",
             (long long) fsize);
    QT_OK(MPIX_Token_free(&t));

    QT_STEP("file: reads on a stream (read_at, then read from the individual pointer)");
    {
        MPIX_Stream s;
        static int first[B];
        int right = (rank + 1) % size;
        QT_OK(MPIX_Stream_create(MPI_SESSION_NULL, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &s));
        QT_OK(MPIX_File_read_at_def(fh, (MPI_Offset) right * B * sizeof(int), in, B, MPI_INT, &st,
                                    &t));
        QT_OK(MPIX_Stream_enqueue(s, &t));
        QT_OK(MPIX_File_read_def(fh, first, B, MPI_INT, MPI_STATUS_IGNORE, &t));
        QT_OK(MPIX_Stream_enqueue(s, &t));
        QT_OK(MPIX_Stream_sync(s));
        for (int i = 0; i < B; ++i) {
            QT_CHECK(right * 100000 + i == in[i], "read_at element %d is %d", i, in[i]);
            QT_CHECK(i == first[i], "read element %d is %d", i, first[i]);
            if (right * 100000 + i != in[i] || i != first[i]) {
                break;
            }
        }
        QT_OK(MPIX_Stream_free(&s));
    }

    QT_STEP("file: File_close_def on an execution request, completed by MPI_Wait");
    QT_OK(MPIX_File_close_def(&fh, &tclose));
    /* thread safe: a worker thread closes the file while this thread
     * waits; otherwise MPI_Wait runs the close in this thread (spec 4.2) */
    rc = MPIX_Iexecute(tclose, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &req);
    MPI_Error_class(rc, &cls);
    QT_CHECK(MPI_SUCCESS == rc, "MPIX_Iexecute of a close gave class %d", cls);
    if (MPI_SUCCESS == rc) {
        QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    } else {
        QT_OK(MPIX_Execute(tclose, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL));
    }
    QT_CHECK(MPI_FILE_NULL == fh, "the deferred close left the handle");
    QT_OK(MPIX_Token_free(&tclose));

    blocking_on_requests(dir);
    QT_STEP("file: open and close on a stream (sync runs the blocking-only ones)");
    {
        MPIX_Stream s;
        snprintf(name, sizeof(name), "%s/graphs_file.dat", dir);
        QT_OK(MPIX_Stream_create(MPI_SESSION_NULL, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &s));
        QT_OK(MPIX_File_open_def(MPI_COMM_WORLD, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh, &t));
        QT_OK(MPIX_Stream_enqueue(s, &t));
        QT_OK(MPIX_File_close_def(&fh, &t));
        QT_OK(MPIX_Stream_enqueue(s, &t));
        QT_OK(MPIX_Stream_sync(s));
        QT_CHECK(MPI_FILE_NULL == fh, "open + close on a stream left a handle");
        QT_OK(MPIX_Stream_free(&s));
    }

    QT_STEP("file: argument errors");
    QT_CHECK_RC(MPIX_File_open_def(MPI_COMM_NULL, "x", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh, &t),
                MPI_ERR_COMM);
    QT_CHECK_RC(MPIX_File_read_def(MPI_FILE_NULL, in, 1, MPI_INT, MPI_STATUS_IGNORE, &t),
                MPI_ERR_FILE);
    QT_CHECK_RC(MPIX_File_close_def(NULL, &t), MPI_ERR_ARG);
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        snprintf(name, sizeof(name), "%s/graphs_file.dat", dir);
        MPI_File_delete(name, MPI_INFO_NULL);
    }
}

static void mem_ops(void)
{
    void *p1 = NULL, *p2 = NULL;
    MPIX_Token ta, tf;

    QT_STEP("memory: Alloc_mem_def twice gives two buffers; Free_mem_def frees them");
    QT_OK(MPIX_Alloc_mem_def(4096, MPI_INFO_NULL, &p1, &ta));
    QT_OK(MPIX_Execute(ta, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL));
    p2 = p1;
    QT_OK(MPIX_Execute(ta, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL));
    QT_CHECK(NULL != p1 && NULL != p2 && p1 != p2, "allocations %p %p", p1, p2);
    if (NULL != p1 && NULL != p2) {
        memset(p1, 1, 4096);
        memset(p2, 2, 4096);
        QT_OK(MPIX_Free_mem_def(p1, &tf));
        QT_OK(MPIX_Execute(tf, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL));
        QT_OK(MPIX_Token_free(&tf));
        QT_OK(MPIX_Free_mem_def(p2, &tf));
        QT_OK(MPIX_Execute(tf, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL));
        QT_OK(MPIX_Token_free(&tf));
    }
    QT_OK(MPIX_Token_free(&ta));
    QT_CHECK_RC(MPIX_Alloc_mem_def(-1, MPI_INFO_NULL, &p1, &ta), MPI_ERR_ARG);
}

int main(int argc, char **argv)
{
    char dir[256] = {0};

    qt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    threaded = (argc > 1 && 0 == strcmp(argv[1], "pthread"));
    if (0 == rank) {
        char tmpl[] = "/tmp/graphs_file_XXXXXX";
        if (NULL != mkdtemp(tmpl)) {
            snprintf(dir, sizeof(dir), "%s", tmpl);
        }
    }
    MPI_Bcast(dir, sizeof(dir), MPI_CHAR, 0, MPI_COMM_WORLD);
    QT_CHECK('\0' != dir[0], "no temporary directory");
    if ('\0' != dir[0]) {
        file_ops(dir);
    }
    mem_ops();
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank && '\0' != dir[0]) {
        rmdir(dir);
    }
    return qt_finalize();
}
