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
 * Matching beyond plain point-to-point: persistent collectives, partitioned
 * requests, MPI_Imatch / MPI_Imatchall completed by MPI_Test loops, mixed
 * blocking and nonblocking matching, and every misuse, which must be
 * refused with MPI_ERR_REQUEST and leave the request unchanged.
 */

#include <stdbool.h>

#include "common/qtest.h"

static int rank, size, left, right;

static void collectives(void)
{
    int in, out = 0, root_val = 0, flag;
    MPI_Request r[2];

    QT_STEP("persistent collectives");
    MPI_Allreduce_init(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]);
    MPI_Bcast_init(&root_val, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]);
    QT_OK(MPI_Matchall(2, r));
    QT_OK(MPI_Is_matched(r[0], &flag));
    QT_CHECK(flag, "matched collective reports unmatched");
    for (int it = 0; it < 3; ++it) {
        in = rank + it;
        root_val = (0 == rank) ? 50 + it : -1;
        QT_OK(MPI_Start(&r[0]));
        QT_OK(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
        QT_OK(MPI_Start(&r[1]));
        QT_OK(MPI_Wait(&r[1], MPI_STATUS_IGNORE));
        QT_CHECK(size * (size - 1) / 2 + size * it == out, "allreduce %d", out);
        QT_CHECK(50 + it == root_val, "bcast %d", root_val);
    }
    QT_OK(MPI_Request_free(&r[0]));
    QT_OK(MPI_Request_free(&r[1]));
}

static void partitioned(void)
{
    int buf[8] = {0}, flag = 0, peer;
    bool sender;
    MPI_Request r;

    QT_STEP("partitioned requests are matched at creation");
    /* pairs 0->1, 2->3, ...; with an odd size the last rank sends to
     * itself: 5.0.7's partitioned layer needs every rank to take part */
    if (size % 2 && rank == size - 1) {
        MPI_Request self;
        int rbuf[8];
        MPI_Precv_init(rbuf, 2, 4, MPI_INT, rank, 8, MPI_COMM_WORLD, MPI_INFO_NULL, &self);
        MPI_Psend_init(buf, 2, 4, MPI_INT, rank, 8, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
        QT_OK(MPI_Is_matched(r, &flag));
        QT_CHECK(flag, "partitioned request reports unmatched");
        QT_CHECK_RC(MPI_Match(&r), MPI_ERR_REQUEST);
        MPI_Start(&self);
        MPI_Start(&r);
        MPI_Pready_range(0, 1, r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Wait(&self, MPI_STATUS_IGNORE);
        MPI_Request_free(&self);
        MPI_Request_free(&r);
        return;
    }
    sender = (0 == rank % 2);
    peer = sender ? rank + 1 : rank - 1;
    if (sender) {
        MPI_Psend_init(buf, 2, 4, MPI_INT, peer, 8, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    } else {
        MPI_Precv_init(buf, 2, 4, MPI_INT, peer, 8, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    }
    QT_OK(MPI_Is_matched(r, &flag));
    QT_CHECK(flag, "partitioned request reports unmatched");
    QT_CHECK_RC(MPI_Match(&r), MPI_ERR_REQUEST);
    /* still usable after the refused match */
    for (int i = 0; i < 8; ++i) {
        buf[i] = sender ? 70 + i : -1;
    }
    QT_OK(MPI_Start(&r));
    if (sender) {
        QT_OK(MPI_Pready_range(0, 1, r));
    }
    QT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    QT_CHECK(77 == buf[7], "partitioned data %d", buf[7]);
    MPI_Request_free(&r);
}

static void nonblocking(void)
{
    int s = 0, v = 0, done = 0, flag = 0, spins = 0;
    MPI_Request rs, rr, m[2], reqs[2];

    QT_STEP("MPI_Imatch and MPI_Imatchall with MPI_Test loops");
    MPI_Send_init(&s, 1, MPI_INT, right, 6, MPI_COMM_WORLD, &rs);
    MPI_Recv_init(&v, 1, MPI_INT, left, 6, MPI_COMM_WORLD, &rr);
    QT_OK(MPI_Imatch(&rs, &m[0]));
    reqs[0] = rr;
    QT_OK(MPI_Imatchall(1, reqs, &m[1]));
    rr = reqs[0];
    QT_CHECK_RC(MPI_Cancel(&m[0]), MPI_ERR_REQUEST);
    while (!done) {
        QT_OK(MPI_Testall(2, m, &done, MPI_STATUSES_IGNORE));
        if (++spins > 100000000) {
            QT_CHECK(0, "MPI_Imatch never completed");
            break;
        }
    }
    QT_CHECK(MPI_REQUEST_NULL == m[0] && MPI_REQUEST_NULL == m[1], "match requests not freed");
    QT_OK(MPI_Is_matched(rs, &flag));
    QT_CHECK(flag, "send not matched after MPI_Imatch completed");
    s = 1000 + rank;
    QT_OK(MPI_Start(&rr));
    QT_OK(MPI_Start(&rs));
    QT_OK(MPI_Wait(&rr, MPI_STATUS_IGNORE));
    QT_OK(MPI_Wait(&rs, MPI_STATUS_IGNORE));
    QT_CHECK(1000 + left == v, "imatched data %d", v);
    MPI_Request_free(&rs);
    MPI_Request_free(&rr);

    QT_STEP("one side MPI_Match, the other MPI_Imatchall");
    MPI_Send_init(&s, 1, MPI_INT, right, 7, MPI_COMM_WORLD, &rs);
    MPI_Recv_init(&v, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &rr);
    if (0 == rank % 2) {
        QT_OK(MPI_Match(&rs));
        QT_OK(MPI_Match(&rr));
    } else {
        reqs[0] = rr;
        reqs[1] = rs;
        QT_OK(MPI_Imatchall(2, reqs, &m[0]));
        QT_OK(MPI_Wait(&m[0], MPI_STATUS_IGNORE));
        rr = reqs[0];
        rs = reqs[1];
    }
    s = 2000 + rank;
    QT_OK(MPI_Start(&rr));
    QT_OK(MPI_Start(&rs));
    QT_OK(MPI_Wait(&rs, MPI_STATUS_IGNORE));
    QT_OK(MPI_Wait(&rr, MPI_STATUS_IGNORE));
    QT_CHECK(2000 + left == v, "mixed-matched data %d", v);
    MPI_Request_free(&rs);
    MPI_Request_free(&rr);
}

static int gq(void *extra, MPI_Status *st)
{
    (void) extra;
    MPI_Status_set_elements(st, MPI_BYTE, 0);
    st->MPI_SOURCE = MPI_UNDEFINED;
    st->MPI_TAG = MPI_UNDEFINED;
    return MPI_SUCCESS;
}
static int gf(void *extra)
{
    (void) extra;
    return MPI_SUCCESS;
}
static int gc(void *extra, int complete)
{
    (void) extra;
    (void) complete;
    return MPI_SUCCESS;
}

static void misuse(void)
{
    int x = 0, y = 0, flag = 1;
    MPI_Request r, saved, arr[3], copy[3], g, null = MPI_REQUEST_NULL;

    QT_STEP("misuse: nonpersistent, generalized, null, active, already matched");
    MPI_Irecv(&y, 1, MPI_INT, left, 99, MPI_COMM_WORLD, &r);
    saved = r;
    QT_CHECK_RC(MPI_Match(&r), MPI_ERR_REQUEST);
    QT_CHECK(saved == r, "refused MPI_Match changed a nonpersistent handle");
    MPI_Send(&x, 1, MPI_INT, right, 99, MPI_COMM_WORLD);
    MPI_Wait(&r, MPI_STATUS_IGNORE);

    MPI_Grequest_start(gq, gf, gc, NULL, &g);
    saved = g;
    QT_CHECK_RC(MPI_Match(&g), MPI_ERR_REQUEST);
    QT_CHECK(saved == g, "refused MPI_Match changed a generalized request");
    MPI_Grequest_complete(g);
    MPI_Wait(&g, MPI_STATUS_IGNORE);

    QT_CHECK_RC(MPI_Match(&null), MPI_ERR_REQUEST);
    QT_CHECK_RC(MPI_Is_matched(MPI_REQUEST_NULL, &flag), MPI_ERR_REQUEST);

    MPI_Recv_init(&y, 1, MPI_INT, left, 98, MPI_COMM_WORLD, &r);
    MPI_Start(&r);
    saved = r;
    QT_CHECK_RC(MPI_Match(&r), MPI_ERR_REQUEST);
    QT_CHECK(saved == r, "refused MPI_Match changed an active request");
    MPI_Send(&x, 1, MPI_INT, right, 98, MPI_COMM_WORLD);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Request_free(&r);

    QT_STEP("misuse: matchall with one bad member changes nothing");
    MPI_Send_init(&x, 1, MPI_INT, right, 97, MPI_COMM_WORLD, &arr[0]);
    MPI_Recv_init(&y, 1, MPI_INT, left, 97, MPI_COMM_WORLD, &arr[1]);
    MPI_Isend(&x, 1, MPI_INT, right, 96, MPI_COMM_WORLD, &arr[2]);
    memcpy(copy, arr, sizeof(arr));
    QT_CHECK_RC(MPI_Matchall(3, arr), MPI_ERR_REQUEST);
    QT_CHECK(0 == memcmp(copy, arr, sizeof(arr)), "a refused MPI_Matchall changed handles");
    MPI_Is_matched(arr[0], &flag);
    QT_CHECK(!flag, "a refused MPI_Matchall matched a member");
    MPI_Recv(&y, 1, MPI_INT, left, 96, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&arr[2], MPI_STATUS_IGNORE);

    QT_STEP("misuse: already matched");
    QT_OK(MPI_Matchall(2, arr));
    saved = arr[0];
    QT_CHECK_RC(MPI_Match(&arr[0]), MPI_ERR_REQUEST);
    QT_CHECK(saved == arr[0], "refused MPI_Match changed a matched request");
    QT_CHECK_RC(MPI_Is_matched(arr[2], &flag), MPI_ERR_REQUEST);
    MPI_Request_free(&arr[0]);
    MPI_Request_free(&arr[1]);
}

int main(int argc, char **argv)
{
    qt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (rank - 1 + size) % size;
    right = (rank + 1) % size;

    collectives();
    partitioned();
    MPI_Barrier(MPI_COMM_WORLD);
    nonblocking();
    MPI_Barrier(MPI_COMM_WORLD);
    misuse();
    return qt_finalize();
}
