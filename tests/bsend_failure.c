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
 * A buffered send refused for want of buffer space leaves the pair as it
 * was: the messages sent after it arrive, in order.
 *
 * Rank 0 sends to rank 1, on MPI_COMM_WORLD:
 *   1. MPI_Ibsend of LARGE bytes with no buffer attached: an error; then
 *      MPI_Send of 1 int (tag 1): rank 1 receives it;
 *   2. the same with a buffer attached that is too small;
 *   3. MPI_Bsend_init of LARGE bytes, MPI_Start with no buffer: an error;
 *      the request is freed; MPI_Send (tag 2);
 *   4. a buffer large enough attached, a new MPI_Bsend_init started: rank 1
 *      receives the LARGE message (tag 3), data checked, then MPI_Send
 *      (tag 4).
 * Small buffered sends that go eagerly are not part of this: Open MPI sends
 * them without touching the attached buffer, as stock does.
 * Other ranks only take part in the verdict.
 */

#include <stdint.h>

#include "common/qtest.h"

#define LARGE (256 * 1024)

static unsigned char pattern(size_t i)
{
    return (unsigned char) (i * 131 + 7);
}

/* insufficient buffer space is erroneous; which class reports it is the
 * implementation's (ob1: MPI_ERR_BUFFER) */
#define CHECK_REFUSED(call)                                                  \
    do {                                                                     \
        int rc_ = (call);                                                    \
        QT_CHECK(MPI_SUCCESS != rc_, "%s succeeded with too little buffer", #call); \
    } while (0)

static void recv_int(int expect, int tag)
{
    int v = -1;
    MPI_Status st;

    QT_OK(MPI_Recv(&v, 1, MPI_INT, 0, tag, MPI_COMM_WORLD, &st));
    QT_CHECK(expect == v, "tag %d: received %d, expected %d", tag, v, expect);
}

int main(int argc, char **argv)
{
    unsigned char *big = malloc(LARGE), *attach = NULL;
    int rank, size, v, bsize;
    MPI_Request req = MPI_REQUEST_NULL;
    void *old;

    qt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (size_t i = 0; i < LARGE; ++i) {
        big[i] = pattern(i);
    }

    if (0 == rank) {
        QT_STEP("MPI_Ibsend with no buffer attached");
        CHECK_REFUSED(MPI_Ibsend(big, LARGE, MPI_BYTE, 1, 9, MPI_COMM_WORLD, &req));
        if (MPI_REQUEST_NULL != req) {
            MPI_Request_free(&req);
        }
        v = 11;
        QT_OK(MPI_Send(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD));

        QT_STEP("MPI_Ibsend into a buffer too small");
        bsize = 1024 + MPI_BSEND_OVERHEAD;
        attach = malloc(bsize);
        QT_OK(MPI_Buffer_attach(attach, bsize));
        CHECK_REFUSED(MPI_Ibsend(big, LARGE, MPI_BYTE, 1, 9, MPI_COMM_WORLD, &req));
        if (MPI_REQUEST_NULL != req) {
            MPI_Request_free(&req);
        }
        QT_OK(MPI_Buffer_detach(&old, &bsize));
        free(attach);
        v = 12;
        QT_OK(MPI_Send(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD));

        QT_STEP("persistent buffered send started with no buffer");
        QT_OK(MPI_Bsend_init(big, LARGE, MPI_BYTE, 1, 3, MPI_COMM_WORLD, &req));
        CHECK_REFUSED(MPI_Start(&req));
        QT_OK(MPI_Request_free(&req));
        v = 13;
        QT_OK(MPI_Send(&v, 1, MPI_INT, 1, 2, MPI_COMM_WORLD));

        QT_STEP("a buffered send with a buffer");
        bsize = LARGE + MPI_BSEND_OVERHEAD;
        attach = malloc(bsize);
        QT_OK(MPI_Buffer_attach(attach, bsize));
        QT_OK(MPI_Bsend_init(big, LARGE, MPI_BYTE, 1, 3, MPI_COMM_WORLD, &req));
        QT_OK(MPI_Start(&req));
        QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        QT_OK(MPI_Request_free(&req));
        v = 14;
        QT_OK(MPI_Send(&v, 1, MPI_INT, 1, 4, MPI_COMM_WORLD));
        QT_STEP("MPI_Buffer_detach");
        QT_OK(MPI_Buffer_detach(&old, &bsize));
        free(attach);
    } else if (1 == rank) {
        unsigned char *in = calloc(1, LARGE);
        size_t bad = 0;

        QT_STEP("receive after the refused MPI_Ibsend (no buffer)");
        recv_int(11, 1);
        QT_STEP("receive after the refused MPI_Ibsend (buffer too small)");
        recv_int(12, 1);
        QT_STEP("receive after the failed MPI_Start");
        recv_int(13, 2);
        QT_STEP("receive the buffered send");
        QT_OK(MPI_Recv(in, LARGE, MPI_BYTE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        for (size_t i = 0; i < LARGE; ++i) {
            bad += (pattern(i) != in[i]);
        }
        QT_CHECK(0 == bad, "%zu of %d bytes of the buffered send differ", bad, LARGE);
        QT_STEP("receive after the buffered send");
        recv_int(14, 4);
        free(in);
    }
    free(big);
    return qt_finalize();
}
