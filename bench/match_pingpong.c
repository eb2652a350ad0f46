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
 * 8-byte ping-pong between ranks 0 and 1 with persistent requests started
 * by MPI_Start / MPI_Wait: plain (unmatched) requests and matched requests,
 * interleaved round by round in one run.  Prints the best half round trip
 * of each and their ratio (matched / plain).
 */

#include <stdio.h>
#include <time.h>

#include <mpi.h>

#include "bench_util.h"

#define ITERS 20000
#define ROUNDS 7

static double pingpong(MPI_Request *send, MPI_Request *recv, int rank)
{
    double t0;

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = bench_now();
    for (int i = 0; i < ITERS; ++i) {
        if (0 == rank) {
            MPI_Start(send);
            MPI_Wait(send, MPI_STATUS_IGNORE);
            MPI_Start(recv);
            MPI_Wait(recv, MPI_STATUS_IGNORE);
        } else {
            MPI_Start(recv);
            MPI_Wait(recv, MPI_STATUS_IGNORE);
            MPI_Start(send);
            MPI_Wait(send, MPI_STATUS_IGNORE);
        }
    }
    return (bench_now() - t0) / ITERS / 2;
}

int main(int argc, char **argv)
{
    char sbuf[8] = {0}, rbuf[8];
    MPI_Request plain[2], matched[2];
    double best_plain = 1e9, best_matched = 1e9;
    int rank, peer;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    peer = 1 - rank;
    if (rank < 2) {
        MPI_Send_init(sbuf, 8, MPI_CHAR, peer, 1, MPI_COMM_WORLD, &plain[0]);
        MPI_Recv_init(rbuf, 8, MPI_CHAR, peer, 1, MPI_COMM_WORLD, &plain[1]);
        MPI_Send_init(sbuf, 8, MPI_CHAR, peer, 2, MPI_COMM_WORLD, &matched[0]);
        MPI_Recv_init(rbuf, 8, MPI_CHAR, peer, 2, MPI_COMM_WORLD, &matched[1]);
        MPI_Matchall(2, matched);
        for (int r = 0; r < ROUNDS; ++r) {
            double p = pingpong(&plain[0], &plain[1], rank);
            double m = pingpong(&matched[0], &matched[1], rank);
            best_plain = p < best_plain ? p : best_plain;
            best_matched = m < best_matched ? m : best_matched;
        }
        for (int i = 0; i < 2; ++i) {
            MPI_Request_free(&plain[i]);
            MPI_Request_free(&matched[i]);
        }
    }
    if (0 == rank) {
        printf("plain_us=%.3f matched_us=%.3f ratio=%.3f\n", best_plain * 1e6, best_matched * 1e6,
               best_matched / best_plain);
    }
    MPI_Finalize();
    return 0;
}
