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
 * Reproducer, for stock Open MPI 5.0.7, of a failure that
 * tests/known-stock-failures.txt listed until patch 0056 fixed its cause
 * (PMIx fences that pair the wrong calls): three
 * MPI_Session_init/finalize cycles over pml/ucx, or over ob1 with btl/sm
 * on a loaded machine.  Uses nothing of this fork.  Run it many times, e.g.
 *   for i in $(seq 40); do mpirun -n 2 --mca pml ucx ./sessions_reinit; done
 *   for i in $(seq 100); do mpirun -n 2 --mca pml ob1 --mca btl self,sm ./sessions_reinit; done
 * (the second with busy loops on every core)
 */

#include <stdio.h>

#include <mpi.h>

int main(void)
{
    for (int cycle = 0; cycle < 3; ++cycle) {
        MPI_Session session;
        int rc = MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session);
        if (MPI_SUCCESS != rc) {
            printf("FAIL: MPI_Session_init returned %d in cycle %d\n", rc, cycle);
            return 1;
        }
        MPI_Session_finalize(&session);
    }
    printf("OK\n");
    return 0;
}
