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
 * MPIX_File_write_at_all_c_def with a count above INT_MAX (spec 1.2: the
 * large-count binding), as a literal and from a graph variable
 * (MPIX_VAR_COUNT): every byte of a 2 GiB + 4097 write reaches the file
 * (markers on each side of INT_MAX and in the last, partial block are read
 * back), the status counts every element; a variable count above INT_MAX
 * into the int-count binding, and one no datatype can carry, fail the
 * execution with MPI_ERR_COUNT.  One rank, a file on MPI_COMM_SELF.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <fcntl.h>
#include <limits.h>

#include "common/qtest.h"
#include <mpi-ext.h>

#define NBIG ((MPI_Count) INT_MAX + 4097)

static const MPI_Count marker_at[4] = {0, (MPI_Count) INT_MAX - 1, (MPI_Count) INT_MAX,
                                       NBIG - 1};

static void set_markers(char *buf, char first)
{
    for (int i = 0; i < 4; ++i) {
        buf[marker_at[i]] = (char) (first + i);
    }
}

/* the file's size and its bytes at the markers, read without MPI */
static void check_file(const char *name, char first, const char *how)
{
    struct stat st;
    int fd = open(name, O_RDONLY);

    QT_CHECK(0 <= fd, "%s: cannot open %s", how, name);
    if (0 > fd) {
        return;
    }
    QT_CHECK(0 == fstat(fd, &st) && (MPI_Count) st.st_size == NBIG,
             "%s: file size %lld, expected %lld", how, (long long) st.st_size, (long long) NBIG);
    for (int i = 0; i < 4; ++i) {
        char c = 0;
        QT_CHECK(1 == pread(fd, &c, 1, (off_t) marker_at[i]) && c == (char) (first + i),
                 "%s: byte %lld is %d, expected %d", how, (long long) marker_at[i], c,
                 first + i);
    }
    close(fd);
}

static void check_status(MPI_Status *st, const char *how)
{
    MPI_Count n = -1;

    QT_OK(MPI_Get_elements_x(st, MPI_BYTE, &n));
    QT_CHECK(NBIG == n, "%s: status counts %lld bytes, expected %lld", how, (long long) n,
             (long long) NBIG);
}

static void big_writes(const char *name, char *buf)
{
    MPIX_Graph g;
    MPIX_Token t;
    MPI_File fh;
    MPI_Status st;
    int id = -1;
    MPI_Count n = NBIG, huge = ((MPI_Count) 1 << 20) * ((MPI_Count) INT_MAX + 1);

    QT_OK(MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                        &fh));

    QT_STEP("write_at_all_c: a literal count above INT_MAX");
    set_markers(buf, 'a');
    memset(&st, 0, sizeof(st));
    QT_OK(MPIX_File_write_at_all_c_def(fh, 0, buf, NBIG, MPI_BYTE, &st, &t));
    QT_OK(MPIX_Execute(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL));
    QT_OK(MPIX_Token_free(&t));
    QT_OK(MPI_File_sync(fh));
    check_status(&st, "literal");
    check_file(name, 'a', "literal");

    QT_STEP("write_at_all_c: a count above INT_MAX from a graph variable");
    set_markers(buf, 'A');
    memset(&st, 0, sizeof(st));
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    QT_OK(MPIX_Graph_var_create(g, 1, MPIX_GRAPH_VAR_LOCAL, MPI_COUNT));
    QT_OK(MPIX_Graph_var_set(g, 1, &n));
    QT_OK(MPIX_File_write_at_all_c_def(fh, 0, buf, MPIX_VAR_COUNT(1), MPI_BYTE, &st, &t));
    QT_OK(MPIX_Graph_add(g, &t, &id, MPIX_DEP_NONE));
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
    QT_OK(MPIX_Execute(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL));
    QT_OK(MPIX_Token_free(&t));
    QT_OK(MPI_File_sync(fh));
    check_status(&st, "variable");
    check_file(name, 'A', "variable");

    QT_STEP("a variable count no datatype can carry: MPI_ERR_COUNT");
    QT_OK(MPIX_Graph_var_set(g, 1, &huge));
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
    QT_CHECK_RC(MPIX_Execute(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL), MPI_ERR_COUNT);
    QT_OK(MPIX_Token_free(&t));
    MPIX_Graph_free(&g);

    QT_STEP("write_at_all (int count): a variable count above INT_MAX is MPI_ERR_COUNT");
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    QT_OK(MPIX_Graph_var_create(g, 1, MPIX_GRAPH_VAR_LOCAL, MPI_COUNT));
    QT_OK(MPIX_Graph_var_set(g, 1, &n));
    QT_OK(MPIX_File_write_at_all_def(fh, 0, buf, MPIX_VAR_INT(1), MPI_BYTE, &st, &t));
    QT_OK(MPIX_Graph_add(g, &t, &id, MPIX_DEP_NONE));
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
    QT_CHECK_RC(MPIX_Execute(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL), MPI_ERR_COUNT);
    QT_OK(MPIX_Token_free(&t));
    MPIX_Graph_free(&g);
    /* the failed executions wrote nothing */
    check_file(name, 'A', "after the refused counts");

    QT_OK(MPI_File_close(&fh));
}

int main(int argc, char **argv)
{
    char dir[] = "/tmp/graphs_bigcount_XXXXXX", name[64];
    char *buf, *made;

    qt_init(&argc, &argv);
    QT_STEP("set-up: a 2 GiB buffer and a temporary directory");
    /* pages never written read as zero and are not resident */
    buf = calloc(1, (size_t) NBIG);
    QT_CHECK(NULL != buf, "no memory for %lld bytes", (long long) NBIG);
    made = mkdtemp(dir);
    QT_CHECK(NULL != made, "no temporary directory");
    if (NULL != buf && NULL != made) {
        snprintf(name, sizeof(name), "%s/big.dat", dir);
        big_writes(name, buf);
        unlink(name);
        rmdir(dir);
    }
    free(buf);
    return qt_finalize();
}
