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
 * Partitioned bandwidth against a plain persistent send of the same bytes,
 * ranks 0 (sender) and 1 (receiver), measured in the same run and
 * interleaved round by round:
 *   plain     MPI_Send_init/MPI_Recv_init of 1 MiB of MPI_BYTE
 *   inorder   MPI_Psend_init/MPI_Precv_init, 16 partitions of 64 KiB,
 *             MPI_Pready 0, 1, ..., 15
 *   reversed  the same, MPI_Pready 15, 14, ..., 0
 * Each round sends ITERS messages one after the other (the receiver starts
 * the next receive once the last completed; a zero-byte reply closes the
 * round).  Prints the median over rounds of each bandwidth and of each
 * round's partitioned/plain ratio, and the messages whose data was wrong
 * (the first int of every partition carries the iteration).  Only MPI-4.0
 * calls: the same source builds against stock Open MPI 5.0.7.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "bench_util.h"

#define ROUNDS 9
#define ITERS 100
#define PARTS 16
#define PART_BYTES (64 << 10)
#define BYTES (PARTS * PART_BYTES)

enum { PLAIN, INORDER, REVERSED, NVARIANTS };
static const char *const variant_name[NVARIANTS] = {"plain", "inorder", "reversed"};
static int rank;
static long bad;

static void mark(char *buf, int iter)
{
    for (int p = 0; p < PARTS; ++p) {
        memcpy(buf + (size_t) p * PART_BYTES, &iter, sizeof(iter));
    }
}

static void verify(const char *buf, int iter)
{
    for (int p = 0; p < PARTS; ++p) {
        int got;

        memcpy(&got, buf + (size_t) p * PART_BYTES, sizeof(got));
        if (got != iter) {
            ++bad;
            return;
        }
    }
}

/* seconds for ITERS messages of one variant */
static double one_round(int variant, MPI_Request req, char *buf, int round)
{
    double t0;

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = bench_now();
    for (int i = 0; i < ITERS; ++i) {
        int iter = round * ITERS + i;

        if (0 == rank) {
            mark(buf, iter);
            MPI_Start(&req);
            if (INORDER == variant) {
                for (int p = 0; p < PARTS; ++p) {
                    MPI_Pready(p, req);
                }
            } else if (REVERSED == variant) {
                for (int p = PARTS - 1; p >= 0; --p) {
                    MPI_Pready(p, req);
                }
            }
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        } else {
            MPI_Start(&req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            verify(buf, iter);
        }
    }
    if (0 == rank) {
        MPI_Recv(NULL, 0, MPI_BYTE, 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Send(NULL, 0, MPI_BYTE, 0, 99, MPI_COMM_WORLD);
    }
    return bench_now() - t0;
}

int main(int argc, char **argv)
{
    double bw[NVARIANTS][ROUNDS], ratio[NVARIANTS][ROUNDS];
    MPI_Request req[NVARIANTS];
    char *buf[NVARIANTS];
    int size;
    long all_bad = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (2 != size) {
        if (0 == rank) {
            fprintf(stderr, "part_bw: run on 2 ranks\n");
        }
        MPI_Finalize();
        return 1;
    }
    for (int v = 0; v < NVARIANTS; ++v) {
        buf[v] = malloc(BYTES);
        if (NULL == buf[v]) {
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        memset(buf[v], 0, BYTES);
    }
    /* every request made before the first round: the partitioned pairs
     * set themselves up in the first rounds' progress, not in the timing
     * of one variant alone */
    if (0 == rank) {
        MPI_Send_init(buf[PLAIN], BYTES, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &req[PLAIN]);
        MPI_Psend_init(buf[INORDER], PARTS, PART_BYTES, MPI_BYTE, 1, 2, MPI_COMM_WORLD,
                       MPI_INFO_NULL, &req[INORDER]);
        MPI_Psend_init(buf[REVERSED], PARTS, PART_BYTES, MPI_BYTE, 1, 3, MPI_COMM_WORLD,
                       MPI_INFO_NULL, &req[REVERSED]);
    } else {
        MPI_Recv_init(buf[PLAIN], BYTES, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &req[PLAIN]);
        MPI_Precv_init(buf[INORDER], PARTS, PART_BYTES, MPI_BYTE, 0, 2, MPI_COMM_WORLD,
                       MPI_INFO_NULL, &req[INORDER]);
        MPI_Precv_init(buf[REVERSED], PARTS, PART_BYTES, MPI_BYTE, 0, 3, MPI_COMM_WORLD,
                       MPI_INFO_NULL, &req[REVERSED]);
    }
    /* a warm-up round of each, not counted */
    for (int v = 0; v < NVARIANTS; ++v) {
        (void) one_round(v, req[v], buf[v], ROUNDS);
    }
    for (int r = 0; r < ROUNDS; ++r) {
        for (int v = 0; v < NVARIANTS; ++v) {
            bw[v][r] = (double) BYTES * ITERS / one_round(v, req[v], buf[v], r) / 1e9;
        }
        for (int v = 0; v < NVARIANTS; ++v) {
            ratio[v][r] = bw[v][r] / bw[PLAIN][r];
        }
    }
    MPI_Reduce(&bad, &all_bad, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("part_bw: %d partitions of %d KiB against one %d MiB persistent send, "
               "%d rounds of %d messages (median)\n",
               PARTS, PART_BYTES >> 10, BYTES >> 20, ROUNDS, ITERS);
        for (int v = 0; v < NVARIANTS; ++v) {
            printf("  %-9s %7.2f GB/s   /plain %.3f\n", variant_name[v],
                   bench_median(bw[v], ROUNDS), bench_median(ratio[v], ROUNDS));
        }
        printf("  messages with wrong data: %ld\n", all_bad);
    }
    for (int v = 0; v < NVARIANTS; ++v) {
        MPI_Request_free(&req[v]);
        free(buf[v]);
    }
    MPI_Finalize();
    return 0;
}
