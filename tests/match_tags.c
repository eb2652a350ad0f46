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
 * The match framework's tag band and the collectives' tag space are
 * disjoint: with a matched receive started and pending on a communicator,
 * that communicator's nonblocking-collective tag counter is driven through
 * every tag the collectives could ever draw, down past the bottom of the
 * match band (where stock's counter would reach the channel's tag), and
 * every collective must complete while the matched receive still gets its
 * own message afterwards.
 *
 * Ranks 0 and 1 hold the matched pair; every rank takes part in the
 * collectives.
 */

#include "common/qtest.h"

/* more nonblocking collectives than the distance from the first
 * collective tag to the bottom of the match band (-2^23) */
#define NCOLL ((1 << 23) + 4096)
#define WINDOW 32

int main(int argc, char **argv)
{
    MPI_Request coll[WINDOW], m = MPI_REQUEST_NULL;
    MPI_Comm comm;
    MPI_Status st;
    int rank, value = -1, payload = 4242;
    long done = 0;

    qt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);

    QT_STEP("match a pair");
    if (0 == rank) {
        MPI_Send_init(&payload, 1, MPI_INT, 1, 5, comm, &m);
    } else if (1 == rank) {
        MPI_Recv_init(&value, 1, MPI_INT, 0, 5, comm, &m);
    }
    if (rank < 2) {
        QT_OK(MPI_Match(&m));
    }
    if (1 == rank) {
        QT_OK(MPI_Start(&m)); /* pending on the channel's tag throughout */
    }

    QT_STEP("nonblocking collectives through the whole tag range");
    for (int i = 0; i < WINDOW; ++i) {
        coll[i] = MPI_REQUEST_NULL;
    }
    for (long i = 0; i < NCOLL; ++i) {
        int slot = (int) (i % WINDOW);
        if (MPI_REQUEST_NULL != coll[slot]) {
            MPI_Wait(&coll[slot], MPI_STATUS_IGNORE);
            done++;
        }
        if (MPI_SUCCESS != MPI_Ibarrier(comm, &coll[slot])) {
            QT_CHECK(0, "MPI_Ibarrier %ld failed", i);
            break;
        }
    }
    QT_STEP("last collectives");
    for (int i = 0; i < WINDOW; ++i) {
        if (MPI_REQUEST_NULL != coll[i]) {
            MPI_Wait(&coll[i], MPI_STATUS_IGNORE);
            done++;
        }
    }
    QT_CHECK(NCOLL == done, "%ld of %d collectives completed", done, NCOLL);

    QT_STEP("the matched pair after the collectives");
    if (0 == rank) {
        QT_OK(MPI_Start(&m));
        QT_OK(MPI_Wait(&m, &st));
    } else if (1 == rank) {
        QT_OK(MPI_Wait(&m, &st));
        QT_CHECK(4242 == value && 0 == st.MPI_SOURCE && 5 == st.MPI_TAG,
                 "matched receive got %d from %d tag %d", value, st.MPI_SOURCE, st.MPI_TAG);
    }
    if (rank < 2) {
        MPI_Request_free(&m);
    }
    MPI_Comm_free(&comm);
    return qt_finalize();
}
