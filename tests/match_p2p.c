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
 * Matching of persistent point-to-point requests: every send mode, wildcard
 * receives resolved at match time, pairing by match order, many pairs, user
 * traffic with the same tag, duplicated and split communicators, derived
 * datatypes, MPI_PROC_NULL.  Ranks work around a ring (send right, receive
 * from left); steps for two ranks use ranks 0 and 1.
 */

#include "common/qtest.h"

#define N 256
#define ITERS 5
#define MANY 1000

static int rank, size, left, right;

static int val(int src, int iter, int i)
{
    return src * 100000 + iter * 1000 + i;
}

static void check_status(const MPI_Status *st, int src, int tag, int count, const char *what)
{
    int got = -1;
    MPI_Get_count(st, MPI_INT, &got);
    QT_CHECK(src == st->MPI_SOURCE && tag == st->MPI_TAG && count == got,
             "%s: status source %d tag %d count %d, expected %d/%d/%d", what, st->MPI_SOURCE,
             st->MPI_TAG, got, src, tag, count);
}

static void ring_mode(int mode, const char *name)
{
    int sbuf[N], rbuf[N], flag = 0;
    MPI_Request req[2];
    MPI_Status st[2];
    char *bbuf = NULL;
    int bsize = 0;

    QT_STEP(name);
    MPI_Recv_init(rbuf, N, MPI_INT, left, 10 + mode, MPI_COMM_WORLD, &req[0]);
    switch (mode) {
    case 0: MPI_Send_init(sbuf, N, MPI_INT, right, 10, MPI_COMM_WORLD, &req[1]); break;
    case 1:
        bsize = (int) (N * sizeof(int)) + MPI_BSEND_OVERHEAD;
        bbuf = malloc(bsize);
        MPI_Buffer_attach(bbuf, bsize);
        MPI_Bsend_init(sbuf, N, MPI_INT, right, 11, MPI_COMM_WORLD, &req[1]);
        break;
    case 2: MPI_Ssend_init(sbuf, N, MPI_INT, right, 12, MPI_COMM_WORLD, &req[1]); break;
    default: MPI_Rsend_init(sbuf, N, MPI_INT, right, 13, MPI_COMM_WORLD, &req[1]); break;
    }
    QT_OK(MPI_Is_matched(req[0], &flag));
    QT_CHECK(!flag, "%s: unmatched request reports matched", name);
    QT_OK(MPI_Matchall(2, req));
    QT_OK(MPI_Is_matched(req[0], &flag));
    QT_CHECK(flag, "%s: matched receive reports unmatched", name);
    QT_OK(MPI_Is_matched(req[1], &flag));
    QT_CHECK(flag, "%s: matched send reports unmatched", name);

    for (int it = 0; it < ITERS; ++it) {
        for (int i = 0; i < N; ++i) {
            sbuf[i] = val(rank, it, i);
            rbuf[i] = -1;
        }
        /* ready mode: the receive is started before the send everywhere */
        QT_OK(MPI_Start(&req[0]));
        MPI_Barrier(MPI_COMM_WORLD);
        QT_OK(MPI_Start(&req[1]));
        QT_OK(MPI_Waitall(2, req, st));
        check_status(&st[0], left, 10 + mode, N, name);
        for (int i = 0; i < N; ++i) {
            if (rbuf[i] != val(left, it, i)) {
                QT_CHECK(0, "%s iter %d: rbuf[%d] = %d", name, it, i, rbuf[i]);
                break;
            }
        }
    }
    QT_OK(MPI_Request_free(&req[0]));
    QT_OK(MPI_Request_free(&req[1]));
    QT_CHECK(MPI_REQUEST_NULL == req[0] && MPI_REQUEST_NULL == req[1], "%s: free", name);
    if (NULL != bbuf) {
        MPI_Buffer_detach(&bbuf, &bsize);
        free(bbuf);
    }
}

static void wildcard(void)
{
    int buf[4] = {0}, flag;
    MPI_Request req;
    MPI_Status st;

    QT_STEP("MPI_ANY_SOURCE / MPI_ANY_TAG resolved at match time");
    if (1 == rank) {
        MPI_Send_init(buf, 4, MPI_INT, 0, 42, MPI_COMM_WORLD, &req);
    } else if (0 == rank) {
        MPI_Recv_init(buf, 4, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req);
    }
    if (rank > 1) {
        return;
    }
    QT_OK(MPI_Match(&req));
    QT_OK(MPI_Is_matched(req, &flag));
    QT_CHECK(flag, "wildcard receive not matched");
    for (int it = 0; it < ITERS; ++it) {
        buf[3] = (1 == rank) ? it + 7 : -1;
        QT_OK(MPI_Start(&req));
        QT_OK(MPI_Wait(&req, &st));
        if (0 == rank) {
            check_status(&st, 1, 42, 4, "wildcard");
            QT_CHECK(it + 7 == buf[3], "wildcard data %d", buf[3]);
        }
    }
    QT_OK(MPI_Request_free(&req));
}

static void match_order(void)
{
    int a[2] = {0}, b[2] = {0};
    MPI_Request r[2];

    QT_STEP("pairing by match order when starts come in another order");
    if (rank > 1) {
        return;
    }
    if (0 == rank) {
        a[0] = 111;
        b[0] = 222;
        MPI_Send_init(a, 2, MPI_INT, 1, 5, MPI_COMM_WORLD, &r[0]);
        MPI_Send_init(b, 2, MPI_INT, 1, 5, MPI_COMM_WORLD, &r[1]);
    } else {
        MPI_Recv_init(a, 2, MPI_INT, 0, 5, MPI_COMM_WORLD, &r[0]);
        MPI_Recv_init(b, 2, MPI_INT, 0, 5, MPI_COMM_WORLD, &r[1]);
    }
    QT_OK(MPI_Match(&r[0]));
    QT_OK(MPI_Match(&r[1]));
    /* both sides start the second pair first */
    QT_OK(MPI_Start(&r[1]));
    QT_OK(MPI_Start(&r[0]));
    QT_OK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    if (1 == rank) {
        QT_CHECK(111 == a[0] && 222 == b[0], "pairs crossed: a=%d b=%d", a[0], b[0]);
    }
    MPI_Request_free(&r[0]);
    MPI_Request_free(&r[1]);
}

static void many_pairs(void)
{
    static int sbuf[MANY], rbuf[MANY];
    static MPI_Request reqs[2 * MANY];

    QT_STEP("1000 matched pairs on one communicator");
    for (int i = 0; i < MANY; ++i) {
        MPI_Recv_init(&rbuf[i], 1, MPI_INT, left, 3, MPI_COMM_WORLD, &reqs[i]);
        MPI_Send_init(&sbuf[i], 1, MPI_INT, right, 3, MPI_COMM_WORLD, &reqs[MANY + i]);
    }
    QT_OK(MPI_Matchall(2 * MANY, reqs));
    for (int it = 0; it < 2; ++it) {
        for (int i = 0; i < MANY; ++i) {
            sbuf[i] = val(rank, it, i);
            rbuf[i] = -1;
        }
        /* starts in reverse order: the match, not the start, pairs them */
        for (int i = 2 * MANY - 1; i >= 0; --i) {
            QT_OK(MPI_Start(&reqs[i]));
        }
        QT_OK(MPI_Waitall(2 * MANY, reqs, MPI_STATUSES_IGNORE));
        for (int i = 0; i < MANY; ++i) {
            if (rbuf[i] != val(left, it, i)) {
                QT_CHECK(0, "pair %d got %d", i, rbuf[i]);
                break;
            }
        }
    }
    for (int i = 0; i < 2 * MANY; ++i) {
        MPI_Request_free(&reqs[i]);
    }
}

static void user_traffic(void)
{
    int m = 0, u = 0;
    MPI_Request r, ur;

    QT_STEP("user messages with the same tag are not consumed by matching");
    if (rank > 1) {
        return;
    }
    if (0 == rank) {
        int user = 777;
        MPI_Isend(&user, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, &ur);
        MPI_Send_init(&m, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, &r);
        QT_OK(MPI_Match(&r));
        m = 555;
        QT_OK(MPI_Start(&r));
        QT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        MPI_Wait(&ur, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv_init(&m, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, &r);
        QT_OK(MPI_Match(&r));
        MPI_Recv(&u, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        QT_OK(MPI_Start(&r));
        QT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        QT_CHECK(777 == u, "user receive got %d", u);
        QT_CHECK(555 == m, "matched receive got %d", m);
    }
    MPI_Request_free(&r);
}

static void communicators(void)
{
    MPI_Comm dup, half;
    int a = 0, b = 0, c = 0, hrank, hsize;
    MPI_Request r[3];

    QT_STEP("dup'd and split communicators");
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Comm_rank(half, &hrank);
    MPI_Comm_size(half, &hsize);
    /* same tag on all three: the communicator separates them */
    MPI_Recv_init(&a, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &r[0]);
    MPI_Recv_init(&b, 1, MPI_INT, left, 1, dup, &r[1]);
    MPI_Recv_init(&c, 1, MPI_INT, (hrank - 1 + hsize) % hsize, 1, half, &r[2]);
    int sa = 1000 + rank, sb = 2000 + rank, sc = 3000 + rank;
    MPI_Request s[3];
    MPI_Send_init(&sa, 1, MPI_INT, right, 1, MPI_COMM_WORLD, &s[0]);
    MPI_Send_init(&sb, 1, MPI_INT, right, 1, dup, &s[1]);
    MPI_Send_init(&sc, 1, MPI_INT, (hrank + 1) % hsize, 1, half, &s[2]);
    /* matched in different orders on the two sides of each pair; the sends
     * without blocking, or every rank would wait for its neighbour */
    MPI_Request sends_matched;
    QT_OK(MPI_Imatchall(3, s, &sends_matched));
    QT_OK(MPI_Match(&r[2]));
    QT_OK(MPI_Match(&r[1]));
    QT_OK(MPI_Match(&r[0]));
    QT_OK(MPI_Wait(&sends_matched, MPI_STATUS_IGNORE));
    QT_OK(MPI_Startall(3, r));
    QT_OK(MPI_Startall(3, s));
    QT_OK(MPI_Waitall(3, r, MPI_STATUSES_IGNORE));
    QT_OK(MPI_Waitall(3, s, MPI_STATUSES_IGNORE));
    int hleft_world = -1;
    {
        /* world rank of the left neighbour in the half communicator */
        int hl = (hrank - 1 + hsize) % hsize;
        MPI_Group wg, hg;
        MPI_Comm_group(MPI_COMM_WORLD, &wg);
        MPI_Comm_group(half, &hg);
        MPI_Group_translate_ranks(hg, 1, &hl, wg, &hleft_world);
        MPI_Group_free(&wg);
        MPI_Group_free(&hg);
    }
    QT_CHECK(1000 + left == a && 2000 + left == b && 3000 + hleft_world == c,
             "communicators mixed: a=%d b=%d c=%d", a, b, c);
    for (int i = 0; i < 3; ++i) {
        MPI_Request_free(&r[i]);
        MPI_Request_free(&s[i]);
    }
    MPI_Comm_free(&dup);
    MPI_Comm_free(&half);
}

static void datatypes(void)
{
    double src[3 * N], dst[N];
    MPI_Datatype vec;
    MPI_Request r[2];

    QT_STEP("derived datatypes");
    MPI_Type_vector(N, 1, 3, MPI_DOUBLE, &vec);
    MPI_Type_commit(&vec);
    for (int i = 0; i < 3 * N; ++i) {
        src[i] = rank * 1e4 + i;
    }
    MPI_Send_init(src, 1, vec, right, 4, MPI_COMM_WORLD, &r[0]);
    MPI_Recv_init(dst, N, MPI_DOUBLE, left, 4, MPI_COMM_WORLD, &r[1]);
    MPI_Type_free(&vec); /* the matched request keeps it alive */
    QT_OK(MPI_Matchall(2, r));
    QT_OK(MPI_Startall(2, r));
    QT_OK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    for (int i = 0; i < N; ++i) {
        if (dst[i] != left * 1e4 + 3 * i) {
            QT_CHECK(0, "vector element %d is %g", i, dst[i]);
            break;
        }
    }
    MPI_Request_free(&r[0]);
    MPI_Request_free(&r[1]);
}

static void proc_null(void)
{
    int x = 0;
    MPI_Request r;
    MPI_Status st;

    QT_STEP("MPI_PROC_NULL");
    MPI_Recv_init(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r);
    QT_OK(MPI_Match(&r));
    QT_OK(MPI_Start(&r));
    QT_OK(MPI_Wait(&r, &st));
    QT_CHECK(MPI_PROC_NULL == st.MPI_SOURCE, "PROC_NULL status source %d", st.MPI_SOURCE);
    QT_OK(MPI_Request_free(&r));
}

int main(int argc, char **argv)
{
    qt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (rank - 1 + size) % size;
    right = (rank + 1) % size;

    /* barriers between steps: a wildcard receive would otherwise match a
     * neighbour's offer of the next step, as MPI allows */
    ring_mode(0, "standard mode");
    ring_mode(1, "buffered mode");
    ring_mode(2, "synchronous mode");
    ring_mode(3, "ready mode");
    wildcard();
    MPI_Barrier(MPI_COMM_WORLD);
    match_order();
    MPI_Barrier(MPI_COMM_WORLD);
    many_pairs();
    MPI_Barrier(MPI_COMM_WORLD);
    user_traffic();
    MPI_Barrier(MPI_COMM_WORLD);
    communicators();
    MPI_Barrier(MPI_COMM_WORLD);
    datatypes();
    MPI_Barrier(MPI_COMM_WORLD);
    proc_null();
    MPI_Barrier(MPI_COMM_WORLD);
    return qt_finalize();
}
