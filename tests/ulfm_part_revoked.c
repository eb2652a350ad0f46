/*
 * Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 *
 * Under ULFM (mpirun --with-ft ulfm), a partitioned send whose partitions
 * are already on their way to a live peer must end when the communicator
 * is revoked, as the partitions not yet marked ready do (patch 0035): the
 * peer revoked and will not start its receive again.  Partitions above the
 * eager limit wait for the receiver; part/persist tests them on its own
 * communicator, which no revoke reaches, so the sender's MPI_Wait never
 * returned (stock 5.0.7 and the fork before patch 0043).
 *
 * 3 ranks: a sender (0), its receiver (1), a victim (2).  One exchange of a
 * partitioned request of 4 partitions of 64 KiB pairs 0 and 1; the victim
 * exchanges with itself meanwhile (part/persist's first start duplicates
 * MPI_COMM_WORLD, which needs every process of it).  After a
 * barrier the victim dies; the sender starts its partitioned send at once
 * and marks every partition ready, while the receiver learns of the death
 * (a receive from the victim fails), revokes MPI_COMM_WORLD and never
 * starts its receive again.  The sender's MPI_Wait must return
 * MPIX_ERR_REVOKED (or MPIX_ERR_PROC_FAILED); then both shrink and agree.
 */

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>
#include <mpi-ext.h>

#include "common/qtest.h"

#define PARTS   4
#define COUNT   16384 /* ints per partition: 64 KiB */
#define SENDER   0
#define RECEIVER 1
#define VICTIM   2

static int error_class(int rc)
{
    int cls = rc;
    if (MPI_SUCCESS != rc) {
        MPI_Error_class(rc, &cls);
    }
    return cls;
}

int main(int argc, char **argv)
{
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Comm shrunk;
    int rank, size, cls, total = 0, n, dummy = 0;
    int *buf;

    qt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (3 != size) {
        if (0 == rank) {
            printf("SKIP: needs 3 ranks\n");
        }
        MPI_Finalize();
        return 0;
    }
    buf = calloc(PARTS * COUNT, sizeof(int));
    QT_CHECK(NULL != buf, "no memory");

    QT_STEP("the exchange that pairs the partitioned requests");
    if (SENDER == rank) {
        for (int i = 0; i < PARTS * COUNT; ++i) {
            buf[i] = i;
        }
        QT_OK(MPI_Psend_init(buf, PARTS, COUNT, MPI_INT, RECEIVER, 3, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &req));
    } else if (RECEIVER == rank) {
        QT_OK(MPI_Precv_init(buf, PARTS, COUNT, MPI_INT, SENDER, 3, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &req));
    }
    if (VICTIM == rank) {
        MPI_Request self[2];
        QT_OK(MPI_Psend_init(&dummy, 1, 1, MPI_INT, VICTIM, 5, MPI_COMM_WORLD, MPI_INFO_NULL,
                             &self[0]));
        QT_OK(MPI_Precv_init(buf, 1, 1, MPI_INT, VICTIM, 5, MPI_COMM_WORLD, MPI_INFO_NULL,
                             &self[1]));
        QT_OK(MPI_Startall(2, self));
        QT_OK(MPI_Pready(0, self[0]));
        QT_OK(MPI_Waitall(2, self, MPI_STATUSES_IGNORE));
    } else {
        QT_OK(MPI_Start(&req));
        if (SENDER == rank) {
            QT_OK(MPI_Pready_range(0, PARTS - 1, req));
        }
        QT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        if (RECEIVER == rank) {
            int bad = 0;
            for (int i = 0; i < PARTS * COUNT; ++i) {
                bad += buf[i] != i;
            }
            QT_CHECK(0 == bad, "%d values wrong in the first exchange", bad);
        }
    }

    QT_STEP("the barrier before the failure");
    QT_OK(MPI_Barrier(MPI_COMM_WORLD));
    if (VICTIM == rank) {
        raise(SIGKILL);
    }

    if (SENDER == rank) {
        QT_STEP("the partitioned send started before the revoke");
        QT_OK(MPI_Start(&req));
        QT_OK(MPI_Pready_range(0, PARTS - 1, req));
        QT_STEP("MPI_Wait of the partitioned send, its receiver revoked");
        cls = error_class(MPI_Wait(&req, MPI_STATUS_IGNORE));
        QT_CHECK(MPIX_ERR_REVOKED == cls || MPIX_ERR_PROC_FAILED == cls,
                 "MPI_Wait of the partitioned send returned class %d, want MPIX_ERR_REVOKED %d",
                 cls, MPIX_ERR_REVOKED);
    } else {
        QT_STEP("the receive from the process that died");
        cls = error_class(MPI_Recv(&dummy, 1, MPI_INT, VICTIM, 4, MPI_COMM_WORLD,
                                   MPI_STATUS_IGNORE));
        QT_CHECK(MPIX_ERR_PROC_FAILED == cls,
                 "the receive from the dead process returned class %d, want "
                 "MPIX_ERR_PROC_FAILED %d", cls, MPIX_ERR_PROC_FAILED);
        QT_STEP("MPIX_Comm_revoke");
        QT_OK(MPIX_Comm_revoke(MPI_COMM_WORLD));
    }

    QT_STEP("free of the partitioned request");
    if (MPI_REQUEST_NULL != req) {
        QT_OK(MPI_Request_free(&req));
    }
    QT_STEP("MPIX_Comm_shrink");
    QT_OK(MPIX_Comm_shrink(MPI_COMM_WORLD, &shrunk));
    MPI_Comm_size(shrunk, &n);
    QT_CHECK(2 == n, "the shrunk communicator has %d ranks, want 2", n);
    QT_STEP("verdict on the shrunk communicator");
    QT_OK(MPI_Allreduce(&qt_failures, &total, 1, MPI_INT, MPI_SUM, shrunk));
    MPI_Comm_free(&shrunk);
    if (0 == rank) {
        printf("%s: %d failure(s)\n", 0 == total ? "OK" : "FAILED", total);
        fflush(stdout);
    }
    free(buf);
    QT_STEP("MPI_Finalize after the failure");
    MPI_Finalize();
    return 0 == total ? 0 : 1;
}
