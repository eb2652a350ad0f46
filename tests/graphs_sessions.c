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
 * S27 (spec section 3.3): MPIX streams and executions in the Sessions model
 * (no MPI_Init), three session cycles so that the extension's init and fini
 * hooks run again: a stream created in a session with MPI_ERRORS_RETURN
 * runs collectives and a sendrecv on a communicator from the session's
 * group; an execution request on that communicator; a failed stream reports
 * through the session's handler (errors return, nothing aborts).
 */

#include "common/qtest.h"
#include <mpi-ext.h>

#define NCYCLES 3

static int fail_cb(MPIX_Graph graph, void *extra)
{
    (void) graph;
    (void) extra;
    return MPI_ERR_OTHER;
}

static void in_session(MPI_Session session, MPI_Comm comm, int size, int cycle)
{
    MPIX_Stream s;
    MPIX_Token t;
    MPI_Request req;
    int one = 1, sum = -1, right = (qt_rank + 1) % size, left = (qt_rank - 1 + size) % size;
    int sv = qt_rank + 100 * cycle, rv = -1, bc = -1;

    QT_STEP("S27: stream in a session: allreduce and sendrecv on the session's communicator");
    QT_OK(MPIX_Stream_create(session, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &s));
    QT_OK(MPIX_Allreduce_def(&one, &sum, 1, MPI_INT, MPI_SUM, comm, &t));
    QT_OK(MPIX_Stream_enqueue(s, &t));
    QT_OK(MPIX_Sendrecv_def(&sv, 1, MPI_INT, right, 1, &rv, 1, MPI_INT, left, 1, comm,
                            MPI_STATUS_IGNORE, &t));
    QT_OK(MPIX_Stream_enqueue(s, &t));
    QT_OK(MPIX_Stream_sync(s));
    QT_CHECK(size == sum, "allreduce gave %d", sum);
    QT_CHECK(left + 100 * cycle == rv, "sendrecv gave %d", rv);

    QT_STEP("S27: execution request on the session's communicator");
    bc = (0 == qt_rank) ? 31 + cycle : -1;
    QT_OK(MPIX_Bcast_def(&bc, 1, MPI_INT, 0, comm, &t));
    QT_OK(MPIX_Iexecute(t, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &req));
    QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    QT_CHECK(31 + cycle == bc, "bcast gave %d", bc);
    QT_OK(MPIX_Token_free(&t));

    QT_STEP("S27: a failed stream reports through the session's handler");
    QT_OK(MPIX_Op_def(fail_cb, NULL, &t));
    QT_OK(MPIX_Stream_enqueue(s, &t));
    QT_CHECK_RC(MPIX_Stream_sync(s), MPI_ERR_OTHER);
    QT_OK(MPIX_Op_def(fail_cb, NULL, &t));
    QT_CHECK_RC(MPIX_Stream_enqueue(s, &t), MPIX_ERR_STREAM_FAILED);
    QT_OK(MPIX_Token_free(&t));
    QT_OK(MPIX_Stream_free(&s));
}

int main(int argc, char **argv)
{
    int total = 0;
    (void) argc;
    (void) argv;

    qt_arm_watchdog();
    for (int cycle = 0; cycle < NCYCLES; ++cycle) {
        MPI_Session session = MPI_SESSION_NULL;
        MPI_Group group;
        MPI_Comm comm;
        int rc, size;

        QT_STEP("MPI_Session_init");
        rc = MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session);
        if (MPI_SUCCESS != rc) {
            fprintf(stderr, "FAIL: MPI_Session_init returned %d in cycle %d\n", rc, cycle);
            return 1;
        }
        MPI_Group_from_session_pset(session, "mpi://WORLD", &group);
        MPI_Group_rank(group, &qt_rank);
        MPI_Group_size(group, &size);
        rc = MPI_Comm_create_from_group(group, "org.open-mpi.graphs.test", MPI_INFO_NULL,
                                        MPI_ERRORS_RETURN, &comm);
        if (MPI_SUCCESS == rc) {
            in_session(session, comm, size, cycle);
            MPI_Allreduce(&qt_failures, &total, 1, MPI_INT, MPI_SUM, comm);
            MPI_Comm_free(&comm);
        } else {
            /* stock 5.0.7 pml/ucx has no communicators from groups: only
             * the local part runs there */
            MPIX_Stream s;
            MPIX_Token t;
            if (0 == qt_rank && 0 == cycle) {
                printf("note: MPI_Comm_create_from_group unsupported by this PML\n");
            }
            QT_STEP("S27 (local): failed stream in a session");
            QT_OK(MPIX_Stream_create(session, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &s));
            QT_OK(MPIX_Op_def(fail_cb, NULL, &t));
            QT_OK(MPIX_Stream_enqueue(s, &t));
            QT_CHECK_RC(MPIX_Stream_sync(s), MPI_ERR_OTHER);
            QT_OK(MPIX_Stream_free(&s));
            total = qt_failures;
        }
        MPI_Group_free(&group);
        QT_STEP("MPI_Session_finalize");
        MPI_Session_finalize(&session);
    }
    if (0 == qt_rank) {
        printf("%s: %d failure(s)\n", 0 == total ? "OK" : "FAILED", total);
    }
    return 0 == total ? 0 : 1;
}
