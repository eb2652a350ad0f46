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
 * Matched-request channels against plain persistent requests, ranks 0 and
 * 1, every figure measured in the same run, interleaved round by round:
 *   pp     8-byte ping-pong, MPI_Start/MPI_Wait: plain, matched
 *   queue  the matched ping-pong all enqueued on a default queue (one fence)
 *   floor  a flag ping-pong through a shared window (no MPI call in the loop)
 *   bw     ping-pong bandwidth at 1 MiB and 16 MiB: plain, matched
 *   rate   a window of 64 8-byte sends (MPI_Startall/MPI_Waitall, one
 *          8-byte reply per window): plain, matched
 * Prints the median over rounds of each time and of each round's ratio.
 * The channel of the matched requests is whatever the match framework
 * chose (run with --mca match pml to measure the pml channel).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include "bench_util.h"

#define ROUNDS 11
#define PP_ITERS 20000
#define WINDOW 64
#define RATE_ITERS 2000
#define NBW 2

static const int bw_size[NBW] = {1 << 20, 16 << 20};
static const int bw_iters[NBW] = {200, 16};
static int rank, peer;

/* half round trip of a ping-pong on a send and a receive request */
static double pingpong(MPI_Request *send, MPI_Request *recv, int iters, MPI_Queue *q)
{
    MPI_Request *first = (0 == rank) ? send : recv, *second = (0 == rank) ? recv : send;
    double t0;

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = bench_now();
    for (int i = 0; i < iters; ++i) {
        if (NULL == q) {
            MPI_Start(first);
            MPI_Wait(first, MPI_STATUS_IGNORE);
            MPI_Start(second);
            MPI_Wait(second, MPI_STATUS_IGNORE);
        } else {
            MPI_Enqueue_start(q, first);
            MPI_Enqueue_wait(q, first, MPI_STATUS_IGNORE);
            MPI_Enqueue_start(q, second);
            MPI_Enqueue_wait(q, second, MPI_STATUS_IGNORE);
        }
    }
    if (NULL != q) {
        MPI_Queue_fence(q);
    }
    return (bench_now() - t0) / iters / 2;
}

/* the floor: the same two processes pass a flag through shared memory */
static double flag_pingpong(volatile int *flag)
{
    double t0;

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = bench_now();
    for (int i = 0; i < PP_ITERS; ++i) {
        if (0 == rank) {
            __atomic_store_n(flag, 2 * i + 1, __ATOMIC_RELEASE);
            while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) != 2 * i + 2) {
            }
        } else {
            while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) != 2 * i + 1) {
            }
            __atomic_store_n(flag, 2 * i + 2, __ATOMIC_RELEASE);
        }
    }
    return (bench_now() - t0) / PP_ITERS / 2;
}

/* messages per second of rank 0's windows */
static double rate(MPI_Request *win, MPI_Request *reply)
{
    double t0;

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = bench_now();
    for (int i = 0; i < RATE_ITERS; ++i) {
        MPI_Startall(WINDOW, win);
        MPI_Waitall(WINDOW, win, MPI_STATUSES_IGNORE);
        MPI_Start(reply);
        MPI_Wait(reply, MPI_STATUS_IGNORE);
    }
    return (double) WINDOW * RATE_ITERS / (bench_now() - t0);
}

static void make_pair(void *sbuf, void *rbuf, int count, int tag, MPI_Request *req, int match)
{
    MPI_Send_init(sbuf, count, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &req[0]);
    MPI_Recv_init(rbuf, count, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &req[1]);
    if (match) {
        MPI_Matchall(2, req);
    }
}

static void make_window(char *sbuf, char *rbuf, int tag, MPI_Request *win, MPI_Request *reply,
                        int match)
{
    for (int i = 0; i < WINDOW; ++i) {
        if (0 == rank) {
            MPI_Send_init(sbuf + 8 * i, 8, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &win[i]);
        } else {
            MPI_Recv_init(rbuf + 8 * i, 8, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &win[i]);
        }
    }
    if (0 == rank) {
        MPI_Recv_init(rbuf, 8, MPI_BYTE, peer, tag + 1, MPI_COMM_WORLD, reply);
    } else {
        MPI_Send_init(sbuf, 8, MPI_BYTE, peer, tag + 1, MPI_COMM_WORLD, reply);
    }
    if (match) {
        MPI_Matchall(WINDOW, win);
        MPI_Match(reply);
    }
}

int main(int argc, char **argv)
{
    double t_pp[2][ROUNDS], t_q[ROUNDS], t_floor[ROUNDS], t_bw[NBW][2][ROUNDS], t_rate[2][ROUNDS];
    double r_pp[ROUNDS], r_q[ROUNDS], r_floor[ROUNDS], r_bw[NBW][ROUNDS], r_rate[ROUNDS];
    MPI_Request pp[2][2], bw[NBW][2][2], win[2][WINDOW], reply[2];
    char sbuf[8 * WINDOW] = {0}, rbuf[8 * WINDOW];
    char *big_s, *big_r;
    MPI_Comm node;
    MPI_Win shwin;
    volatile int *flag;
    MPI_Queue q;
    MPI_Aint wsize;
    int wdisp, size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (2 != size) {
        if (0 == rank) {
            fprintf(stderr, "run on 2 ranks\n");
        }
        MPI_Finalize();
        return 1;
    }
    peer = 1 - rank;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Win_allocate_shared(0 == rank ? 64 : 0, 1, MPI_INFO_NULL, node, (void *) &flag, &shwin);
    MPI_Win_shared_query(shwin, 0, &wsize, &wdisp, (void *) &flag);
    *flag = 0;
    MPI_Barrier(MPI_COMM_WORLD);

    big_s = calloc(1, bw_size[NBW - 1]);
    big_r = calloc(1, bw_size[NBW - 1]);
    MPI_Queue_init(&q, MPI_QUEUE_TYPE_DEFAULT, NULL);
    for (int m = 0; m < 2; ++m) {
        make_pair(sbuf, rbuf, 8, 10 + m, pp[m], m);
        for (int b = 0; b < NBW; ++b) {
            make_pair(big_s, big_r, bw_size[b], 20 + 2 * b + m, bw[b][m], m);
        }
        make_window(sbuf, rbuf, 30 + 2 * m, win[m], &reply[m], m);
    }

    for (int r = 0; r < ROUNDS; ++r) {
        for (int m = 0; m < 2; ++m) {
            t_pp[m][r] = pingpong(&pp[m][0], &pp[m][1], PP_ITERS, NULL);
        }
        t_q[r] = pingpong(&pp[1][0], &pp[1][1], PP_ITERS, &q);
        t_floor[r] = flag_pingpong(flag);
        for (int b = 0; b < NBW; ++b) {
            for (int m = 0; m < 2; ++m) {
                t_bw[b][m][r] = bw_size[b] / pingpong(&bw[b][m][0], &bw[b][m][1], bw_iters[b],
                                                      NULL) / 1e9;
            }
            r_bw[b][r] = t_bw[b][1][r] / t_bw[b][0][r];
        }
        for (int m = 0; m < 2; ++m) {
            t_rate[m][r] = rate(win[m], &reply[m]);
        }
        r_pp[r] = t_pp[1][r] / t_pp[0][r];
        r_q[r] = t_q[r] / t_pp[0][r];
        r_floor[r] = t_pp[1][r] / t_floor[r];
        r_rate[r] = t_rate[1][r] / t_rate[0][r];
    }

    if (0 == rank) {
        printf("pingpong_8B_us plain=%.3f matched=%.3f queued=%.3f floor=%.3f\n",
               bench_median(t_pp[0], ROUNDS) * 1e6, bench_median(t_pp[1], ROUNDS) * 1e6,
               bench_median(t_q, ROUNDS) * 1e6, bench_median(t_floor, ROUNDS) * 1e6);
        printf("ratio matched/plain=%.3f queued/plain=%.3f matched/floor=%.2f\n",
               bench_median(r_pp, ROUNDS), bench_median(r_q, ROUNDS), bench_median(r_floor, ROUNDS));
        for (int b = 0; b < NBW; ++b) {
            printf("bandwidth_%dMiB_GBps plain=%.2f matched=%.2f ratio=%.3f\n", bw_size[b] >> 20,
                   bench_median(t_bw[b][0], ROUNDS), bench_median(t_bw[b][1], ROUNDS),
                   bench_median(r_bw[b], ROUNDS));
        }
        printf("rate_w64_8B_Mmsgs plain=%.2f matched=%.2f ratio=%.3f\n",
               bench_median(t_rate[0], ROUNDS) / 1e6, bench_median(t_rate[1], ROUNDS) / 1e6,
               bench_median(r_rate, ROUNDS));
    }

    for (int m = 0; m < 2; ++m) {
        MPI_Request_free(&pp[m][0]);
        MPI_Request_free(&pp[m][1]);
        for (int b = 0; b < NBW; ++b) {
            MPI_Request_free(&bw[b][m][0]);
            MPI_Request_free(&bw[b][m][1]);
        }
        for (int i = 0; i < WINDOW; ++i) {
            MPI_Request_free(&win[m][i]);
        }
        MPI_Request_free(&reply[m]);
    }
    MPI_Queue_free(&q);
    MPI_Win_free(&shwin);
    MPI_Comm_free(&node);
    free(big_s);
    free(big_r);
    MPI_Finalize();
    return 0;
}
