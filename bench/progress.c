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
 * Strong progress benchmark, 2 ranks.  Prints one line:
 *   send_ms=<best time of a 4 MiB MPI_Send while the receiver computes 500 ms>
 *   overlap_pct=<share of the computation the send overlapped>
 *   latency_us=<8-byte ping-pong, half round trip, best of 5 rounds>
 * bench/run-progress.sh runs it with the progress thread off and on.
 */

#include <stdio.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include "bench_util.h"

#define COUNT (1 << 20)
#define COMPUTE_S 0.5
#define ROUNDS 5
#define PINGPONGS 20000

static void compute(double seconds)
{
    double end = bench_now() + seconds;
    while (bench_now() < end) {
    }
}

int main(int argc, char **argv)
{
    static int buf[COUNT];
    double best_send = 1e9, best_lat = 1e9;
    char small[8];
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    memset(small, 0, sizeof(small));

    for (int r = 0; r < ROUNDS; ++r) {
        MPI_Request req;
        MPI_Barrier(MPI_COMM_WORLD);
        if (1 == rank) {
            MPI_Irecv(buf, COUNT, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
            MPI_Barrier(MPI_COMM_WORLD);
            compute(COMPUTE_S);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        } else if (0 == rank) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = bench_now();
            MPI_Send(buf, COUNT, MPI_INT, 1, 0, MPI_COMM_WORLD);
            double t = bench_now() - t0;
            best_send = t < best_send ? t : best_send;
        }
    }

    for (int r = 0; r < ROUNDS; ++r) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = bench_now();
        for (int i = 0; i < PINGPONGS; ++i) {
            if (0 == rank) {
                MPI_Send(small, 8, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
                MPI_Recv(small, 8, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (1 == rank) {
                MPI_Recv(small, 8, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(small, 8, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
            }
        }
        double lat = (bench_now() - t0) / PINGPONGS / 2;
        best_lat = lat < best_lat ? lat : best_lat;
    }

    if (0 == rank) {
        double overlap = 100.0 * (1.0 - best_send / COMPUTE_S);
        printf("send_ms=%.3f overlap_pct=%.1f latency_us=%.3f\n", best_send * 1e3,
               overlap < 0 ? 0.0 : overlap, best_lat * 1e6);
    }
    MPI_Finalize();
    return 0;
}
