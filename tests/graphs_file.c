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
 * also run beside the progress thread: patch 0014) and are refused
 * otherwise;
 * Alloc_mem_def / Free_mem_def.
 */

#include <stdint.h>

#include "common/qtest.h"
#include <mpi-ext.h>

#define B 256

static int rank, size, threaded = 0;

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

    QT_STEP("file: File_close_def on an execution request");
    QT_OK(MPIX_File_close_def(&fh, &tclose));
    rc = MPIX_Iexecute(tclose, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &req);
    if (threaded) {
        /* a worker thread closes the file while this thread waits */
        QT_CHECK(MPI_SUCCESS == rc, "MPIX_Iexecute of a close returned %d", rc);
        if (MPI_SUCCESS == rc) {
            QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        }
    } else {
        MPI_Error_class(rc, &cls);
        QT_CHECK(MPI_ERR_UNSUPPORTED_OPERATION == cls,
                 "a blocking-only token on a request in MPI_THREAD_SINGLE gave class %d", cls);
        QT_OK(MPIX_Execute(tclose, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL));
    }
    QT_CHECK(MPI_FILE_NULL == fh, "the deferred close left the handle");
    QT_OK(MPIX_Token_free(&tclose));

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
