/*
 * Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 *
 * Under ULFM (mpirun --with-ft ulfm) over btl tcp, a survivor that sends
 * to a process that died must see the send fail, not die itself.  Linux
 * raises SIGPIPE in a process that writes to a TCP socket whose peer has
 * gone, and the default action of SIGPIPE ends the process: btl tcp asks
 * for no signal on BSD only (SO_NOSIGPIPE), so a survivor died in 1 of 5 to
 * 1 of 12 runs of a partitioned ring (tests/ft_ring.c part over ulfm-ob1tcp,
 * 2026-11-28: exit 141, no message).  Patch 0042 fixes it for every build.
 *
 * Rank 1 dies after one exchange has opened the connection.  Rank 0 waits
 * for the kernel to close the victim's end (the victim's own process ended,
 * nothing of it runs), then starts sends to it without calling MPI's
 * progress in between, so that no failure notice can stop them: the first
 * write goes out and draws a reset, the next one meets the closed socket.
 * Rank 0 must come back from every MPI_Isend and from MPI_Waitall.  A
 * send of 4 bytes is eager: it may complete once it is copied out, before
 * the write that fails, so MPI_Waitall may report the failure or succeed
 * (Open MPI 5.0.7 reported it, 5.0.10 completes the sends first; ULFM asks
 * an error only of an operation that cannot complete).  A receive from the
 * dead process never can: it must fail with MPIX_ERR_PROC_FAILED.
 */

#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include <mpi.h>
#include <mpi-ext.h>

#include "common/qtest.h"

#define VICTIM 1
#define SENDS  64

int main(int argc, char **argv)
{
    MPI_Request reqs[SENDS];
    MPI_Status statuses[SENDS];
    int value = 42, rank, size, started = 0, cls = MPI_SUCCESS, rc;

    qt_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (2 != size) {
        if (0 == rank) {
            printf("SKIP: needs 2 ranks\n");
        }
        MPI_Finalize();
        return 0;
    }

    QT_STEP("the exchange that opens the connection");
    if (0 == rank) {
        QT_OK(MPI_Send(&value, 1, MPI_INT, VICTIM, 0, MPI_COMM_WORLD));
    } else {
        QT_OK(MPI_Recv(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }
    QT_STEP("the barrier before the failure");
    QT_OK(MPI_Barrier(MPI_COMM_WORLD));
    if (VICTIM == rank) {
        raise(SIGKILL);
    }

    /* the victim's end of the socket closes when its process ends; no MPI
     * call meanwhile, so no failure notice reaches the sends below */
    sleep(1);
    QT_STEP("sends to the process that died");
    for (started = 0; started < SENDS; ++started) {
        rc = MPI_Isend(&value, 1, MPI_INT, VICTIM, 1, MPI_COMM_WORLD, &reqs[started]);
        if (MPI_SUCCESS != rc) {
            /* refused once the failure is known: the survivor lives on */
            MPI_Error_class(rc, &cls);
            QT_CHECK(MPIX_ERR_PROC_FAILED == cls,
                     "MPI_Isend %d to the dead process returned class %d, want "
                     "MPIX_ERR_PROC_FAILED %d", started, cls, MPIX_ERR_PROC_FAILED);
            break;
        }
    }
    QT_STEP("MPI_Waitall of the sends to the process that died");
    if (0 < started) {
        rc = MPI_Waitall(started, reqs, statuses);
        MPI_Error_class(rc, &cls);
        QT_CHECK(MPI_SUCCESS == cls || MPIX_ERR_PROC_FAILED == cls || MPI_ERR_IN_STATUS == cls,
                 "MPI_Waitall of %d sends to the dead process returned class %d, want "
                 "MPI_SUCCESS, MPIX_ERR_PROC_FAILED %d or MPI_ERR_IN_STATUS %d", started, cls,
                 MPIX_ERR_PROC_FAILED, MPI_ERR_IN_STATUS);
        for (int i = 0; MPI_ERR_IN_STATUS == cls && i < started; ++i) {
            int scls;
            MPI_Error_class(statuses[i].MPI_ERROR, &scls);
            QT_CHECK(MPI_SUCCESS == scls || MPIX_ERR_PROC_FAILED == scls || MPI_ERR_PENDING == scls,
                     "send %d to the dead process: status class %d", i, scls);
        }
    }
    QT_STEP("a receive from the process that died");
    rc = MPI_Recv(&value, 1, MPI_INT, VICTIM, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Error_class(rc, &cls);
    QT_CHECK(MPIX_ERR_PROC_FAILED == cls,
             "MPI_Recv from the dead process returned class %d, want MPIX_ERR_PROC_FAILED %d",
             cls, MPIX_ERR_PROC_FAILED);

    printf("%s: %d failure(s) (%d send(s) started)\n", 0 == qt_failures ? "OK" : "FAILED",
           qt_failures, started);
    fflush(stdout);
    QT_STEP("MPI_Finalize after the failure");
    MPI_Finalize();
    return 0 == qt_failures ? 0 : 1;
}
