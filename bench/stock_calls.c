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
 * Calls every MPI program makes, timed on one rank so that the same source
 * built against the fork and against stock Open MPI 5.0.7 can be compared
 * (bench/run-stock.sh runs both, interleaved):
 *
 *   send_init   MPI_Send_init + MPI_Request_free (8 bytes, to self)
 *   recv_init   MPI_Recv_init + MPI_Request_free
 *   waitall     MPI_Waitall of 1024 receives that have all completed
 *
 * Prints one line: the best, over rounds, of the nanoseconds per call.
 * Argument: the number of rounds (default 15; bench/callgrind-stock.sh
 * counts instructions over 1).
 */

#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

#define ROUNDS_DEFAULT 15
#define INITS 20000
#define NREQ 1024
#define WAITALLS 50

static double best_of(double a, double b)
{
    return (a < b) ? a : b;
}

int main(int argc, char **argv)
{
    static int rbuf[NREQ], sbuf = 7;
    static MPI_Request reqs[NREQ];
    double t_send = 1e30, t_recv = 1e30, t_wait = 1e30, t0, acc;
    MPI_Request r;
    int flag, rounds = (argc > 1) ? atoi(argv[1]) : ROUNDS_DEFAULT;

    MPI_Init(&argc, &argv);
    for (int round = 0; round < rounds; ++round) {
        t0 = MPI_Wtime();
        for (int i = 0; i < INITS; ++i) {
            MPI_Send_init(&sbuf, 1, MPI_INT, 0, 1, MPI_COMM_SELF, &r);
            MPI_Request_free(&r);
        }
        t_send = best_of(t_send, (MPI_Wtime() - t0) / INITS);

        t0 = MPI_Wtime();
        for (int i = 0; i < INITS; ++i) {
            MPI_Recv_init(rbuf, 1, MPI_INT, 0, 1, MPI_COMM_SELF, &r);
            MPI_Request_free(&r);
        }
        t_recv = best_of(t_recv, (MPI_Wtime() - t0) / INITS);

        acc = 0;
        for (int k = 0; k < WAITALLS; ++k) {
            for (int i = 0; i < NREQ; ++i) {
                MPI_Irecv(&rbuf[i], 1, MPI_INT, 0, 2, MPI_COMM_SELF, &reqs[i]);
            }
            for (int i = 0; i < NREQ; ++i) {
                MPI_Send(&sbuf, 1, MPI_INT, 0, 2, MPI_COMM_SELF);
            }
            /* every receive complete before the timed call */
            for (int i = 0; i < NREQ; ++i) {
                do {
                    MPI_Request_get_status(reqs[i], &flag, MPI_STATUS_IGNORE);
                } while (!flag);
            }
            t0 = MPI_Wtime();
            MPI_Waitall(NREQ, reqs, MPI_STATUSES_IGNORE);
            acc += MPI_Wtime() - t0;
        }
        t_wait = best_of(t_wait, acc / WAITALLS);
    }
    printf("send_init %.1f recv_init %.1f waitall %.1f\n", t_send * 1e9, t_recv * 1e9,
           t_wait * 1e9);
    MPI_Finalize();
    return 0;
}
