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
 * Ordinary point-to-point programs must run unchanged: blocking, combined,
 * nonblocking, synchronous, buffered and persistent sends around a ring;
 * wildcard receives, probe and matched probe; a 1 MiB (rendezvous) message;
 * a vector datatype; non-overtaking order; and an MPI_Test loop.  Every
 * phase checks the data and the statuses (source, tag, count).
 */

#include "common/qtest.h"

#define N 128
#define BIG_INTS (1024 * 1024 / (int) sizeof(int))
#define NORD 20
#define ORD_LONG 16384

static int rank, size, left, right;

/* Fill with the values rank "who" sends in phase "phase"; check them. */
static void fill(int *buf, int n, int who, int phase)
{
    for (int i = 0; i < n; ++i) {
        buf[i] = who * 100000 + phase * 1000 + i;
    }
}

static void check(const int *buf, int n, int who, int phase, const char *what)
{
    int bad = 0, first = -1;

    for (int i = 0; i < n; ++i) {
        if (who * 100000 + phase * 1000 + i != buf[i]) {
            if (0 == bad++) {
                first = i;
            }
        }
    }
    QT_CHECK(0 == bad, "%s: %d wrong element(s), first at %d (got %d)", what, bad, first,
             first >= 0 ? buf[first] : 0);
}

static void check_status(const MPI_Status *st, int source, int tag, MPI_Datatype type, int count,
                         const char *what)
{
    int got = -1;

    MPI_Get_count(st, type, &got);
    QT_CHECK(source == st->MPI_SOURCE && tag == st->MPI_TAG && count == got,
             "%s: status source/tag/count %d/%d/%d, expected %d/%d/%d", what, st->MPI_SOURCE,
             st->MPI_TAG, got, source, tag, count);
}

/* A received message: its status and its n ints sent by "src" in "phase". */
static void check_recv(const int *buf, const MPI_Status *st, int n, int src, int tag, int phase,
                       const char *what)
{
    check_status(st, src, tag, MPI_INT, n, what);
    check(buf, n, src, phase, what);
}

/* Rank 0 starts, every other rank receives from the left and then sends on. */
static void ring(int (*sendfn)(const void *, int, MPI_Datatype, int, int, MPI_Comm), int tag,
                 const char *what)
{
    int sbuf[N], rbuf[N] = {0};
    MPI_Status st;

    fill(sbuf, N, rank, tag);
    if (0 == rank) {
        QT_OK(sendfn(sbuf, N, MPI_INT, right, tag, MPI_COMM_WORLD));
    }
    QT_OK(MPI_Recv(rbuf, N, MPI_INT, left, tag, MPI_COMM_WORLD, &st));
    if (0 != rank) {
        QT_OK(sendfn(sbuf, N, MPI_INT, right, tag, MPI_COMM_WORLD));
    }
    check_recv(rbuf, &st, N, left, tag, tag, what);
}

static void basic_phases(void)
{
    int sbuf[N], rbuf[N], rbuf2[N], bsize, dsize = 0;
    MPI_Request reqs[4];
    MPI_Status sts[4];
    void *bbuf, *det = NULL;

    QT_STEP("blocking send ring");
    ring(MPI_Send, 1, "send ring");

    QT_STEP("sendrecv");
    fill(sbuf, N, rank, 3);
    QT_OK(MPI_Sendrecv(sbuf, N, MPI_INT, right, 3, rbuf, N, MPI_INT, left, 3, MPI_COMM_WORLD,
                       &sts[0]));
    check_recv(rbuf, &sts[0], N, left, 3, 3, "sendrecv");

    QT_STEP("isend/irecv both ways");
    /* Tag 10 travels to the right, tag 11 (half as long) to the left. */
    QT_OK(MPI_Irecv(rbuf, N, MPI_INT, left, 10, MPI_COMM_WORLD, &reqs[0]));
    QT_OK(MPI_Irecv(rbuf2, N, MPI_INT, right, 11, MPI_COMM_WORLD, &reqs[1]));
    fill(sbuf, N, rank, 10);
    QT_OK(MPI_Isend(sbuf, N, MPI_INT, right, 10, MPI_COMM_WORLD, &reqs[2]));
    QT_OK(MPI_Isend(sbuf, N / 2, MPI_INT, left, 11, MPI_COMM_WORLD, &reqs[3]));
    QT_OK(MPI_Waitall(4, reqs, sts));
    check_recv(rbuf, &sts[0], N, left, 10, 10, "irecv from left");
    check_recv(rbuf2, &sts[1], N / 2, right, 11, 10, "irecv from right");
    for (int i = 0; i < 4; ++i) {
        QT_CHECK(MPI_REQUEST_NULL == reqs[i], "request %d not freed by MPI_Waitall", i);
    }

    QT_STEP("ssend ring");
    ring(MPI_Ssend, 2, "ssend ring");

    QT_STEP("bsend");
    QT_OK(MPI_Pack_size(N, MPI_INT, MPI_COMM_WORLD, &bsize));
    bsize += MPI_BSEND_OVERHEAD;
    bbuf = malloc(bsize);
    QT_OK(MPI_Buffer_attach(bbuf, bsize));
    fill(sbuf, N, rank, 4);
    QT_OK(MPI_Bsend(sbuf, N, MPI_INT, right, 4, MPI_COMM_WORLD));
    memset(sbuf, 0, sizeof(sbuf)); /* the message was copied out */
    QT_OK(MPI_Recv(rbuf, N, MPI_INT, left, 4, MPI_COMM_WORLD, &sts[0]));
    check_recv(rbuf, &sts[0], N, left, 4, 4, "bsend");
    QT_OK(MPI_Buffer_detach(&det, &dsize));
    QT_CHECK(det == bbuf && dsize == bsize, "detach gave %p/%d, expected %p/%d", det, dsize, bbuf,
             bsize);
    free(bbuf);

    QT_STEP("persistent send/recv");
    QT_OK(MPI_Recv_init(rbuf, N, MPI_INT, left, 5, MPI_COMM_WORLD, &reqs[0]));
    QT_OK(MPI_Send_init(sbuf, N, MPI_INT, right, 5, MPI_COMM_WORLD, &reqs[1]));
    for (int iter = 0; iter < 10; ++iter) {
        fill(sbuf, N, rank, 20 + iter);
        memset(rbuf, 0, sizeof(rbuf));
        QT_OK(MPI_Start(&reqs[0]));
        QT_OK(MPI_Start(&reqs[1]));
        QT_OK(MPI_Wait(&reqs[1], &sts[1]));
        QT_OK(MPI_Wait(&reqs[0], &sts[0]));
        check_recv(rbuf, &sts[0], N, left, 5, 20 + iter, "persistent");
    }
    QT_OK(MPI_Request_free(&reqs[0]));
    QT_OK(MPI_Request_free(&reqs[1]));
}

static void matching_phases(void)
{
    int sbuf[N], rbuf[N], count = -1;
    MPI_Request req;
    MPI_Status st;
    MPI_Message msg;

    QT_STEP("any source, any tag");
    fill(sbuf, rank + 1, rank, 6);
    QT_OK(MPI_Isend(sbuf, rank + 1, MPI_INT, right, 100 + rank, MPI_COMM_WORLD, &req));
    QT_OK(MPI_Recv(rbuf, N, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
    QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    check_recv(rbuf, &st, left + 1, left, 100 + left, 6, "any source/tag");

    QT_STEP("probe and get_count");
    fill(sbuf, 3 + rank, rank, 7);
    QT_OK(MPI_Isend(sbuf, 3 + rank, MPI_INT, right, 200, MPI_COMM_WORLD, &req));
    QT_OK(MPI_Probe(MPI_ANY_SOURCE, 200, MPI_COMM_WORLD, &st));
    check_status(&st, left, 200, MPI_INT, 3 + left, "probe");
    QT_OK(MPI_Get_count(&st, MPI_INT, &count));
    if (count >= 0 && count <= N) {
        QT_OK(MPI_Recv(rbuf, count, MPI_INT, st.MPI_SOURCE, 200, MPI_COMM_WORLD, &st));
        check(rbuf, 3 + left, left, 7, "probe");
    }
    QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));

    QT_STEP("mprobe and mrecv");
    fill(sbuf, 5 + rank, rank, 8);
    QT_OK(MPI_Isend(sbuf, 5 + rank, MPI_INT, right, 300, MPI_COMM_WORLD, &req));
    QT_OK(MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &msg, &st));
    check_status(&st, left, 300, MPI_INT, 5 + left, "mprobe");
    memset(rbuf, 0, sizeof(rbuf));
    QT_OK(MPI_Mrecv(rbuf, N, MPI_INT, &msg, &st));
    QT_CHECK(MPI_MESSAGE_NULL == msg, "MPI_Mrecv did not set MPI_MESSAGE_NULL");
    check_recv(rbuf, &st, 5 + left, left, 300, 8, "mrecv");
    QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
}

static void payload_phases(void)
{
    int *sbig = malloc(BIG_INTS * sizeof(int)), *rbig = calloc(BIG_INTS, sizeof(int));
    int *ord = malloc((size_t) NORD * ORD_LONG * sizeof(int)), flag;
    double vec[50], cont[20];
    MPI_Request reqs[NORD];
    MPI_Status sts[2];
    MPI_Datatype vtype;

    QT_STEP("1 MiB message");
    fill(sbig, BIG_INTS, rank, 9);
    QT_OK(MPI_Irecv(rbig, BIG_INTS, MPI_INT, left, 9, MPI_COMM_WORLD, &reqs[0]));
    QT_OK(MPI_Isend(sbig, BIG_INTS, MPI_INT, right, 9, MPI_COMM_WORLD, &reqs[1]));
    QT_OK(MPI_Waitall(2, reqs, sts));
    check_recv(rbig, &sts[0], BIG_INTS, left, 9, 9, "1 MiB");

    QT_STEP("vector datatype");
    /* 10 blocks of 2 doubles, stride 5, arrive as 20 contiguous doubles. */
    for (int i = 0; i < 50; ++i) {
        vec[i] = rank * 1000.0 + i;
    }
    QT_OK(MPI_Type_vector(10, 2, 5, MPI_DOUBLE, &vtype));
    QT_OK(MPI_Type_commit(&vtype));
    QT_OK(MPI_Sendrecv(vec, 1, vtype, right, 12, cont, 20, MPI_DOUBLE, left, 12, MPI_COMM_WORLD,
                       &sts[0]));
    check_status(&sts[0], left, 12, MPI_DOUBLE, 20, "vector");
    for (int i = 0; i < 20; ++i) {
        double want = left * 1000.0 + (i / 2) * 5 + i % 2;
        QT_CHECK(want == cont[i], "vector: element %d is %g, expected %g", i, cont[i], want);
    }
    QT_OK(MPI_Type_free(&vtype));

    QT_STEP("non-overtaking order");
    /* Same tag, short and long messages mixed: they must match in order. */
    for (int m = 0; m < NORD; ++m) {
        int len = (0 == m % 3) ? ORD_LONG : 1 + m;
        fill(ord + (size_t) m * ORD_LONG, len, rank, m);
        QT_OK(MPI_Isend(ord + (size_t) m * ORD_LONG, len, MPI_INT, right, 13, MPI_COMM_WORLD,
                        &reqs[m]));
    }
    for (int m = 0; m < NORD; ++m) {
        int len = (0 == m % 3) ? ORD_LONG : 1 + m;
        memset(rbig, 0, ORD_LONG * sizeof(int));
        QT_OK(MPI_Recv(rbig, ORD_LONG, MPI_INT, left, 13, MPI_COMM_WORLD, &sts[0]));
        check_recv(rbig, &sts[0], len, left, 13, m, "order");
    }
    QT_OK(MPI_Waitall(NORD, reqs, MPI_STATUSES_IGNORE));

    QT_STEP("MPI_Test loop");
    fill(sbig, N, rank, 14);
    QT_OK(MPI_Irecv(rbig, N, MPI_INT, left, 14, MPI_COMM_WORLD, &reqs[0]));
    QT_OK(MPI_Isend(sbig, N, MPI_INT, right, 14, MPI_COMM_WORLD, &reqs[1]));
    for (int r = 0; r < 2; ++r) {
        for (flag = 0; !flag;) {
            if (MPI_SUCCESS != MPI_Test(&reqs[r], &flag, &sts[r])) {
                QT_CHECK(0, "MPI_Test on request %d failed", r);
                break;
            }
        }
        QT_CHECK(MPI_REQUEST_NULL == reqs[r], "MPI_Test did not free request %d", r);
    }
    check_recv(rbig, &sts[0], N, left, 14, 14, "test loop");
    free(sbig);
    free(rbig);
    free(ord);
}

int main(int argc, char **argv)
{
    qt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;

    basic_phases();
    matching_phases();
    payload_phases();
    return qt_finalize();
}
