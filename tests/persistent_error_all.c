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
 * A persistent request that completed in error makes MPI_Waitall and
 * MPI_Testall fail (MPI-4.1 3.7.5: MPI_ERR_IN_STATUS, the request's error in
 * its status), as a nonpersistent one does.  The error here is a truncated
 * receive: rank 0 sends 4 ints into rank 1's persistent receive of 1 int.
 * Rank 1 waits with MPI_Request_get_status (which leaves the request
 * active) until the receive has completed, so that the multiple-completion
 * call finds it complete already, then calls, with statuses:
 *   - MPI_Waitall on the truncated receive alone,
 *   - MPI_Waitall on it and a persistent receive that completed well,
 *   - MPI_Testall on the truncated receive,
 *   - MPI_Waitall on a truncated receive that completes during the call,
 * and checks the return (MPI_ERR_IN_STATUS), the statuses (MPI_ERR_TRUNCATE
 * for the truncated one, MPI_SUCCESS for the other) and that the request
 * without error stays, to be started again.  Stock 5.0.7 returned
 * MPI_SUCCESS where the request had completed before the call (patch 0040);
 * under ULFM the same path lost MPIX_ERR_PROC_FAILED (docs/fault-tolerance.md).
 *
 * Argument "matched": the persistent requests are matched (MPI_Match)
 * first, so each channel's requests go through the same calls.
 */

#include "common/qtest.h"

#define TAG_GO 20

static int rank, matched;

/* a pair of persistent requests per step, made anew (with the step's tags)
 * since Open MPI frees a persistent request whose error it reports */
static void pair_make(int step, int *sbuf, int *ok_send, int *rbuf, int *ok_recv,
                      MPI_Request req[2])
{
    int tag = 100 + 2 * step;

    if (0 == rank) {
        QT_OK(MPI_Send_init(sbuf, 4, MPI_INT, 1, tag, MPI_COMM_WORLD, &req[0]));
        QT_OK(MPI_Send_init(ok_send, 1, MPI_INT, 1, tag + 1, MPI_COMM_WORLD, &req[1]));
    } else {
        QT_OK(MPI_Recv_init(rbuf, 1, MPI_INT, 0, tag, MPI_COMM_WORLD, &req[0]));
        QT_OK(MPI_Recv_init(ok_recv, 1, MPI_INT, 0, tag + 1, MPI_COMM_WORLD, &req[1]));
    }
    if (matched) {
        QT_OK(MPI_Matchall(2, req));
    }
}

/* Open MPI frees a request that completed in error when it reports the
 * error (stock behaviour, docs/fault-tolerance.md): either way the handle
 * is MPI_REQUEST_NULL afterwards */
static void pair_free(MPI_Request req[2])
{
    for (int i = 0; i < 2; ++i) {
        if (MPI_REQUEST_NULL != req[i]) {
            QT_OK(MPI_Request_free(&req[i]));
        }
    }
}

/* rank 1: until the request has completed, leaving it active */
static void until_complete(MPI_Request req)
{
    int flag = 0;

    while (!flag) {
        QT_OK(MPI_Request_get_status(req, &flag, MPI_STATUS_IGNORE));
    }
}

static void check_truncated(const MPI_Status *st, int step, const char *what)
{
    QT_CHECK(MPI_ERR_TRUNCATE == st->MPI_ERROR && 0 == st->MPI_SOURCE
                 && 100 + 2 * step == st->MPI_TAG,
             "%s: status error %d source %d tag %d, want MPI_ERR_TRUNCATE (%d) from 0 tag %d",
             what, st->MPI_ERROR, st->MPI_SOURCE, st->MPI_TAG, MPI_ERR_TRUNCATE, 100 + 2 * step);
}

int main(int argc, char **argv)
{
    int sbuf[4] = {11, 12, 13, 14}, ok_send = 77, rbuf = -1, ok_recv = -1, go = 1, rc;
    MPI_Request req[2];
    MPI_Status st[2];

    qt_init(&argc, &argv);
    matched = argc > 1 && 0 == strcmp(argv[1], "matched");
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank > 1) {
        return qt_finalize();
    }

    QT_STEP("MPI_Waitall on a persistent receive truncated before the call");
    pair_make(0, sbuf, &ok_send, &rbuf, &ok_recv, req);
    QT_OK(MPI_Start(&req[0]));
    if (0 == rank) {
        QT_OK(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
    } else {
        until_complete(req[0]);
        rc = MPI_Waitall(1, req, st);
        QT_CHECK(MPI_ERR_IN_STATUS == rc, "MPI_Waitall returned %d, want MPI_ERR_IN_STATUS (%d)",
                 rc, MPI_ERR_IN_STATUS);
        check_truncated(&st[0], 0, "MPI_Waitall");
    }
    pair_free(req);

    QT_STEP("MPI_Waitall on a truncated and a complete persistent receive; the complete one "
            "stays and starts again");
    pair_make(1, sbuf, &ok_send, &rbuf, &ok_recv, req);
    QT_OK(MPI_Startall(2, req));
    if (0 == rank) {
        QT_OK(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
        ok_send = 78;
        QT_OK(MPI_Start(&req[1]));
        QT_OK(MPI_Wait(&req[1], MPI_STATUS_IGNORE));
    } else {
        until_complete(req[0]);
        until_complete(req[1]);
        rc = MPI_Waitall(2, req, st);
        QT_CHECK(MPI_ERR_IN_STATUS == rc, "MPI_Waitall returned %d, want MPI_ERR_IN_STATUS (%d)",
                 rc, MPI_ERR_IN_STATUS);
        check_truncated(&st[0], 1, "MPI_Waitall of two, the truncated one");
        QT_CHECK(MPI_SUCCESS == st[1].MPI_ERROR && 77 == ok_recv,
                 "MPI_Waitall of two, the complete one: status error %d, received %d",
                 st[1].MPI_ERROR, ok_recv);
        QT_CHECK(MPI_REQUEST_NULL != req[1], "the request without error was freed");
        if (MPI_REQUEST_NULL != req[1]) {
            ok_recv = -1;
            QT_OK(MPI_Start(&req[1]));
            QT_OK(MPI_Wait(&req[1], MPI_STATUS_IGNORE));
            QT_CHECK(78 == ok_recv, "its next start received %d, want 78", ok_recv);
        }
    }
    ok_send = 77;
    pair_free(req);

    QT_STEP("MPI_Testall on a persistent receive truncated before the call");
    pair_make(2, sbuf, &ok_send, &rbuf, &ok_recv, req);
    QT_OK(MPI_Start(&req[0]));
    if (0 == rank) {
        QT_OK(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
    } else {
        int flag = 0;

        until_complete(req[0]);
        rc = MPI_Testall(1, req, &flag, st);
        QT_CHECK(flag && MPI_ERR_IN_STATUS == rc,
                 "MPI_Testall returned %d with flag %d, want MPI_ERR_IN_STATUS (%d) and 1", rc,
                 flag, MPI_ERR_IN_STATUS);
        check_truncated(&st[0], 2, "MPI_Testall");
    }
    pair_free(req);

    QT_STEP("MPI_Waitall on a persistent receive truncated during the call");
    pair_make(3, sbuf, &ok_send, &rbuf, &ok_recv, req);
    if (0 == rank) {
        /* the receiver is in MPI_Waitall (or about to be) when this comes */
        QT_OK(MPI_Recv(&go, 1, MPI_INT, 1, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        QT_OK(MPI_Start(&req[0]));
        QT_OK(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
    } else {
        QT_OK(MPI_Start(&req[0]));
        QT_OK(MPI_Send(&go, 1, MPI_INT, 0, TAG_GO, MPI_COMM_WORLD));
        rc = MPI_Waitall(1, req, st);
        QT_CHECK(MPI_ERR_IN_STATUS == rc, "MPI_Waitall returned %d, want MPI_ERR_IN_STATUS (%d)",
                 rc, MPI_ERR_IN_STATUS);
        check_truncated(&st[0], 3, "MPI_Waitall during");
    }
    pair_free(req);
    return qt_finalize();
}
