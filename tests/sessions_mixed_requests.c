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
 * Requests of two sessions (or of a session and the world model) in one
 * call of MPI_Waitall, MPI_Testall, MPI_Waitany, MPI_Testany, MPI_Waitsome
 * or MPI_Testsome: the standard makes it erroneous, and the call returns
 * MPI_ERR_REQUEST (the handlers return errors) without completing or
 * freeing any of them; they complete afterwards one by one.  The pairs: a
 * nonblocking barrier of each session, a receive of one and a barrier of
 * the other, a receive of the world and a barrier of a session.  Requests
 * of one session together are accepted.  Stock 5.0.7 compared only the
 * point-to-point requests' sessions (patch 0027).
 */

#include "common/qtest.h"

#define TAG 31

enum call { WAITALL, TESTALL, WAITANY, TESTANY, WAITSOME, TESTSOME, NCALLS };

static const char *call_name[NCALLS] = {"MPI_Waitall", "MPI_Testall", "MPI_Waitany",
                                        "MPI_Testany", "MPI_Waitsome", "MPI_Testsome"};

static int array_call(enum call c, MPI_Request reqs[2])
{
    int flag, idx, outcount, indices[2];

    switch (c) {
    case WAITALL:
        return MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    case TESTALL:
        return MPI_Testall(2, reqs, &flag, MPI_STATUSES_IGNORE);
    case WAITANY:
        return MPI_Waitany(2, reqs, &idx, MPI_STATUS_IGNORE);
    case TESTANY:
        return MPI_Testany(2, reqs, &idx, &flag, MPI_STATUS_IGNORE);
    case WAITSOME:
        return MPI_Waitsome(2, reqs, &outcount, indices, MPI_STATUSES_IGNORE);
    default:
        return MPI_Testsome(2, reqs, &outcount, indices, MPI_STATUSES_IGNORE);
    }
}

/* The kinds of request a pair is made of. */
enum kind { BARRIER_A, BARRIER_B, RECV_A, RECV_WORLD };

static MPI_Comm comm_a, comm_b;
static int peer;
static int rbuf[2];

static void post(enum kind k, int slot, MPI_Request *req)
{
    switch (k) {
    case BARRIER_A:
        QT_OK(MPI_Ibarrier(comm_a, req));
        break;
    case BARRIER_B:
        QT_OK(MPI_Ibarrier(comm_b, req));
        break;
    case RECV_A:
        QT_OK(MPI_Irecv(&rbuf[slot], 1, MPI_INT, peer, TAG, comm_a, req));
        break;
    default:
        QT_OK(MPI_Irecv(&rbuf[slot], 1, MPI_INT, peer, TAG, MPI_COMM_WORLD, req));
        break;
    }
}

/* Sends what a receive of the pair waits for (one int: it leaves at once),
 * so that a call that wrongly accepts the pair completes instead of
 * waiting. */
static void send_for(const enum kind kinds[2])
{
    for (int i = 0; i < 2; ++i) {
        int one = 1;
        if (RECV_A == kinds[i]) {
            QT_OK(MPI_Send(&one, 1, MPI_INT, peer, TAG, comm_a));
        } else if (RECV_WORLD == kinds[i]) {
            QT_OK(MPI_Send(&one, 1, MPI_INT, peer, TAG, MPI_COMM_WORLD));
        }
    }
}

int main(int argc, char **argv)
{
    static const struct {
        enum kind kinds[2];
        int mixed;
        const char *name;
    } pairs[] = {
        {{BARRIER_A, BARRIER_B}, 1, "a barrier of session A, a barrier of session B"},
        {{RECV_A, BARRIER_B}, 1, "a receive of session A, a barrier of session B"},
        {{BARRIER_B, RECV_A}, 1, "a barrier of session B, a receive of session A"},
        {{RECV_WORLD, BARRIER_A}, 1, "a receive of the world, a barrier of session A"},
        {{RECV_A, BARRIER_A}, 0, "a receive and a barrier of session A"},
    };
    MPI_Session session_a = MPI_SESSION_NULL, session_b = MPI_SESSION_NULL;
    MPI_Group group_a = MPI_GROUP_NULL, group_b = MPI_GROUP_NULL;
    int size, rc_a, rc_b;

    qt_init(&argc, &argv);
    qt_name_crashes();
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    peer = (qt_rank + 1) % size;

    QT_STEP("two sessions and their communicators");
    QT_OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session_a));
    QT_OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session_b));
    QT_OK(MPI_Group_from_session_pset(session_a, "mpi://WORLD", &group_a));
    QT_OK(MPI_Group_from_session_pset(session_b, "mpi://WORLD", &group_b));
    rc_a = MPI_Comm_create_from_group(group_a, "org.open-mpi.test.mixed.a", MPI_INFO_NULL,
                                      MPI_ERRORS_RETURN, &comm_a);
    rc_b = MPI_Comm_create_from_group(group_b, "org.open-mpi.test.mixed.b", MPI_INFO_NULL,
                                      MPI_ERRORS_RETURN, &comm_b);
    if (MPI_SUCCESS != rc_a || MPI_SUCCESS != rc_b) {
        /* stock 5.0.7 pml/ucx makes no communicators from groups */
        if (0 == qt_rank) {
            printf("SKIP: MPI_Comm_create_from_group returned %d and %d\n", rc_a, rc_b);
        }
        if (MPI_SUCCESS == rc_a) {
            MPI_Comm_free(&comm_a);
        }
        if (MPI_SUCCESS == rc_b) {
            MPI_Comm_free(&comm_b);
        }
        MPI_Group_free(&group_a);
        MPI_Group_free(&group_b);
        MPI_Session_finalize(&session_a);
        MPI_Session_finalize(&session_b);
        MPI_Finalize();
        return 0;
    }

    for (size_t p = 0; p < sizeof(pairs) / sizeof(pairs[0]); ++p) {
        for (int c = 0; c < NCALLS; ++c) {
            static char name[160];
            MPI_Request reqs[2], kept[2];
            int rc, cls = MPI_SUCCESS;

            snprintf(name, sizeof(name), "%s, %s", pairs[p].name, call_name[c]);
            QT_STEP(name);
            post(pairs[p].kinds[0], 0, &reqs[0]);
            post(pairs[p].kinds[1], 1, &reqs[1]);
            send_for(pairs[p].kinds);
            kept[0] = reqs[0];
            kept[1] = reqs[1];
            rc = array_call((enum call) c, reqs);
            if (MPI_SUCCESS != rc) {
                MPI_Error_class(rc, &cls);
            }
            if (pairs[p].mixed) {
                QT_CHECK(MPI_ERR_REQUEST == cls, "%s returned class %d, expected "
                         "MPI_ERR_REQUEST (%d)", call_name[c], cls, MPI_ERR_REQUEST);
                QT_CHECK(MPI_ERR_REQUEST != cls || (kept[0] == reqs[0] && kept[1] == reqs[1]),
                         "%s changed the requests it refused", call_name[c]);
            } else {
                QT_CHECK(MPI_SUCCESS == cls, "%s returned class %d for requests of one "
                         "session", call_name[c], cls);
            }
            for (int i = 0; i < 2; ++i) {
                if (MPI_REQUEST_NULL != reqs[i]) {
                    QT_OK(MPI_Wait(&reqs[i], MPI_STATUS_IGNORE));
                }
            }
            QT_OK(MPI_Barrier(MPI_COMM_WORLD));
        }
    }

    QT_STEP("freeing the sessions");
    QT_OK(MPI_Comm_free(&comm_a));
    QT_OK(MPI_Comm_free(&comm_b));
    QT_OK(MPI_Group_free(&group_a));
    QT_OK(MPI_Group_free(&group_b));
    QT_OK(MPI_Session_finalize(&session_a));
    QT_OK(MPI_Session_finalize(&session_b));
    return qt_finalize();
}
