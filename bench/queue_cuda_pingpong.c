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
 * Stream-ordered ping-pong between ranks 0 and 1 sharing a GPU. Each
 * iteration, stream work produces the message (a device memset copied to
 * pinned host memory) and consumes the received one (a copy back to the
 * device):
 *   (a) produce -> cuStreamSynchronize -> MPI_Send / MPI_Recv -> consume
 *   (b) produce -> enqueued send / receive on a CUDA stream queue -> consume,
 *       no host synchronization; one fence and one synchronize at the end
 * interleaved round by round; and the floor of (b): the bare memory-operation
 * round trip (the stream writes a counter, the host sees it and writes
 * another, the stream waits for it), on rank 0 alone.
 * Prints the best time per half round trip of each, the ratio (b)/(a), and
 * the GPU model. Without a CUDA device it prints SKIP.
 * The driver API is loaded with dlopen, so this builds with mpicc alone.
 */

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include "bench_util.h"

#define N 256
#define ITERS 2000
#define ROUNDS 5

typedef int CUresult_t;
typedef void *CUstream_t;
typedef unsigned long long CUdptr_t;

static struct {
    CUresult_t (*init)(unsigned);
    CUresult_t (*device_get)(int *, int);
    CUresult_t (*device_get_name)(char *, int, int);
    CUresult_t (*primary_ctx_retain)(void **, int);
    CUresult_t (*ctx_set_current)(void *);
    CUresult_t (*stream_create)(CUstream_t *, unsigned);
    CUresult_t (*stream_synchronize)(CUstream_t);
    CUresult_t (*mem_alloc)(CUdptr_t *, size_t);
    CUresult_t (*mem_host_alloc)(void **, size_t, unsigned);
    CUresult_t (*mem_host_get_device_pointer)(CUdptr_t *, void *, unsigned);
    CUresult_t (*memset_d32_async)(CUdptr_t, unsigned, size_t, CUstream_t);
    CUresult_t (*memcpy_dtoh_async)(void *, CUdptr_t, size_t, CUstream_t);
    CUresult_t (*memcpy_htod_async)(CUdptr_t, const void *, size_t, CUstream_t);
    CUresult_t (*stream_write_value64)(CUstream_t, CUdptr_t, uint64_t, unsigned);
    CUresult_t (*stream_wait_value64)(CUstream_t, CUdptr_t, uint64_t, unsigned);
} cu;

static char gpu_name[128] = "unknown";

static int load_driver(void)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW);
    struct {
        const char *name;
        void **fn;
    } syms[] = {
        {"cuInit", (void **) &cu.init},
        {"cuDeviceGet", (void **) &cu.device_get},
        {"cuDeviceGetName", (void **) &cu.device_get_name},
        {"cuDevicePrimaryCtxRetain", (void **) &cu.primary_ctx_retain},
        {"cuCtxSetCurrent", (void **) &cu.ctx_set_current},
        {"cuStreamCreate", (void **) &cu.stream_create},
        {"cuStreamSynchronize", (void **) &cu.stream_synchronize},
        {"cuMemAlloc_v2", (void **) &cu.mem_alloc},
        {"cuMemHostAlloc", (void **) &cu.mem_host_alloc},
        {"cuMemHostGetDevicePointer_v2", (void **) &cu.mem_host_get_device_pointer},
        {"cuMemsetD32Async", (void **) &cu.memset_d32_async},
        {"cuMemcpyDtoHAsync_v2", (void **) &cu.memcpy_dtoh_async},
        {"cuMemcpyHtoDAsync_v2", (void **) &cu.memcpy_htod_async},
        {"cuStreamWriteValue64_v2", (void **) &cu.stream_write_value64},
        {"cuStreamWaitValue64_v2", (void **) &cu.stream_wait_value64},
    };
    void *ctx;
    int dev;

    if (NULL == h) {
        return -1;
    }
    for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); ++i) {
        if (NULL == (*syms[i].fn = dlsym(h, syms[i].name))) {
            return -1;
        }
    }
    if (0 != cu.init(0) || 0 != cu.device_get(&dev, 0) || 0 != cu.primary_ctx_retain(&ctx, dev)
        || 0 != cu.ctx_set_current(ctx)) {
        return -1;
    }
    (void) cu.device_get_name(gpu_name, sizeof(gpu_name), dev);
    return 0;
}

struct bufs {
    CUstream_t stream;
    CUdptr_t dsend, drecv;
    uint32_t *hsend, *hrecv;
};

static void produce(struct bufs *b, int i)
{
    cu.memset_d32_async(b->dsend, (unsigned) i, N, b->stream);
    cu.memcpy_dtoh_async(b->hsend, b->dsend, N * sizeof(uint32_t), b->stream);
}

static void consume(struct bufs *b)
{
    cu.memcpy_htod_async(b->drecv, b->hrecv, N * sizeof(uint32_t), b->stream);
}

static double run_sync(struct bufs *b, int rank)
{
    int peer = 1 - rank;
    double t0;

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = bench_now();
    for (int i = 0; i < ITERS; ++i) {
        if (0 == rank) {
            produce(b, i);
            cu.stream_synchronize(b->stream);
            MPI_Send(b->hsend, N, MPI_UINT32_T, peer, 1, MPI_COMM_WORLD);
            MPI_Recv(b->hrecv, N, MPI_UINT32_T, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            consume(b);
        } else {
            MPI_Recv(b->hrecv, N, MPI_UINT32_T, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            consume(b);
            produce(b, i);
            cu.stream_synchronize(b->stream);
            MPI_Send(b->hsend, N, MPI_UINT32_T, peer, 1, MPI_COMM_WORLD);
        }
    }
    cu.stream_synchronize(b->stream);
    return (bench_now() - t0) / ITERS / 2;
}

static double run_queued(struct bufs *b, MPI_Queue *q, MPI_Request *send, MPI_Request *recv,
                         int rank)
{
    double t0;

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = bench_now();
    for (int i = 0; i < ITERS; ++i) {
        if (0 == rank) {
            produce(b, i);
            MPI_Enqueue_start(q, send);
            MPI_Enqueue_wait(q, send, MPI_STATUS_IGNORE);
            MPI_Enqueue_start(q, recv);
            MPI_Enqueue_wait(q, recv, MPI_STATUS_IGNORE);
            consume(b);
        } else {
            MPI_Enqueue_start(q, recv);
            MPI_Enqueue_wait(q, recv, MPI_STATUS_IGNORE);
            consume(b);
            produce(b, i);
            MPI_Enqueue_start(q, send);
            MPI_Enqueue_wait(q, send, MPI_STATUS_IGNORE);
        }
    }
    MPI_Queue_fence(q);
    cu.stream_synchronize(b->stream);
    return (bench_now() - t0) / ITERS / 2;
}

/* stream writes trigger = i; host sees it, writes done = i; stream waits */
static double memop_round_trip(CUstream_t stream)
{
    volatile uint64_t *host;
    CUdptr_t dev;
    double t0;

    if (0 != cu.mem_host_alloc((void **) &host, 2 * sizeof(uint64_t), 0x2 /* devicemap */)
        || 0 != cu.mem_host_get_device_pointer(&dev, (void *) host, 0)) {
        return -1;
    }
    host[0] = host[1] = 0;
    t0 = bench_now();
    for (uint64_t i = 1; i <= ITERS; ++i) {
        cu.stream_write_value64(stream, dev, i, 0);
        cu.stream_wait_value64(stream, dev + 8, i, 0 /* geq */);
    }
    for (uint64_t i = 1; i <= ITERS; ++i) {
        while (host[0] < i) {
        }
        host[1] = i;
    }
    cu.stream_synchronize(stream);
    return (bench_now() - t0) / ITERS;
}

int main(int argc, char **argv)
{
    double best[2] = {1e9, 1e9}, floor_s = -1;
    struct bufs b;
    MPI_Request reqs[2];
    MPI_Queue q;
    int provided, rank, ok, all_ok;

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    ok = (0 == load_driver());
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_ok) {
        if (0 == rank) {
            printf("SKIP: no CUDA device on this machine\n");
        }
        MPI_Finalize();
        return 0;
    }
    cu.stream_create(&b.stream, 0);
    cu.mem_alloc(&b.dsend, N * sizeof(uint32_t));
    cu.mem_alloc(&b.drecv, N * sizeof(uint32_t));
    cu.mem_host_alloc((void **) &b.hsend, N * sizeof(uint32_t), 0);
    cu.mem_host_alloc((void **) &b.hrecv, N * sizeof(uint32_t), 0);
    if (MPI_SUCCESS != MPI_Queue_init(&q, MPIX_QUEUE_TYPE_CUDA_STREAM, &b.stream)) {
        if (0 == rank) {
            printf("SKIP: MPI_Queue_init refused the CUDA stream queue\n");
        }
        MPI_Finalize();
        return 0;
    }
    MPI_Send_init(b.hsend, N, MPI_UINT32_T, 1 - rank, 2, MPI_COMM_WORLD, &reqs[0]);
    MPI_Recv_init(b.hrecv, N, MPI_UINT32_T, 1 - rank, 2, MPI_COMM_WORLD, &reqs[1]);
    MPI_Matchall(2, reqs);

    for (int round = 0; round <= ROUNDS; ++round) {
        double a = run_sync(&b, rank);
        double c = run_queued(&b, &q, &reqs[0], &reqs[1], rank);
        if (round > 0) { /* round 0 warms up */
            best[0] = a < best[0] ? a : best[0];
            best[1] = c < best[1] ? c : best[1];
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        floor_s = memop_round_trip(b.stream);
        printf("gpu=\"%s\" a_sync_send_us=%.2f b_enqueued_us=%.2f ratio_b=%.3f "
               "memop_round_trip_us=%.2f\n",
               gpu_name, best[0] * 1e6, best[1] * 1e6, best[1] / best[0], floor_s * 1e6);
    }
    MPI_Request_free(&reqs[0]);
    MPI_Request_free(&reqs[1]);
    MPI_Queue_free(&q);
    MPI_Finalize();
    return 0;
}
