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
 * MPI_REQUEST_EMPTY: the handle in every completion function, in arrays
 * mixed with MPI_REQUEST_NULL and real requests, get_status, free, cancel;
 * which operations return it (sends that complete in the call, trivial
 * collectives) and which must not (operations still in flight, receives on a
 * communicator without mpi_recv_req_may_be_empty); receives that return it
 * with the key, with the data already in the buffer.
 *
 * Ranks work in pairs (rank ^ 1); run with an even number of ranks.
 */

#include <stdint.h>

#include "common/qtest.h"

#define NSMALL 200
#define LARGE_COUNT (4 * 1024 * 1024)

/* A status preset to values no completion may leave behind. */
static void poison(MPI_Status *st)
{
    st->MPI_SOURCE = -77;
    st->MPI_TAG = -77;
    st->MPI_ERROR = -77;
}

static int is_empty_status(const MPI_Status *st)
{
    int count = -1, cancelled = -1;

    MPI_Get_count(st, MPI_BYTE, &count);
    MPI_Test_cancelled(st, &cancelled);
    return MPI_ANY_SOURCE == st->MPI_SOURCE && MPI_ANY_TAG == st->MPI_TAG && 0 == count
           && 0 == cancelled;
}

static void check_handle(void)
{
    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Status st;
    MPI_Fint f;

    QT_STEP("handle identity");
    QT_CHECK(MPI_REQUEST_EMPTY != MPI_REQUEST_NULL, "MPI_REQUEST_EMPTY equals MPI_REQUEST_NULL");
    f = MPI_Request_c2f(MPI_REQUEST_EMPTY);
    QT_CHECK(f != MPI_Request_c2f(MPI_REQUEST_NULL), "same Fortran handle as MPI_REQUEST_NULL");
    QT_CHECK(MPI_Request_f2c(f) == MPI_REQUEST_EMPTY,
             "f2c(c2f(MPI_REQUEST_EMPTY)) is another handle");

    /* The MPI_PROC_NULL receive object is a different one: its status says
     * MPI_PROC_NULL. */
    QT_OK(MPI_Irecv(NULL, 0, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r));
    QT_CHECK(MPI_REQUEST_EMPTY != r, "an MPI_PROC_NULL receive returned MPI_REQUEST_EMPTY");
    poison(&st);
    QT_OK(MPI_Wait(&r, &st));
    QT_CHECK(MPI_PROC_NULL == st.MPI_SOURCE, "MPI_PROC_NULL receive: source %d", st.MPI_SOURCE);
    QT_CHECK(MPI_REQUEST_NULL == r, "MPI_PROC_NULL receive not freed by MPI_Wait");
}

static void check_completion_functions(void)
{
    MPI_Request r, a[4];
    MPI_Status st, sts[4];
    int flag, idx, outcount, indices[4], i;

    QT_STEP("MPI_Wait");
    r = MPI_REQUEST_EMPTY;
    poison(&st);
    QT_OK(MPI_Wait(&r, &st));
    QT_CHECK(is_empty_status(&st), "MPI_Wait: status src %d tag %d", st.MPI_SOURCE, st.MPI_TAG);
    QT_CHECK(MPI_REQUEST_NULL == r, "MPI_Wait left the handle set");
    r = MPI_REQUEST_EMPTY;
    QT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    QT_CHECK(MPI_REQUEST_NULL == r, "MPI_Wait (status ignored) left the handle set");

    QT_STEP("MPI_Test");
    r = MPI_REQUEST_EMPTY;
    flag = 0;
    poison(&st);
    QT_OK(MPI_Test(&r, &flag, &st));
    QT_CHECK(flag, "MPI_Test: not complete");
    QT_CHECK(is_empty_status(&st), "MPI_Test: status src %d tag %d", st.MPI_SOURCE, st.MPI_TAG);
    QT_CHECK(MPI_REQUEST_NULL == r, "MPI_Test left the handle set");

    QT_STEP("MPI_Request_get_status");
    r = MPI_REQUEST_EMPTY;
    flag = 0;
    poison(&st);
    QT_OK(MPI_Request_get_status(r, &flag, &st));
    QT_CHECK(flag, "get_status: not complete");
    QT_CHECK(is_empty_status(&st), "get_status: status src %d", st.MPI_SOURCE);
    QT_CHECK(MPI_REQUEST_EMPTY == r, "get_status changed the handle");

    QT_STEP("MPI_Request_free and MPI_Cancel");
    r = MPI_REQUEST_EMPTY;
    QT_OK(MPI_Request_free(&r));
    QT_CHECK(MPI_REQUEST_NULL == r, "MPI_Request_free left the handle set");
    r = MPI_REQUEST_EMPTY;
    QT_OK(MPI_Cancel(&r));
    QT_CHECK(MPI_REQUEST_EMPTY == r, "MPI_Cancel changed the handle");
    poison(&st);
    QT_OK(MPI_Wait(&r, &st));
    QT_CHECK(is_empty_status(&st), "wait after cancel: cancelled or non-empty status");

    QT_STEP("MPI_Start is refused");
    r = MPI_REQUEST_EMPTY;
    QT_CHECK_RC(MPI_Start(&r), MPI_ERR_REQUEST);
    QT_CHECK(MPI_REQUEST_EMPTY == r, "refused MPI_Start changed the handle");

    QT_STEP("MPI_Waitany");
    a[0] = MPI_REQUEST_NULL;
    a[1] = MPI_REQUEST_EMPTY;
    a[2] = MPI_REQUEST_NULL;
    idx = -1;
    poison(&st);
    QT_OK(MPI_Waitany(3, a, &idx, &st));
    QT_CHECK(1 == idx, "MPI_Waitany index %d", idx);
    QT_CHECK(is_empty_status(&st), "MPI_Waitany: status src %d", st.MPI_SOURCE);
    QT_CHECK(MPI_REQUEST_NULL == a[1], "MPI_Waitany left the handle set");
    QT_OK(MPI_Waitany(3, a, &idx, &st));
    QT_CHECK(MPI_UNDEFINED == idx, "MPI_Waitany on nulls: index %d", idx);

    QT_STEP("MPI_Testany");
    a[0] = MPI_REQUEST_NULL;
    a[1] = MPI_REQUEST_NULL;
    a[2] = MPI_REQUEST_EMPTY;
    idx = -1;
    flag = 0;
    QT_OK(MPI_Testany(3, a, &idx, &flag, &st));
    QT_CHECK(flag && 2 == idx, "MPI_Testany flag %d index %d", flag, idx);
    QT_CHECK(MPI_REQUEST_NULL == a[2], "MPI_Testany left the handle set");

    QT_STEP("MPI_Waitall");
    a[0] = MPI_REQUEST_EMPTY;
    a[1] = MPI_REQUEST_NULL;
    a[2] = MPI_REQUEST_EMPTY;
    for (i = 0; i < 3; i++) {
        poison(&sts[i]);
    }
    QT_OK(MPI_Waitall(3, a, sts));
    for (i = 0; i < 3; i++) {
        QT_CHECK(MPI_REQUEST_NULL == a[i], "MPI_Waitall: handle %d set", i);
        QT_CHECK(is_empty_status(&sts[i]), "MPI_Waitall: status %d src %d", i,
                 sts[i].MPI_SOURCE);
    }

    QT_STEP("MPI_Testall");
    a[0] = MPI_REQUEST_EMPTY;
    a[1] = MPI_REQUEST_EMPTY;
    flag = 0;
    QT_OK(MPI_Testall(2, a, &flag, MPI_STATUSES_IGNORE));
    QT_CHECK(flag, "MPI_Testall: not complete");
    QT_CHECK(MPI_REQUEST_NULL == a[0] && MPI_REQUEST_NULL == a[1], "MPI_Testall: handles set");

    QT_STEP("MPI_Waitsome and MPI_Testsome");
    a[0] = MPI_REQUEST_EMPTY;
    a[1] = MPI_REQUEST_NULL;
    a[2] = MPI_REQUEST_EMPTY;
    outcount = -1;
    QT_OK(MPI_Waitsome(3, a, &outcount, indices, sts));
    QT_CHECK(2 == outcount, "MPI_Waitsome outcount %d", outcount);
    if (2 == outcount) {
        QT_CHECK((0 == indices[0] && 2 == indices[1]) || (2 == indices[0] && 0 == indices[1]),
                 "MPI_Waitsome indices %d %d", indices[0], indices[1]);
        QT_CHECK(is_empty_status(&sts[0]) && is_empty_status(&sts[1]),
                 "MPI_Waitsome statuses not empty");
    }
    QT_OK(MPI_Testsome(3, a, &outcount, indices, sts));
    QT_CHECK(MPI_UNDEFINED == outcount, "MPI_Testsome on nulls: outcount %d", outcount);
    a[1] = MPI_REQUEST_EMPTY;
    QT_OK(MPI_Testsome(3, a, &outcount, indices, MPI_STATUSES_IGNORE));
    QT_CHECK(1 == outcount && 1 == indices[0], "MPI_Testsome outcount %d", outcount);
}

/* An array of a pending receive, MPI_REQUEST_EMPTY and MPI_REQUEST_NULL. */
static void check_mixed(int peer)
{
    MPI_Request a[3];
    MPI_Status sts[3];
    int indices[3], outcount = 0, got = 0, value = 0, one = 1, i, done = 0;

    QT_STEP("mixed array");
    QT_OK(MPI_Irecv(&value, 1, MPI_INT, peer, 11, MPI_COMM_WORLD, &a[0]));
    a[1] = MPI_REQUEST_EMPTY;
    a[2] = MPI_REQUEST_NULL;
    /* The receive cannot finish before the peer's send, which waits for
     * this rank's go-ahead, so the first Testsome reports only the empty one. */
    QT_OK(MPI_Testsome(3, a, &outcount, indices, sts));
    QT_CHECK(1 == outcount && 1 == indices[0], "first Testsome: outcount %d", outcount);
    QT_CHECK(MPI_REQUEST_NULL == a[1], "Testsome left MPI_REQUEST_EMPTY set");
    QT_CHECK(MPI_REQUEST_NULL != a[0], "pending receive reported complete");
    QT_OK(MPI_Sendrecv(&one, 1, MPI_INT, peer, 10, &got, 1, MPI_INT, peer, 10, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    QT_OK(MPI_Send(&one, 1, MPI_INT, peer, 11, MPI_COMM_WORLD));
    while (!done) {
        QT_OK(MPI_Waitsome(3, a, &outcount, indices, sts));
        QT_CHECK(MPI_UNDEFINED != outcount, "Waitsome found no active request");
        if (MPI_UNDEFINED == outcount) {
            break;
        }
        for (i = 0; i < outcount; i++) {
            QT_CHECK(0 == indices[i], "Waitsome completed index %d", indices[i]);
            QT_CHECK(peer == sts[i].MPI_SOURCE && 11 == sts[i].MPI_TAG,
                     "receive status src %d tag %d", sts[i].MPI_SOURCE, sts[i].MPI_TAG);
            done = 1;
        }
    }
    QT_CHECK(1 == value, "received %d", value);
}

/* Sends: small ones complete inside the call and come back empty; a
 * synchronous send or a large send to a peer that has not posted its
 * receive cannot have completed, so they must be real requests. */
static void check_sends(int rank, int peer)
{
    static int64_t small[NSMALL];
    MPI_Request reqs[NSMALL], big, ssend;
    char *large = malloc(LARGE_COUNT);
    int i, empties = 0, bad = 0, token = 0;

    QT_STEP("sends that complete inside the call");
    QT_CHECK(NULL != large, "out of memory");
    if (NULL == large) {
        return;
    }
    if (0 == rank % 2) {
        for (i = 0; i < NSMALL; i++) {
            small[i] = 1000 + i;
            QT_OK(MPI_Isend(&small[i], 1, MPI_INT64_T, peer, 20, MPI_COMM_WORLD, &reqs[i]));
            if (MPI_REQUEST_EMPTY == reqs[i]) {
                empties++;
            }
        }
        QT_CHECK(empties > 0, "none of %d small MPI_Isend returned MPI_REQUEST_EMPTY", NSMALL);
        QT_OK(MPI_Waitall(NSMALL, reqs, MPI_STATUSES_IGNORE));

        QT_STEP("pending sends are real requests");
        memset(large, 7, LARGE_COUNT);
        QT_OK(MPI_Isend(large, LARGE_COUNT, MPI_CHAR, peer, 21, MPI_COMM_WORLD, &big));
        QT_CHECK(MPI_REQUEST_EMPTY != big, "an unmatched 4 MiB send returned MPI_REQUEST_EMPTY");
        QT_OK(MPI_Issend(&token, 1, MPI_INT, peer, 22, MPI_COMM_WORLD, &ssend));
        QT_CHECK(MPI_REQUEST_EMPTY != ssend, "an unmatched MPI_Issend returned MPI_REQUEST_EMPTY");
        /* The peer posts its receives only after this message. */
        QT_OK(MPI_Send(&token, 1, MPI_INT, peer, 23, MPI_COMM_WORLD));
        QT_OK(MPI_Wait(&big, MPI_STATUS_IGNORE));
        QT_OK(MPI_Wait(&ssend, MPI_STATUS_IGNORE));
    } else {
        for (i = 0; i < NSMALL; i++) {
            int64_t v = -1;
            QT_OK(MPI_Recv(&v, 1, MPI_INT64_T, peer, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            bad += (1000 + i != v);
        }
        QT_CHECK(0 == bad, "%d small messages arrived wrong", bad);
        QT_OK(MPI_Recv(&token, 1, MPI_INT, peer, 23, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        QT_OK(MPI_Recv(large, LARGE_COUNT, MPI_CHAR, peer, 21, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        QT_CHECK(7 == large[0] && 7 == large[LARGE_COUNT - 1], "large message wrong");
        QT_OK(MPI_Recv(&token, 1, MPI_INT, peer, 22, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }
    free(large);
}

static void check_collectives(int rank, int size)
{
    MPI_Request r;
    int in[4] = {1, 2, 3, 4}, out[4] = {0, 0, 0, 0}, i;

    QT_STEP("collectives that complete inside the call");
    QT_OK(MPI_Ibcast(in, 0, MPI_INT, 0, MPI_COMM_WORLD, &r));
    QT_CHECK(MPI_REQUEST_EMPTY == r, "zero-count MPI_Ibcast did not return MPI_REQUEST_EMPTY");
    QT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    QT_OK(MPI_Iallreduce(in, out, 4, MPI_INT, MPI_SUM, MPI_COMM_SELF, &r));
    QT_CHECK(MPI_REQUEST_EMPTY == r, "MPI_Iallreduce on MPI_COMM_SELF did not return it");
    for (i = 0; i < 4; i++) {
        QT_CHECK(in[i] == out[i], "MPI_Iallreduce on MPI_COMM_SELF: out[%d] = %d", i, out[i]);
    }
    QT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));

    QT_STEP("a collective in flight is a real request");
    /* Rank 0 enters first; the others join only after its call returned, so
     * its request cannot have completed inside the call. */
    if (0 == rank) {
        QT_OK(MPI_Iallreduce(in, out, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r));
        QT_CHECK(MPI_REQUEST_EMPTY != r, "MPI_Iallreduce in flight returned MPI_REQUEST_EMPTY");
        for (i = 1; i < size; i++) {
            QT_OK(MPI_Send(NULL, 0, MPI_INT, i, 50, MPI_COMM_WORLD));
        }
    } else {
        QT_OK(MPI_Recv(NULL, 0, MPI_INT, 0, 50, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        QT_OK(MPI_Iallreduce(in, out, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r));
    }
    QT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (i = 0; i < 4; i++) {
        QT_CHECK(in[i] * size == out[i], "MPI_Iallreduce: out[%d] = %d", i, out[i]);
    }
}

/* The message is at the receiver once a later message from the same sender,
 * on the same communicator, has been received (non-overtaking). */
static void deliver(MPI_Comm comm, int rank, int peer, int value, int count)
{
    int flagmsg = 0;

    if (0 == rank % 2) {
        QT_OK(MPI_Send(&value, count, MPI_INT, peer, 30, comm));
        QT_OK(MPI_Send(&flagmsg, 0, MPI_INT, peer, 31, comm));
    } else {
        QT_OK(MPI_Recv(&flagmsg, 0, MPI_INT, peer, 31, comm, MPI_STATUS_IGNORE));
    }
}

static void check_info(MPI_Comm comm, const char *expect, const char *what)
{
    MPI_Info info;
    char value[64] = "";
    int flag = 0;

    QT_OK(MPI_Comm_get_info(comm, &info));
    QT_OK(MPI_Info_get(info, "mpi_recv_req_may_be_empty", sizeof(value) - 1, value, &flag));
    QT_CHECK(flag && 0 == strcmp(value, expect), "%s: key reads \"%s\" (set %d), expected %s",
             what, value, flag, expect);
    MPI_Info_free(&info);
}

static void check_receives(int rank, int peer)
{
    MPI_Comm plain, keyed, created;
    MPI_Info info;
    MPI_Request r;
    MPI_Message msg;
    MPI_Status st;
    int v, two[2] = {5, 6};

    QT_STEP("receive without the key");
    QT_OK(MPI_Comm_dup(MPI_COMM_WORLD, &plain));
    QT_OK(MPI_Comm_set_errhandler(plain, MPI_ERRORS_RETURN));
    deliver(plain, rank, peer, 41, 1);
    if (1 == rank % 2) {
        v = 0;
        QT_OK(MPI_Irecv(&v, 1, MPI_INT, peer, 30, plain, &r));
        QT_CHECK(MPI_REQUEST_EMPTY != r, "receive without the key returned MPI_REQUEST_EMPTY");
        QT_OK(MPI_Wait(&r, &st));
        QT_CHECK(41 == v && peer == st.MPI_SOURCE && 30 == st.MPI_TAG, "plain receive v %d", v);
    }

    QT_STEP("receive with the key set by MPI_Comm_set_info");
    QT_OK(MPI_Comm_dup(MPI_COMM_WORLD, &keyed));
    QT_OK(MPI_Comm_set_errhandler(keyed, MPI_ERRORS_RETURN));
    check_info(keyed, "false", "default");
    QT_OK(MPI_Info_create(&info));
    QT_OK(MPI_Info_set(info, "mpi_recv_req_may_be_empty", "true"));
    QT_OK(MPI_Comm_set_info(keyed, info));
    check_info(keyed, "true", "after MPI_Comm_set_info");
    deliver(keyed, rank, peer, 42, 1);
    if (1 == rank % 2) {
        v = 0;
        QT_OK(MPI_Irecv(&v, 1, MPI_INT, peer, 30, keyed, &r));
        QT_CHECK(MPI_REQUEST_EMPTY == r, "arrived message with the key: not MPI_REQUEST_EMPTY");
        QT_CHECK(42 == v, "data not in the buffer when MPI_Irecv returned: %d", v);
        QT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));

        QT_STEP("receive with the key, message not yet sent");
        v = 0;
        QT_OK(MPI_Irecv(&v, 1, MPI_INT, peer, 32, keyed, &r));
        QT_CHECK(MPI_REQUEST_EMPTY != r, "receive of an unsent message returned it");
        QT_OK(MPI_Send(&v, 0, MPI_INT, peer, 33, keyed));
        QT_OK(MPI_Wait(&r, &st));
        QT_CHECK(43 == v && 32 == st.MPI_TAG, "late message v %d tag %d", v, st.MPI_TAG);
    } else {
        v = 43;
        QT_OK(MPI_Recv(NULL, 0, MPI_INT, peer, 33, keyed, MPI_STATUS_IGNORE));
        QT_OK(MPI_Send(&v, 1, MPI_INT, peer, 32, keyed));
    }

    QT_STEP("MPI_Imrecv with the key");
    deliver(keyed, rank, peer, 44, 1);
    if (1 == rank % 2) {
        v = 0;
        QT_OK(MPI_Mprobe(peer, 30, keyed, &msg, &st));
        QT_OK(MPI_Imrecv(&v, 1, MPI_INT, &msg, &r));
        QT_CHECK(MPI_REQUEST_EMPTY == r, "MPI_Imrecv of an arrived message: not MPI_REQUEST_EMPTY");
        QT_CHECK(44 == v, "MPI_Imrecv data %d", v);
        QT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    }

    QT_STEP("a receive that fails keeps its request");
    if (0 == rank % 2) {
        QT_OK(MPI_Send(two, 2, MPI_INT, peer, 30, keyed));
        QT_OK(MPI_Send(two, 0, MPI_INT, peer, 31, keyed));
    } else {
        QT_OK(MPI_Recv(two, 0, MPI_INT, peer, 31, keyed, MPI_STATUS_IGNORE));
        QT_OK(MPI_Irecv(&v, 1, MPI_INT, peer, 30, keyed, &r));
        QT_CHECK(MPI_REQUEST_EMPTY != r, "truncated receive returned MPI_REQUEST_EMPTY");
        QT_CHECK_RC(MPI_Wait(&r, &st), MPI_ERR_TRUNCATE);
    }

    QT_STEP("key set back to false");
    QT_OK(MPI_Info_set(info, "mpi_recv_req_may_be_empty", "false"));
    QT_OK(MPI_Comm_set_info(keyed, info));
    check_info(keyed, "false", "after setting false");
    deliver(keyed, rank, peer, 45, 1);
    if (1 == rank % 2) {
        QT_OK(MPI_Irecv(&v, 1, MPI_INT, peer, 30, keyed, &r));
        QT_CHECK(MPI_REQUEST_EMPTY != r, "key false: receive returned MPI_REQUEST_EMPTY");
        QT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        QT_CHECK(45 == v, "key false: v %d", v);
    }

    QT_STEP("key given at creation");
    QT_OK(MPI_Info_set(info, "mpi_recv_req_may_be_empty", "true"));
    QT_OK(MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &created));
    QT_OK(MPI_Comm_set_errhandler(created, MPI_ERRORS_RETURN));
    check_info(created, "true", "MPI_Comm_dup_with_info");
    check_info(plain, "false", "unrelated communicator");
    deliver(created, rank, peer, 46, 1);
    if (1 == rank % 2) {
        v = 0;
        QT_OK(MPI_Irecv(&v, 1, MPI_INT, peer, 30, created, &r));
        QT_CHECK(MPI_REQUEST_EMPTY == r, "created with the key: not MPI_REQUEST_EMPTY");
        QT_CHECK(46 == v, "created with the key: v %d", v);
        QT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    }

    MPI_Info_free(&info);
    MPI_Comm_free(&created);
    MPI_Comm_free(&keyed);
    MPI_Comm_free(&plain);
}

int main(int argc, char **argv)
{
    int rank, size, peer;

    qt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    QT_CHECK(0 == size % 2, "needs an even number of ranks, got %d", size);
    peer = rank ^ 1;
    if (0 == size % 2) {
        check_handle();
        check_completion_functions();
        check_mixed(peer);
        check_sends(rank, peer);
        check_collectives(rank, size);
        check_receives(rank, peer);
    }
    return qt_finalize();
}
