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
 * Reproducer, for stock Open MPI 5.0.7 over pml cm and mtl ofi, of why
 * tests/tests.list runs queue_ops' pml-channel lines on libfabric's sockets
 * provider only: with the tcp provider (libfabric 1.17), after a receive
 * that is truncated (two ints sent into a buffer of one), the next receive
 * from the same peer never completes.  Plain persistent requests, nothing
 * of this fork.  Run it with
 *   mpirun -n 2 --mca pml cm --mca mtl ofi --mca opal_common_ofi_provider_include tcp ./ofi_truncation
 * (prints "TIMEOUT ..." after 20 s) and with "sockets" instead of tcp
 * (prints "OK"), or with --mca pml ob1 (prints "OK").
 */

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <mpi.h>

static const char *volatile step = "init";

static void on_alarm(int sig)
{
    char line[160];
    int len = snprintf(line, sizeof(line), "TIMEOUT: step \"%s\" did not finish\n", step);

    (void) sig;
    (void) write(2, line, (size_t) len);
    _exit(124);
}

int main(int argc, char **argv)
{
    int rank, small = -1, after = -1, out[2] = {4, 4}, five = 5, cls;
    MPI_Request req[2];

    signal(SIGALRM, on_alarm);
    alarm(20);
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (0 == rank) {
        MPI_Send_init(out, 2, MPI_INT, 1, 8, MPI_COMM_WORLD, &req[0]);
        MPI_Send_init(&five, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, &req[1]);
        step = "the sends";
        MPI_Startall(2, req);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    } else {
        MPI_Recv_init(&small, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, &req[0]);
        MPI_Recv_init(&after, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, &req[1]);
        step = "the truncated receive";
        MPI_Start(&req[0]);
        MPI_Error_class(MPI_Wait(&req[0], MPI_STATUS_IGNORE), &cls);
        if (MPI_ERR_TRUNCATE != cls) {
            printf("FAIL: the first receive has class %d, not MPI_ERR_TRUNCATE\n", cls);
        }
        step = "the receive after the truncated one";
        MPI_Start(&req[1]);
        MPI_Wait(&req[1], MPI_STATUS_IGNORE);
        if (5 != after) {
            printf("FAIL: the second receive got %d\n", after);
        }
    }
    MPI_Request_free(&req[0]);
    MPI_Request_free(&req[1]);
    step = "MPI_Finalize";
    MPI_Finalize();
    if (1 == rank) {
        printf("OK\n");
    }
    return 0;
}
