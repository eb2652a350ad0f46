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
 * The large-count token constructors (MPIX_*_c_def, spec 1.2.1):
 *  C1  small counts through every _c_def: the data as through the int
 *      twins (ring send/receive, sendrecv, bcast, reduce, allreduce, a file
 *      written, read at an offset and read);
 *  C2  argument checks: a negative count (MPI_ERR_COUNT), a count no
 *      datatype can carry (MPI_ERR_COUNT), and above INT_MAX a reduction
 *      with a user operation (MPI_ERR_OP), a datatype from a graph
 *      variable (MPI_ERR_ARG);
 *      nothing is created;
 *  C3  argv[1] "big", 2 ranks: 2 GiB + 4097 elements: a sendrecv between the
 *      two ranks (literal count), a sum reduction to rank 0 and a broadcast
 *      whose count comes from a graph variable (markers on each side of
 *      INT_MAX and in the last, partial block; the status counts every
 *      byte).  The reduction takes libnbc's chain schedule, whose fragments
 *      of a 2 GiB element overflowed the stack before patch 0023; run with
 *      coll_libnbc_ibcast_algorithm=3, so does the broadcast.
 */

#include <limits.h>
#include <stdint.h>
#include <unistd.h>

#include "common/qtest.h"
#include <mpi-ext.h>

#define NBIG ((MPI_Count) INT_MAX + 4097)

static int rank, size, right, left;

static void user_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void) in;
    (void) inout;
    (void) len;
    (void) dt;
}

static void c1_small(const char *dir)
{
    int s[5], r[5], sum[5];
    MPIX_Token t;
    MPI_Request reqs[2];
    MPI_Status st;
    int count = -1;

    QT_STEP("C1: ring Send_c_def / Recv_c_def");
    for (int i = 0; i < 5; ++i) {
        s[i] = 100 * rank + i;
        r[i] = -1;
    }
    QT_OK(MPIX_Recv_c_def(r, 5, MPI_INT, left, 4, MPI_COMM_WORLD, &st, &t));
    QT_OK(MPIX_Iexecute(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &reqs[0]));
    QT_OK(MPIX_Token_free(&t));
    QT_OK(MPIX_Send_c_def(s, 5, MPI_INT, right, 4, MPI_COMM_WORLD, &t));
    QT_OK(MPIX_Iexecute(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &reqs[1]));
    QT_OK(MPIX_Token_free(&t));
    QT_OK(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
    QT_OK(MPI_Get_count(&st, MPI_INT, &count));
    QT_CHECK(5 == count && left == st.MPI_SOURCE, "receive status: count %d source %d", count,
             st.MPI_SOURCE);
    for (int i = 0; i < 5; ++i) {
        QT_CHECK(100 * left + i == r[i], "ring element %d is %d", i, r[i]);
    }

    QT_STEP("C1: Sendrecv_c_def");
    for (int i = 0; i < 5; ++i) {
        r[i] = -1;
    }
    QT_OK(MPIX_Sendrecv_c_def(s, 5, MPI_INT, right, 5, r, 5, MPI_INT, left, 5, MPI_COMM_WORLD,
                              MPI_STATUS_IGNORE, &t));
    QT_OK(MPIX_Execute(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL));
    QT_OK(MPIX_Token_free(&t));
    for (int i = 0; i < 5; ++i) {
        QT_CHECK(100 * left + i == r[i], "sendrecv element %d is %d", i, r[i]);
    }

    QT_STEP("C1: Bcast_c_def, Reduce_c_def, Allreduce_c_def");
    for (int i = 0; i < 5; ++i) {
        r[i] = (size - 1 == rank) ? 7 * i : -1;
        sum[i] = -1;
    }
    QT_OK(MPIX_Bcast_c_def(r, 5, MPI_INT, size - 1, MPI_COMM_WORLD, &t));
    QT_OK(MPIX_Execute(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL));
    QT_OK(MPIX_Token_free(&t));
    QT_OK(MPIX_Reduce_c_def(s, sum, 5, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, &t));
    QT_OK(MPIX_Execute(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL));
    QT_OK(MPIX_Token_free(&t));
    for (int i = 0; i < 5; ++i) {
        int want = 100 * size * (size - 1) / 2 + size * i;
        QT_CHECK(7 * i == r[i], "bcast element %d is %d", i, r[i]);
        QT_CHECK(0 != rank || want == sum[i], "reduce element %d is %d, expected %d", i, sum[i],
                 want);
    }
    QT_OK(MPIX_Allreduce_c_def(s, sum, 5, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &t));
    QT_OK(MPIX_Execute(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL));
    QT_OK(MPIX_Token_free(&t));
    for (int i = 0; i < 5; ++i) {
        QT_CHECK(100 * (size - 1) + i == sum[i], "allreduce element %d is %d", i, sum[i]);
    }

    QT_STEP("C1: File_write_at_c_def, File_read_at_c_def, File_read_c_def");
    {
        char name[512];
        MPI_File fh;
        int back[5], back2[5];
        snprintf(name, sizeof(name), "%s/c1.%d", dir, rank);
        QT_OK(MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                            &fh));
        QT_OK(MPIX_File_write_at_c_def(fh, 8, s, 5, MPI_INT, MPI_STATUS_IGNORE, &t));
        QT_OK(MPIX_Execute(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL));
        QT_OK(MPIX_Token_free(&t));
        QT_OK(MPIX_File_read_at_c_def(fh, 8, back, 5, MPI_INT, &st, &t));
        QT_OK(MPIX_Execute(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL));
        QT_OK(MPIX_Token_free(&t));
        QT_OK(MPI_Get_count(&st, MPI_INT, &count));
        QT_CHECK(5 == count, "read_at status counts %d", count);
        QT_OK(MPI_File_seek(fh, 8, MPI_SEEK_SET));
        QT_OK(MPIX_File_read_c_def(fh, back2, 5, MPI_INT, MPI_STATUS_IGNORE, &t));
        QT_OK(MPIX_Execute(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL));
        QT_OK(MPIX_Token_free(&t));
        for (int i = 0; i < 5; ++i) {
            QT_CHECK(s[i] == back[i] && s[i] == back2[i], "file element %d: read_at %d read %d",
                     i, back[i], back2[i]);
        }
        QT_OK(MPI_File_close(&fh));
        unlink(name);
    }
}

static void c2_checks(void)
{
    MPIX_Token t = MPIX_TOKEN_NULL;
    MPI_Op uop;
    MPI_Datatype contig;
    MPIX_Graph g;
    MPI_Count huge = ((MPI_Count) 1 << 20) * ((MPI_Count) INT_MAX + 1);
    char c = 0;

    QT_STEP("C2: negative counts");
    QT_CHECK_RC(MPIX_Send_c_def(&c, -1, MPI_CHAR, right, 0, MPI_COMM_WORLD, &t), MPI_ERR_COUNT);
    QT_CHECK_RC(MPIX_Recv_c_def(&c, -1, MPI_CHAR, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, &t),
                MPI_ERR_COUNT);
    QT_CHECK_RC(MPIX_Sendrecv_c_def(&c, 1, MPI_CHAR, right, 0, &c, -2, MPI_CHAR, left, 0,
                                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, &t), MPI_ERR_COUNT);
    QT_CHECK_RC(MPIX_Bcast_c_def(&c, -1, MPI_CHAR, 0, MPI_COMM_WORLD, &t), MPI_ERR_COUNT);
    QT_CHECK_RC(MPIX_Reduce_c_def(&c, &c, -1, MPI_CHAR, MPI_MAX, 0, MPI_COMM_WORLD, &t),
                MPI_ERR_COUNT);
    QT_CHECK_RC(MPIX_Allreduce_c_def(&c, &c, -1, MPI_CHAR, MPI_MAX, MPI_COMM_WORLD, &t),
                MPI_ERR_COUNT);
    QT_CHECK(MPIX_TOKEN_NULL == t, "a refused _c_def made a token");

    QT_STEP("C2: a count no datatype can carry");
    QT_CHECK_RC(MPIX_Send_c_def(&c, huge, MPI_CHAR, right, 0, MPI_COMM_WORLD, &t), MPI_ERR_COUNT);
    QT_CHECK_RC(MPIX_Bcast_c_def(&c, huge, MPI_CHAR, 0, MPI_COMM_WORLD, &t), MPI_ERR_COUNT);

    QT_STEP("C2: a reduction above INT_MAX needs a predefined operation (and datatype: a "
            "derived one is refused with MPI_ERR_OP at any count, as by MPI_Allreduce)");
    QT_OK(MPI_Op_create(user_fn, 1, &uop));
    QT_CHECK_RC(MPIX_Reduce_c_def(&c, &c, NBIG, MPI_UINT8_T, uop, 0, MPI_COMM_WORLD, &t),
                MPI_ERR_OP);
    QT_CHECK_RC(MPIX_Allreduce_c_def(&c, &c, NBIG, MPI_UINT8_T, uop, MPI_COMM_WORLD, &t),
                MPI_ERR_OP);
    QT_OK(MPI_Type_contiguous(2, MPI_UINT8_T, &contig));
    QT_OK(MPI_Type_commit(&contig));
    QT_CHECK_RC(MPIX_Allreduce_c_def(&c, &c, NBIG, contig, MPI_SUM, MPI_COMM_WORLD, &t),
                MPI_ERR_OP);
    QT_OK(MPI_Type_free(&contig));
    QT_OK(MPI_Op_free(&uop));
    QT_CHECK(MPIX_TOKEN_NULL == t, "a refused _c_def made a token");

    QT_STEP("C2: above INT_MAX the datatype may not come from a graph variable");
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    QT_OK(MPIX_Graph_var_create(g, 2, MPIX_GRAPH_VAR_LOCAL, MPI_LOCAL_TYPE_DATATYPE));
    QT_CHECK_RC(MPIX_Bcast_c_def(&c, NBIG, (MPI_Datatype) MPIX_VAR(2), 0, MPI_COMM_WORLD, &t),
                MPI_ERR_ARG);
    QT_CHECK_RC(MPIX_Send_c_def(&c, NBIG, (MPI_Datatype) MPIX_VAR(2), right, 0, MPI_COMM_WORLD,
                                &t), MPI_ERR_ARG);
    QT_CHECK(MPIX_TOKEN_NULL == t, "a refused _c_def made a token");
    /* below INT_MAX it may */
    QT_OK(MPIX_Bcast_c_def(&c, 1, (MPI_Datatype) MPIX_VAR(2), 0, MPI_COMM_WORLD, &t));
    QT_OK(MPIX_Token_free(&t));
    QT_OK(MPIX_Graph_free(&g));
}

static const MPI_Count marker_at[4] = {0, (MPI_Count) INT_MAX - 1, (MPI_Count) INT_MAX, NBIG - 1};

static void set_markers(unsigned char *buf, int first)
{
    for (int i = 0; i < 4; ++i) {
        buf[marker_at[i]] = (unsigned char) (first + i);
    }
}

static void check_markers(const unsigned char *buf, int first, const char *how)
{
    for (int i = 0; i < 4; ++i) {
        QT_CHECK((unsigned char) (first + i) == buf[marker_at[i]],
                 "%s: element %lld is %d, expected %d", how, (long long) marker_at[i],
                 buf[marker_at[i]], (unsigned char) (first + i));
    }
    /* between the markers nothing was written but zeros */
    QT_CHECK(0 == buf[1] && 0 == buf[(MPI_Count) INT_MAX - 2] && 0 == buf[NBIG - 2],
             "%s: a byte between the markers is not zero", how);
}

static void c3_big(unsigned char *sbuf, unsigned char *rbuf)
{
    MPIX_Token t;
    MPIX_Graph g;
    MPI_Status st;
    MPI_Count n = -1, big = NBIG;
    int peer = 1 - rank, id;

    QT_STEP("C3: Sendrecv_c_def of 2 GiB + 4097 bytes between the two ranks");
    set_markers(sbuf, 10 + 10 * rank);
    QT_OK(MPIX_Sendrecv_c_def(sbuf, NBIG, MPI_UINT8_T, peer, 1, rbuf, NBIG, MPI_UINT8_T, peer, 1,
                              MPI_COMM_WORLD, &st, &t));
    QT_OK(MPIX_Execute(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL));
    QT_OK(MPIX_Token_free(&t));
    check_markers(rbuf, 10 + 10 * peer, "sendrecv");
    QT_OK(MPI_Get_elements_x(&st, MPI_BYTE, &n));
    QT_CHECK(NBIG == n, "sendrecv status counts %lld bytes", (long long) n);

    QT_STEP("C3: Reduce_c_def (MPI_SUM of 2 GiB + 4097 MPI_UINT8_T) to rank 0");
    /* sbuf holds this rank's markers; the sum at each marker is known */
    memset(rbuf, 0xee, 4096);
    QT_OK(MPIX_Reduce_c_def(sbuf, rbuf, NBIG, MPI_UINT8_T, MPI_SUM, 0, MPI_COMM_WORLD, &t));
    QT_OK(MPIX_Execute(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL));
    QT_OK(MPIX_Token_free(&t));
    if (0 == rank) {
        /* (10 + i) + (20 + i) at the markers, zeros between */
        for (int i = 0; i < 4; ++i) {
            QT_CHECK(30 + 2 * i == rbuf[marker_at[i]], "reduce: element %lld is %d, expected %d",
                     (long long) marker_at[i], rbuf[marker_at[i]], 30 + 2 * i);
        }
        QT_CHECK(0 == rbuf[1] && 0 == rbuf[(MPI_Count) INT_MAX - 2] && 0 == rbuf[NBIG - 2],
                 "reduce: a sum between the markers is not zero");
    }

    QT_STEP("C3: Bcast_c_def from rank 1, its count from a graph variable");
    if (1 == rank) {
        set_markers(rbuf, 70);
    } else {
        memset(rbuf, 0, 4096);
        for (int i = 0; i < 4; ++i) {
            rbuf[marker_at[i]] = 0;
        }
    }
    QT_OK(MPIX_Graph_create(MPI_SESSION_NULL, MPI_INFO_NULL, &g));
    QT_OK(MPIX_Graph_var_create(g, 1, MPIX_GRAPH_VAR_LOCAL, MPI_COUNT));
    QT_OK(MPIX_Graph_var_set(g, 1, &big));
    QT_OK(MPIX_Bcast_c_def(rbuf, MPIX_VAR_COUNT(1), MPI_UINT8_T, 1, MPI_COMM_WORLD, &t));
    QT_OK(MPIX_Graph_add(g, &t, &id, MPIX_DEP_NONE));
    QT_OK(MPIX_Graph_def(g, MPI_INFO_NULL, &t));
    QT_OK(MPIX_Graph_free(&g));
    QT_OK(MPIX_Execute(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL));
    QT_OK(MPIX_Token_free(&t));
    if (0 == rank) {
        for (int i = 0; i < 4; ++i) {
            QT_CHECK(70 + i == rbuf[marker_at[i]], "bcast marker %d is %d", i,
                     rbuf[marker_at[i]]);
        }
    }
}

int main(int argc, char **argv)
{
    char dir[256] = "";

    qt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    right = (rank + 1) % size;
    left = (rank - 1 + size) % size;
    if (argc > 1 && 0 == strcmp(argv[1], "big")) {
        unsigned char *sbuf, *rbuf;
        QT_STEP("C3: set-up: two 2 GiB buffers a rank");
        QT_CHECK(2 == size, "the big case runs on 2 ranks, not %d", size);
        /* pages never written read as zero and are not resident */
        sbuf = calloc(1, (size_t) NBIG);
        rbuf = calloc(1, (size_t) NBIG);
        QT_CHECK(NULL != sbuf && NULL != rbuf, "no memory for 2 x %lld bytes", (long long) NBIG);
        if (2 == size && NULL != sbuf && NULL != rbuf) {
            c3_big(sbuf, rbuf);
        }
        free(sbuf);
        free(rbuf);
        return qt_finalize();
    }
    if (0 == rank) {
        const char *base = getenv("TMPDIR");
        snprintf(dir, sizeof(dir), "%s/graphs-large-XXXXXX", NULL != base ? base : "/tmp");
        if (NULL == mkdtemp(dir)) {
            dir[0] = '\0';
        }
    }
    MPI_Bcast(dir, (int) sizeof(dir), MPI_CHAR, 0, MPI_COMM_WORLD);
    QT_CHECK('\0' != dir[0], "no temporary directory");
    if ('\0' != dir[0]) {
        c1_small(dir);
    }
    c2_checks();
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank && '\0' != dir[0]) {
        rmdir(dir);
    }
    return qt_finalize();
}
