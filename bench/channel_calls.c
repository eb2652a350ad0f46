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
 * Instructions of a persistent 8-byte ping-pong, for callgrind
 * (bench/callgrind-channels.sh): ranks 0 and 1 exchange 8 bytes ITERS
 * times with MPI_Start/MPI_Wait on a persistent send and receive; rank 0
 * runs the loop in pingpong() so that callgrind gives its inclusive count
 * (less await_reply's, see exchange()).  The ranks share a node.
 * argv[1]: "plain" (persistent requests as MPI has them), "matched" (the
 * same requests after MPI_Matchall, on the channel the match framework
 * chose), or "queued" (rank 0's matched starts and waits enqueued on a
 * default queue, fenced once an iteration).  Builds against stock Open MPI
 * too (plain only).
 */

#include <stdio.h>
#include <string.h>

#include <mpi.h>

#define ITERS 2000

static volatile int *replied;   /* rank 0's flag in a shared window */
#ifdef MPI_QUEUE_NULL
static MPI_Queue queue = MPI_QUEUE_NULL;  /* "queued": rank 0's queue */
#endif

/* rank 0 waits, outside MPI, until rank 1 says that it started its reply; its
 * instructions are subtracted from pingpong's (callgrind-channels.sh) */
static __attribute__((noinline)) void await_reply(int i)
{
    while (*replied < i) {
    }
}

/* the same for the warm-up, under another name */
static __attribute__((noinline)) void await_reply_warmup(int i)
{
    while (*replied < i) {
    }
}

/* rank 0 starts its receive and its send, and waits for either only once
 * rank 1 has received and started the reply, so that its count holds no
 * polling for a message or an acknowledgement still on its way (which
 * would depend on the machine's load) */
static inline void exchange(MPI_Request *req, int rank, int iters, int *seq, void (*await)(int))
{
    for (int i = 0; i < iters; ++i) {
        ++*seq;
        if (0 == rank) {
#ifdef MPI_QUEUE_NULL
            if (MPI_QUEUE_NULL != queue) {
                MPI_Enqueue_start(&queue, &req[1]);
                MPI_Enqueue_start(&queue, &req[0]);
                await(*seq);
                MPI_Enqueue_wait(&queue, &req[0], MPI_STATUS_IGNORE);
                MPI_Enqueue_wait(&queue, &req[1], MPI_STATUS_IGNORE);
                MPI_Queue_fence(&queue);
                continue;
            }
#endif
            MPI_Start(&req[1]);
            MPI_Start(&req[0]);
            await(*seq);
            MPI_Wait(&req[0], MPI_STATUS_IGNORE);
            MPI_Wait(&req[1], MPI_STATUS_IGNORE);
        } else {
            MPI_Start(&req[1]);
            MPI_Wait(&req[1], MPI_STATUS_IGNORE);
            MPI_Start(&req[0]);
            /* the start put the 8 bytes in rank 0's memory (eager or
             * channel); the send's completion may wait for rank 0 */
            *replied = *seq;
            MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        }
    }
}

/* connection set-up and first-use costs, outside the counted function */
static __attribute__((noinline)) void warmup(MPI_Request *req, int rank, int *seq)
{
    exchange(req, rank, 100, seq, await_reply_warmup);
}

static __attribute__((noinline)) void pingpong(MPI_Request *req, int rank, int *seq)
{
    exchange(req, rank, ITERS, seq, await_reply);
}

int main(int argc, char **argv)
{
    char sbuf[8] = {0}, rbuf[8];
    MPI_Request req[2];
    MPI_Aint wsize;
    MPI_Win win;
    int *base, disp, seq = 0;
    int rank, queued = (argc > 1 && 0 == strcmp(argv[1], "queued"));
    int matched = queued || (argc > 1 && 0 == strcmp(argv[1], "matched"));

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate_shared(0 == rank ? sizeof(int) : 0, sizeof(int), MPI_INFO_NULL,
                            MPI_COMM_WORLD, &base, &win);
    MPI_Win_shared_query(win, 0, &wsize, &disp, &base);
    replied = base;
    *replied = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Send_init(sbuf, 8, MPI_BYTE, 1 - rank, 5, MPI_COMM_WORLD, &req[0]);
    MPI_Recv_init(rbuf, 8, MPI_BYTE, 1 - rank, 5, MPI_COMM_WORLD, &req[1]);
    if (matched) {
#ifdef MPI_QUEUE_NULL
        MPI_Matchall(2, req);
        if (queued && 0 == rank) {
            MPI_Queue_init(&queue, MPI_QUEUE_TYPE_DEFAULT, NULL);
        }
#else
        if (0 == rank) {
            fprintf(stderr, "this MPI has no MPI_Matchall\n");
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
#endif
    }
    warmup(req, rank, &seq);
    MPI_Barrier(MPI_COMM_WORLD);
    pingpong(req, rank, &seq);
#ifdef MPI_QUEUE_NULL
    if (MPI_QUEUE_NULL != queue) {
        MPI_Queue_free(&queue);
    }
#endif
    MPI_Request_free(&req[0]);
    MPI_Request_free(&req[1]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
