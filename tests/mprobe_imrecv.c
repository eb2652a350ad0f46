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
 * A message matched by MPI_Mprobe (or MPI_Improbe) and received with
 * MPI_Imrecv: its request is completed by the calls that take an array of
 * requests (MPI_Waitall, MPI_Testall, MPI_Waitany, MPI_Waitsome), beside
 * the send's request, and the data and status are right.  Sizes below and
 * above the eager limits, many rounds, so that requests are reused.  Each
 * rank sends to the next (to itself with one rank).  Stock 5.0.7 pml/ucx
 * gave its MPI_Imrecv request no communicator, and the array calls read
 * its instance through it (patch 0025).
 */

#include "common/qtest.h"

#define TAG 21
#define ROUNDS 50

enum completion { BY_WAITALL, BY_TESTALL, BY_WAITANY, BY_WAITSOME, NCOMPLETIONS };

static const char *completion_name[NCOMPLETIONS] = {"MPI_Waitall", "MPI_Testall", "MPI_Waitany",
                                                    "MPI_Waitsome"};

/* Completes both requests with the array call under test; the receive's
 * status goes to *rst. */
static void complete_pair(enum completion how, MPI_Request reqs[2], MPI_Status *rst)
{
    MPI_Status st[2];
    int flag = 0, done = 0, idx, outcount, indices[2];

    switch (how) {
    case BY_WAITALL:
        QT_OK(MPI_Waitall(2, reqs, st));
        *rst = st[1];
        break;
    case BY_TESTALL:
        while (!flag) {
            int rc = MPI_Testall(2, reqs, &flag, st);
            QT_CHECK(MPI_SUCCESS == rc, "MPI_Testall returned %d", rc);
            if (MPI_SUCCESS != rc) {
                return;
            }
        }
        *rst = st[1];
        break;
    case BY_WAITANY:
        while (done < 2) {
            int rc = MPI_Waitany(2, reqs, &idx, &st[0]);
            QT_CHECK(MPI_SUCCESS == rc && (0 == idx || 1 == idx), "MPI_Waitany returned %d, "
                     "index %d", rc, idx);
            if (MPI_SUCCESS != rc || (0 != idx && 1 != idx)) {
                return;
            }
            if (1 == idx) {
                *rst = st[0];
            }
            done++;
        }
        break;
    default:
        while (done < 2) {
            int rc = MPI_Waitsome(2, reqs, &outcount, indices, st);
            QT_CHECK(MPI_SUCCESS == rc && outcount >= 1 && outcount <= 2, "MPI_Waitsome "
                     "returned %d, outcount %d", rc, outcount);
            if (MPI_SUCCESS != rc || outcount < 1 || outcount > 2) {
                return;
            }
            for (int i = 0; i < outcount; ++i) {
                if (1 == indices[i]) {
                    *rst = st[i];
                }
            }
            done += outcount;
        }
        break;
    }
    QT_CHECK(MPI_REQUEST_NULL == reqs[0] && MPI_REQUEST_NULL == reqs[1],
             "%s left a request that is not MPI_REQUEST_NULL", completion_name[how]);
}

int main(int argc, char **argv)
{
    static const int sizes[] = {1, 1000, 100000, 1 << 20};
    int nsizes = (int) (sizeof(sizes) / sizeof(sizes[0]));
    int max = sizes[nsizes - 1], size, to, from;
    int *sbuf, *rbuf;

    qt_init(&argc, &argv);
    qt_name_crashes();
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    to = (qt_rank + 1) % size;
    from = (qt_rank + size - 1) % size;
    sbuf = malloc(max * sizeof(int));
    rbuf = malloc(max * sizeof(int));
    QT_CHECK(NULL != sbuf && NULL != rbuf, "out of memory");

    for (int s = 0; s < nsizes && NULL != sbuf && NULL != rbuf; ++s) {
        for (int how = 0; how < NCOMPLETIONS; ++how) {
            static char name[96];

            snprintf(name, sizeof(name), "%d ints, MPI_Mprobe/MPI_Imrecv, %s", sizes[s],
                     completion_name[how]);
            QT_STEP(name);
            for (int round = 0; round < ROUNDS && 0 == qt_failures; ++round) {
                MPI_Request reqs[2];
                MPI_Message msg = MPI_MESSAGE_NULL;
                MPI_Status st, rst;
                int count = -1, bad = 0, seed = round * 7 + s + qt_rank * 1000;

                for (int i = 0; i < sizes[s]; ++i) {
                    sbuf[i] = seed + i;
                    rbuf[i] = -1;
                }
                QT_OK(MPI_Isend(sbuf, sizes[s], MPI_INT, to, TAG, MPI_COMM_WORLD, &reqs[0]));
                if (round & 1) {
                    int matched = 0;
                    while (!matched) {
                        QT_OK(MPI_Improbe(MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &matched, &msg,
                                          &st));
                    }
                } else {
                    QT_OK(MPI_Mprobe(from, TAG, MPI_COMM_WORLD, &msg, &st));
                }
                QT_OK(MPI_Imrecv(rbuf, sizes[s], MPI_INT, &msg, &reqs[1]));
                QT_CHECK(MPI_MESSAGE_NULL == msg, "MPI_Imrecv left the message handle set");
                memset(&rst, 0, sizeof(rst));
                complete_pair((enum completion) how, reqs, &rst);
                QT_OK(MPI_Get_count(&rst, MPI_INT, &count));
                for (int i = 0; i < sizes[s]; ++i) {
                    bad += rbuf[i] != from * 1000 + round * 7 + s + i;
                }
                QT_CHECK(from == rst.MPI_SOURCE && TAG == rst.MPI_TAG && sizes[s] == count
                         && 0 == bad, "round %d: source %d (expected %d), tag %d, count %d "
                         "(expected %d), %d ints wrong", round, rst.MPI_SOURCE, from,
                         rst.MPI_TAG, count, sizes[s], bad);
            }
        }
    }
    free(sbuf);
    free(rbuf);
    return qt_finalize();
}
