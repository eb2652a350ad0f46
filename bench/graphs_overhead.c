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
 * Cost of the MPIX graphs and streams machinery against plain MPI, rank 0
 * sending 8 bytes to rank 1 (which receives with MPI_Recv in every variant):
 *   stream:   64 sends made as 64 tokens (MPIX_Send_def) enqueued on an
 *             MPIX stream, then MPIX_Stream_sync   vs   64 MPI_Send
 *   iexecute: MPIX_Iexecute of a one-send token + MPI_Wait
 *             vs   MPI_Isend + MPI_Wait
 * A round of each variant ends with a zero-byte reply so that the sender
 * cannot run ahead.  Variants alternate round by round; prints the best time
 * per message of each, the ratios of the bests, and the median of the
 * per-round ratios (steadier on a shared machine).
 * argv[1] "callgrind": one round of each (50 batches: past the warm-up of
 * the token and request caches), for the
 * instruction counts of batch_send, batch_stream, batch_isend and
 * batch_iexecute under callgrind (bench/run-graphs.sh does it).
 */

#include <stdio.h>
#include <string.h>
#include <time.h>

#include <mpi.h>
#include <mpi-ext.h>

#include "bench_util.h"

#define BATCH 64
#define ITERS 1000
#define ROUNDS 15

/* The four variants of a batch, as separate functions so that callgrind
 * gives each its own inclusive instruction count. */
static __attribute__((noinline)) void batch_send(char *buf)
{
    for (int k = 0; k < BATCH; ++k) {
        MPI_Send(buf, 8, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
    }
}

static __attribute__((noinline)) void batch_stream(char *buf, MPIX_Stream s)
{
    MPIX_Token t;
    for (int k = 0; k < BATCH; ++k) {
        MPIX_Send_def(buf, 8, MPI_CHAR, 1, 1, MPI_COMM_WORLD, &t);
        MPIX_Stream_enqueue(s, &t);
    }
    MPIX_Stream_sync(s);
}

static __attribute__((noinline)) void batch_isend(char *buf)
{
    MPI_Request req;
    for (int k = 0; k < BATCH; ++k) {
        MPI_Isend(buf, 8, MPI_CHAR, 1, 1, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
}

static __attribute__((noinline)) void batch_iexecute(MPIX_Token tok)
{
    MPI_Request req;
    for (int k = 0; k < BATCH; ++k) {
        MPIX_Iexecute(tok, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
}

/* mode 0: MPI_Send x64; 1: 64 tokens on a stream; 2: MPI_Isend+Wait x64;
 * 3: MPIX_Iexecute+Wait x64 (one token made once) */
static double run(int mode, int rank, int iters, MPIX_Stream s, MPIX_Token tok, char *buf)
{
    char rbuf[8];
    double t0;

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = bench_now();
    for (int i = 0; i < iters; ++i) {
        if (0 == rank) {
            switch (mode) {
            case 0:
                batch_send(buf);
                break;
            case 1:
                batch_stream(buf, s);
                break;
            case 2:
                batch_isend(buf);
                break;
            default:
                batch_iexecute(tok);
                break;
            }
            MPI_Recv(rbuf, 0, MPI_CHAR, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (1 == rank) {
            for (int k = 0; k < BATCH; ++k) {
                MPI_Recv(rbuf, 8, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
            MPI_Send(rbuf, 0, MPI_CHAR, 0, 2, MPI_COMM_WORLD);
        }
    }
    return (bench_now() - t0) / iters / BATCH;
}

int main(int argc, char **argv)
{
    double best[4] = {1e9, 1e9, 1e9, 1e9}, ratio_s[ROUNDS], ratio_i[ROUNDS];
    char buf[8] = {0};
    MPIX_Stream s;
    MPIX_Token tok;
    int rank, callgrind = (argc > 1 && 0 == strcmp(argv[1], "callgrind"));
    int rounds = callgrind ? 1 : ROUNDS, iters = callgrind ? 50 : ITERS;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPIX_Stream_create(MPI_SESSION_NULL, MPI_INFO_NULL, MPIX_LOC_INPLACE, NULL, &s);
    MPIX_Send_def(buf, 8, MPI_CHAR, 1, 1, MPI_COMM_WORLD, &tok);
    for (int r = 0; r < rounds; ++r) {
        double t[4];
        for (int m = 0; m < 4; ++m) {
            t[m] = run(m, rank, iters, s, tok, buf);
            best[m] = t[m] < best[m] ? t[m] : best[m];
        }
        ratio_s[r] = t[1] / t[0];
        ratio_i[r] = t[3] / t[2];
    }
    if (0 == rank) {
        printf("send_us=%.3f stream_tokens_us=%.3f ratio_stream=%.3f median_ratio_stream=%.3f "
               "isend_wait_us=%.3f iexecute_wait_us=%.3f ratio_iexecute=%.3f "
               "median_ratio_iexecute=%.3f\n",
               best[0] * 1e6, best[1] * 1e6, best[1] / best[0], bench_median(ratio_s, rounds),
               best[2] * 1e6, best[3] * 1e6, best[3] / best[2], bench_median(ratio_i, rounds));
    }
    MPIX_Token_free(&tok);
    MPIX_Stream_free(&s);
    MPI_Finalize();
    return 0;
}
