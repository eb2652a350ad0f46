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
 * Reproducer, for stock Open MPI 5.0.7, of the Sessions re-initialization
 * failure of tests/graphs_sessions.c with that test's MPI pattern and
 * nothing of this fork: three cycles of MPI_Session_init, a communicator
 * from the WORLD pset's group (PMIx_Group_construct and _destruct), an
 * allreduce, the frees and MPI_Session_finalize.  On a loaded machine a
 * later cycle's init can fail (btl/sm: open(2) ENOENT on the peer's segment,
 * MPI_Session_init returns MPI_ERR_INTERN).  Run it many times beside busy
 * loops, e.g.
 *   for i in $(seq 400); do timeout 30 mpirun -n 2 --mca pml ob1 --mca btl self,sm ./sessions_reinit_group; done
 * (2026-11-24: 3 of 400 failed that way with two busy loops on 2 cores.)
 */

#include <stdio.h>

#include <mpi.h>

int main(void)
{
    for (int cycle = 0; cycle < 3; ++cycle) {
        MPI_Session session;
        MPI_Group group;
        MPI_Comm comm;
        int one = 1, sum = 0;
        int rc = MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session);

        if (MPI_SUCCESS != rc) {
            printf("FAIL: MPI_Session_init returned %d in cycle %d\n", rc, cycle);
            return 1;
        }
        MPI_Group_from_session_pset(session, "mpi://WORLD", &group);
        rc = MPI_Comm_create_from_group(group, "org.example.reinit", MPI_INFO_NULL,
                                        MPI_ERRORS_RETURN, &comm);
        if (MPI_SUCCESS == rc) {
            MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, comm);
            MPI_Comm_free(&comm);
        }
        MPI_Group_free(&group);
        MPI_Session_finalize(&session);
    }
    printf("OK\n");
    return 0;
}
