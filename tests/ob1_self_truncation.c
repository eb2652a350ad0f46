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
 * A message a process sends to itself, larger than the receive: the
 * receive reports MPI_ERR_TRUNCATE whether it was posted before the send or
 * after it, nothing after the buffer is written (over ob1 the buffer holds
 * the message's first bytes; UCX leaves it as it was), and a message that
 * fits, sent next, arrives whole with its count.  Every rank does it on its own (btl/self over ob1).  Sizes:
 * one int, and around ob1's protocol thresholds.  Stock 5.0.7 ob1 reported
 * success for a receive posted first (patch 0021).
 */

#include <stdint.h>

#include "common/qtest.h"

#define GUARD 4096
#define GUARD_BYTE 0xA5
#define TAG_TRUNC 11
#define TAG_FIT 12

static int ob1;

static unsigned char msg_byte(size_t i, int seed)
{
    return (unsigned char) ((i * 131u + (size_t) seed * 7u) & 0xff);
}

static void one_case(size_t len, size_t rlen, int posted_first, unsigned char *sbuf,
                     unsigned char *rbuf)
{
    MPI_Request rreq, sreq;
    MPI_Status st;
    int rc, cls = -1, count = -1, seed = (int) (len % 97) + posted_first;
    size_t bad = 0, first_bad = 0;

    for (size_t i = 0; i < len; ++i) {
        sbuf[i] = msg_byte(i, seed);
    }
    memset(rbuf, GUARD_BYTE, rlen + GUARD);
    if (posted_first) {
        QT_OK(MPI_Irecv(rbuf, (int) rlen, MPI_BYTE, MPI_ANY_SOURCE, TAG_TRUNC, MPI_COMM_SELF,
                        &rreq));
        QT_OK(MPI_Isend(sbuf, (int) len, MPI_BYTE, 0, TAG_TRUNC, MPI_COMM_SELF, &sreq));
        rc = MPI_Wait(&rreq, &st);
    } else {
        QT_OK(MPI_Isend(sbuf, (int) len, MPI_BYTE, 0, TAG_TRUNC, MPI_COMM_SELF, &sreq));
        rc = MPI_Recv(rbuf, (int) rlen, MPI_BYTE, 0, TAG_TRUNC, MPI_COMM_SELF, &st);
    }
    MPI_Error_class(rc, &cls);
    QT_CHECK(MPI_ERR_TRUNCATE == cls, "%zu bytes into %zu, receive %s: class %d, expected "
             "MPI_ERR_TRUNCATE", len, rlen, posted_first ? "posted first" : "after the send",
             cls);
    QT_OK(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
    for (size_t i = ob1 ? 0 : rlen; i < rlen + GUARD; ++i) {
        unsigned char want = i < rlen ? msg_byte(i, seed) : GUARD_BYTE;
        if (rbuf[i] != want && 0 == bad++) {
            first_bad = i;
        }
    }
    QT_CHECK(0 == bad, "%zu bytes into %zu, receive %s: %zu bytes wrong, the first at %zu (%s)",
             len, rlen, posted_first ? "posted first" : "after the send", bad, first_bad,
             first_bad < rlen ? "in the buffer" : "after it");

    /* the same size again, with room for it */
    memset(rbuf, GUARD_BYTE, len + GUARD);
    if (posted_first) {
        QT_OK(MPI_Irecv(rbuf, (int) len, MPI_BYTE, 0, TAG_FIT, MPI_COMM_SELF, &rreq));
        QT_OK(MPI_Isend(sbuf, (int) len, MPI_BYTE, 0, TAG_FIT, MPI_COMM_SELF, &sreq));
        QT_OK(MPI_Wait(&rreq, &st));
    } else {
        QT_OK(MPI_Isend(sbuf, (int) len, MPI_BYTE, 0, TAG_FIT, MPI_COMM_SELF, &sreq));
        QT_OK(MPI_Recv(rbuf, (int) len, MPI_BYTE, 0, TAG_FIT, MPI_COMM_SELF, &st));
    }
    QT_OK(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
    QT_OK(MPI_Get_count(&st, MPI_BYTE, &count));
    QT_CHECK((size_t) count == len && 0 == memcmp(rbuf, sbuf, len),
             "%zu bytes with room: count %d, data %s", len, count,
             0 == memcmp(rbuf, sbuf, len) ? "right" : "wrong");
}

int main(int argc, char **argv)
{
    static const size_t sizes[] = {4, 8, 1024, 4097, 65537, 262144};
    int nsizes = (int) (sizeof(sizes) / sizeof(sizes[0]));
    size_t max = sizes[nsizes - 1];
    unsigned char *sbuf, *rbuf;

    qt_init(&argc, &argv);
    ob1 = NULL != getenv("OMPI_MCA_pml") && 0 == strcmp(getenv("OMPI_MCA_pml"), "ob1");
    QT_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    sbuf = malloc(max);
    rbuf = malloc(max + GUARD);
    QT_CHECK(NULL != sbuf && NULL != rbuf, "out of memory");
    for (int s = 0; s < nsizes && NULL != sbuf && NULL != rbuf; ++s) {
        size_t rlens[2] = {sizes[s] / 2, 0};
        for (int r = 0; r < 2; ++r) {
            for (int posted_first = 1; posted_first >= 0; --posted_first) {
                static char name[96];
                snprintf(name, sizeof(name), "%zu bytes to oneself into %zu, receive %s",
                         sizes[s], rlens[r], posted_first ? "posted first" : "after the send");
                QT_STEP(name);
                one_case(sizes[s], rlens[r], posted_first, sbuf, rbuf);
            }
        }
    }
    free(sbuf);
    free(rbuf);
    return qt_finalize();
}
