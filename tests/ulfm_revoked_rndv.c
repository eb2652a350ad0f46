/*
 * Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 *
 * Under ULFM (mpirun --with-ft ulfm), a send above the eager limit whose
 * receiver revokes the communicator before posting the receive must end
 * with MPIX_ERR_REVOKED: its data never reached the receiver.  pml ob1's
 * receiver drops the waiting rendezvous and answers it with an empty
 * acknowledgement; stock 5.0.7 and 5.0.10 complete the send on that answer
 * with MPI_SUCCESS, so whether the program hears of the revoke depends on
 * which of the answer and the revoke notice its progress reads first (the
 * answer leaves first).  Patch 0052.
 *
 * Rank 1 probes the message (its header is then waiting in rank 1's
 * unexpected queue), revokes MPI_COMM_WORLD and never receives it; rank 0's
 * MPI_Wait must return MPIX_ERR_REVOKED.  A short message is the control:
 * its send ends at once with MPI_SUCCESS, before anything is revoked.
 * Both ranks then agree on the verdict on the revoked communicator.
 *
 * "freed": rank 0 frees the long send at once (MPI_Request_free) and only
 * agrees with rank 1.  Its send then ends after the free, with the
 * revoke's error, which the program learns from the communicator: that must
 * not end the process.  Open MPI 5.0.10's ob1 aborts there ("Send error
 * after request freed", upstream's 69b77b1ef5 checks every freed send),
 * which part/persist meets whenever a partitioned request is freed while
 * its sends are on their way (tests/ft_ring.c partlarge).  Patch 0057
 * (5.0.10).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>
#include <mpi-ext.h>

#include "common/qtest.h"

#define COUNT (256 * 1024) /* ints: 1 MiB, above every btl's eager limit */
#define SHORT_TAG 6
#define LONG_TAG  7

int main(int argc, char **argv)
{
    MPI_Request req;
    MPI_Status status;
    int rank, size, cls, rc, flag, value = 5;
    int *buf, freed;

    qt_init(&argc, &argv);
    freed = 1 < argc && 0 == strcmp(argv[1], "freed");
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (2 != size) {
        if (0 == rank) {
            printf("SKIP: needs 2 ranks\n");
        }
        MPI_Finalize();
        return 0;
    }
    buf = calloc(COUNT, sizeof(int));
    QT_CHECK(NULL != buf, "no memory");

    QT_STEP("the short send, the control");
    if (0 == rank) {
        QT_OK(MPI_Send(&value, 1, MPI_INT, 1, SHORT_TAG, MPI_COMM_WORLD));
    } else {
        value = 0;
        QT_OK(MPI_Recv(&value, 1, MPI_INT, 0, SHORT_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        QT_CHECK(5 == value, "the short message carried %d, want 5", value);
    }

    if (0 == rank && freed) {
        QT_STEP("the long send to a receiver that revokes, freed at once");
        QT_OK(MPI_Isend(buf, COUNT, MPI_INT, 1, LONG_TAG, MPI_COMM_WORLD, &req));
        QT_OK(MPI_Request_free(&req));
        QT_CHECK(MPI_REQUEST_NULL == req, "MPI_Request_free left the handle set");
    } else if (0 == rank) {
        QT_STEP("the long send to a receiver that revokes");
        QT_OK(MPI_Isend(buf, COUNT, MPI_INT, 1, LONG_TAG, MPI_COMM_WORLD, &req));
        QT_STEP("MPI_Wait of the long send, its receiver revoked");
        rc = MPI_Wait(&req, &status);
        cls = rc;
        if (MPI_SUCCESS != rc) {
            MPI_Error_class(rc, &cls);
        }
        QT_CHECK(MPIX_ERR_REVOKED == cls,
                 "MPI_Wait of the send its receiver dropped returned class %d, want "
                 "MPIX_ERR_REVOKED %d (the data never arrived)", cls, MPIX_ERR_REVOKED);
    } else {
        QT_STEP("MPI_Probe of the long message");
        QT_OK(MPI_Probe(0, LONG_TAG, MPI_COMM_WORLD, &status));
        QT_STEP("MPIX_Comm_revoke with the long message unreceived");
        QT_OK(MPIX_Comm_revoke(MPI_COMM_WORLD));
    }

    /* with "freed", rank 0 reads rank 1's answer to the long send before
     * the agreement ends: the answer left rank 1 before its revoke */
    QT_STEP("MPIX_Comm_agree on the verdict");
    flag = 0 == qt_failures;
    QT_OK(MPIX_Comm_agree(MPI_COMM_WORLD, &flag));
    if (0 == rank) {
        printf("%s: %d failure(s) here, %s\n", flag ? "OK" : "FAILED", qt_failures,
               flag ? "none on the other rank" : "some rank failed");
        fflush(stdout);
    }
    QT_STEP("MPI_Finalize after the revoke");
    MPI_Finalize();
    /* after MPI_Finalize: a freed send may hold its buffer until then */
    free(buf);
    return flag ? 0 : 1;
}
