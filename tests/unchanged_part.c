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
 * Ordinary MPI-4 partitioned programs must run unchanged.  Ranks pair up
 * (0->1, 2->3, ...; with an odd size the last rank sends to itself): the
 * even rank MPI_Psend_init's 8 partitions of 64 ints on tag 7, the odd rank
 * MPI_Precv_init's them.  Five rounds of MPI_Start, MPI_Pready on every
 * partition (in reverse order), MPI_Parrived polling per partition on the
 * receiver and MPI_Wait; the data depends on the round and is checked per
 * partition as it arrives and in full after MPI_Wait; then
 * MPI_Request_free.
 */

#include "common/qtest.h"

#define NPART 8
#define PART_INTS 64
#define NROUNDS 5
#define TAG 7

static int value(int round, int sender, int part, int i)
{
    return round * 1000000 + sender * 10000 + part * PART_INTS + i;
}

/* Returns the number of wrong elements in one partition. */
static int check_part(const int *buf, int round, int sender, int part)
{
    int bad = 0;

    for (int i = 0; i < PART_INTS; ++i) {
        int want = value(round, sender, part, i);
        if (want != buf[part * PART_INTS + i]) {
            if (0 == bad++) {
                QT_CHECK(0, "round %d partition %d: [%d] = %d, expected %d", round, part, i,
                         buf[part * PART_INTS + i], want);
            }
        }
    }
    return bad;
}

/* One rank's part of the exchange: it sends to "to" and/or receives from
 * "from" (-1: that direction is not used). */
static void exchange(int rank, int to, int from)
{
    int sbuf[NPART * PART_INTS], rbuf[NPART * PART_INTS];
    MPI_Request sreq = MPI_REQUEST_NULL, rreq = MPI_REQUEST_NULL;

    QT_STEP("psend_init and precv_init");
    if (0 <= from) {
        QT_OK(MPI_Precv_init(rbuf, NPART, PART_INTS, MPI_INT, from, TAG, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &rreq));
        QT_CHECK(MPI_REQUEST_NULL != rreq, "MPI_Precv_init returned MPI_REQUEST_NULL");
    }
    if (0 <= to) {
        QT_OK(MPI_Psend_init(sbuf, NPART, PART_INTS, MPI_INT, to, TAG, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &sreq));
        QT_CHECK(MPI_REQUEST_NULL != sreq, "MPI_Psend_init returned MPI_REQUEST_NULL");
    }

    for (int round = 0; round < NROUNDS; ++round) {
        int bad = 0;

        if (MPI_REQUEST_NULL != rreq) {
            QT_STEP("receiver: start");
            /* The buffer is ours again after MPI_Wait: poison it. */
            for (int i = 0; i < NPART * PART_INTS; ++i) {
                rbuf[i] = -1;
            }
            QT_OK(MPI_Start(&rreq));
        }
        if (MPI_REQUEST_NULL != sreq) {
            QT_STEP("sender: start and pready in reverse order");
            QT_OK(MPI_Start(&sreq));
            for (int part = NPART - 1; part >= 0; --part) {
                /* A partition may be written until it is marked ready. */
                for (int i = 0; i < PART_INTS; ++i) {
                    sbuf[part * PART_INTS + i] = value(round, rank, part, i);
                }
                QT_OK(MPI_Pready(part, sreq));
            }
        }
        if (MPI_REQUEST_NULL != rreq) {
            QT_STEP("receiver: parrived polling");
            for (int part = 0; part < NPART; ++part) {
                int flag = 0;

                while (!flag) {
                    int rc = MPI_Parrived(rreq, part, &flag);
                    if (MPI_SUCCESS != rc) {
                        QT_CHECK(0, "MPI_Parrived(%d) returned %d", part, rc);
                        break;
                    }
                }
                if (flag) {
                    /* An arrived partition may be read before MPI_Wait. */
                    bad += check_part(rbuf, round, from, part);
                }
            }
        }
        if (MPI_REQUEST_NULL != sreq) {
            QT_STEP("sender: wait");
            QT_OK(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
            QT_CHECK(MPI_REQUEST_NULL != sreq, "MPI_Wait freed the partitioned send request");
        }
        if (MPI_REQUEST_NULL != rreq) {
            QT_STEP("receiver: wait");
            QT_OK(MPI_Wait(&rreq, MPI_STATUS_IGNORE));
            QT_CHECK(MPI_REQUEST_NULL != rreq, "MPI_Wait freed the partitioned receive request");
            for (int part = 0; part < NPART && 0 == bad; ++part) {
                bad += check_part(rbuf, round, from, part);
            }
        }
    }

    QT_STEP("request_free");
    if (MPI_REQUEST_NULL != sreq) {
        QT_OK(MPI_Request_free(&sreq));
        QT_CHECK(MPI_REQUEST_NULL == sreq, "MPI_Request_free did not set MPI_REQUEST_NULL");
    }
    if (MPI_REQUEST_NULL != rreq) {
        QT_OK(MPI_Request_free(&rreq));
        QT_CHECK(MPI_REQUEST_NULL == rreq, "MPI_Request_free did not set MPI_REQUEST_NULL");
    }
}

int main(int argc, char **argv)
{
    int rank, size, peer;

    qt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    peer = rank ^ 1;

    if (peer >= size) {
        /* Odd size: no partner.  Open MPI's part/persist component lazily
         * duplicates MPI_COMM_WORLD (a collective) on the first partitioned
         * call, so this rank must make one too: it exchanges with itself. */
        exchange(rank, rank, rank);
    } else if (0 == rank % 2) {
        exchange(rank, peer, -1);
    } else {
        exchange(rank, -1, peer);
    }
    return qt_finalize();
}
