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
 * Trigger-to-start latency of a stream queue: rank 0 enqueues a send behind
 * D microseconds of stream work, then waits on the stream without any MPI
 * call (as a program that computes does), so that only the progress thread
 * sees the trigger; rank 1 spins on MPI_Test of the matched receive and
 * notes when the data landed.  One sample: the arrival time less the time
 * the stream finished its work and went on to the trigger (both ranks on
 * one node read one CLOCK_MONOTONIC).
 *
 * Usage: trigger_latency emulated|gpu-cuda ITERS-SCALE DELAY-US...
 *   emulated: the emulated stream of queue/emulated (on the component
 *   path: bench/run-trigger-latency.sh --emulated), its work a busy
 *   period; gpu-cuda: a CUDA stream, its
 *   work a host function that sleeps (cuLaunchHostFunc), as long kernels
 *   keep a stream busy.
 * Prints per delay: "delay <us> n <samples> p50 <us> p99 <us> agent_cpu
 * <percent>", agent_cpu being the CPU time of rank 0's threads other than
 * its main one (the progress thread, and the stream's) over the wall time.
 */

#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

typedef int CUresult_t;
typedef void *CUstream_t;

static struct {
    int (*stream_create)(void **);
    int (*stream_synchronize)(void *);
    int (*stream_destroy)(void *);
    int (*busy)(void *, uint64_t, volatile uint64_t *);
} st;

static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t) ts.tv_sec * 1000000000ull + (uint64_t) ts.tv_nsec;
}

static uint64_t cpu_ns(clockid_t clock)
{
    struct timespec ts;

    clock_gettime(clock, &ts);
    return (uint64_t) ts.tv_sec * 1000000000ull + (uint64_t) ts.tv_nsec;
}

static void sleep_us(uint64_t us)
{
    struct timespec ts = {.tv_sec = (time_t) (us / 1000000), .tv_nsec = (long) (us % 1000000) * 1000};
    (void) nanosleep(&ts, NULL);
}

/* the emulated stream: a busy period that notes its end */
static int (*emu_busy_async)(uint64_t, uint64_t *, void *);

static int emu_busy(void *stream, uint64_t us, volatile uint64_t *end)
{
    return emu_busy_async(us, (uint64_t *) end, stream);
}

static int load_emulated(void)
{
    emu_busy_async = (int (*)(uint64_t, uint64_t *, void *)) dlsym(RTLD_DEFAULT,
                                                                   "mca_queue_emulated_busy_async");
    st.stream_create = (int (*)(void **)) dlsym(RTLD_DEFAULT, "mca_queue_emulated_stream_create");
    st.stream_synchronize = (int (*)(void *)) dlsym(RTLD_DEFAULT,
                                                    "mca_queue_emulated_stream_synchronize");
    st.stream_destroy = (int (*)(void *)) dlsym(RTLD_DEFAULT, "mca_queue_emulated_stream_destroy");
    st.busy = emu_busy;
    return (NULL == emu_busy_async || NULL == st.stream_create || NULL == st.stream_synchronize
            || NULL == st.stream_destroy) ? -1 : 0;
}

/* CUDA: the work is a host function that sleeps, then notes its end */
static struct {
    CUresult_t (*init)(unsigned);
    CUresult_t (*device_get)(int *, int);
    CUresult_t (*primary_ctx_retain)(void **, int);
    CUresult_t (*ctx_set_current)(void *);
    CUresult_t (*stream_create)(CUstream_t *, unsigned);
    CUresult_t (*stream_synchronize)(CUstream_t);
    CUresult_t (*stream_destroy)(CUstream_t);
    CUresult_t (*launch_host_func)(CUstream_t, void (*)(void *), void *);
} cu;

static struct {
    uint64_t us;
    volatile uint64_t *end;
} cuda_work;

static void cuda_work_fn(void *arg)
{
    (void) arg;
    sleep_us(cuda_work.us);
    *cuda_work.end = now_ns();
}

static int cuda_stream_create(void **stream)
{
    return cu.stream_create((CUstream_t *) stream, 0);
}

static int cuda_stream_synchronize(void *stream)
{
    return cu.stream_synchronize((CUstream_t) stream);
}

static int cuda_stream_destroy(void *stream)
{
    return cu.stream_destroy((CUstream_t) stream);
}

static int cuda_busy(void *stream, uint64_t us, volatile uint64_t *end)
{
    cuda_work.us = us;
    cuda_work.end = end;
    return cu.launch_host_func((CUstream_t) stream, cuda_work_fn, NULL);
}

static int load_cuda(void)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW), *ctx;
    struct {
        const char *name;
        void **fn;
    } syms[] = {
        {"cuInit", (void **) &cu.init},
        {"cuDeviceGet", (void **) &cu.device_get},
        {"cuDevicePrimaryCtxRetain", (void **) &cu.primary_ctx_retain},
        {"cuCtxSetCurrent", (void **) &cu.ctx_set_current},
        {"cuStreamCreate", (void **) &cu.stream_create},
        {"cuStreamSynchronize", (void **) &cu.stream_synchronize},
        {"cuStreamDestroy_v2", (void **) &cu.stream_destroy},
        {"cuLaunchHostFunc", (void **) &cu.launch_host_func},
    };
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
    st.stream_create = cuda_stream_create;
    st.stream_synchronize = cuda_stream_synchronize;
    st.stream_destroy = cuda_stream_destroy;
    st.busy = cuda_busy;
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
    return (x > y) - (x < y);
}

/* one delay: n samples, printed by rank 0 */
static int run_delay(int rank, MPI_Queue *q, void *stream, MPI_Request *req, uint64_t delay_us,
                     int n)
{
    uint64_t *lat = malloc((size_t) n * sizeof(*lat)), wall0, proc0, main0;
    volatile uint64_t end;
    int flag;

    if (NULL == lat) {
        return -1;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    wall0 = now_ns();
    proc0 = cpu_ns(CLOCK_PROCESS_CPUTIME_ID);
    main0 = cpu_ns(CLOCK_THREAD_CPUTIME_ID);
    for (int i = 0; i < n; ++i) {
        uint64_t arrived = 0;
        if (0 == rank) {
            end = 0;
            if (0 != st.busy(stream, delay_us, &end)
                || MPI_SUCCESS != MPI_Enqueue_start(q, req)
                || MPI_SUCCESS != MPI_Enqueue_wait(q, req, MPI_STATUS_IGNORE)) {
                fprintf(stderr, "trigger_latency: enqueue failed\n");
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
            /* the program computes while the stream works: no MPI call */
            sleep_us(delay_us + 200);
            st.stream_synchronize(stream);
            MPI_Queue_fence(q);
            MPI_Recv(&arrived, 1, MPI_UINT64_T, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            lat[i] = arrived > end ? arrived - end : 0;
        } else {
            MPI_Start(req);
            do {
                MPI_Test(req, &flag, MPI_STATUS_IGNORE);
            } while (!flag);
            arrived = now_ns();
            MPI_Send(&arrived, 1, MPI_UINT64_T, 0, 2, MPI_COMM_WORLD);
        }
    }
    if (0 == rank) {
        double wall = (double) (now_ns() - wall0);
        double others = (double) (cpu_ns(CLOCK_PROCESS_CPUTIME_ID) - proc0)
                        - (double) (cpu_ns(CLOCK_THREAD_CPUTIME_ID) - main0);
        qsort(lat, (size_t) n, sizeof(*lat), cmp_u64);
        printf("delay %llu n %d p50 %.1f p99 %.1f agent_cpu %.0f\n", (unsigned long long) delay_us,
               n, lat[n / 2] / 1e3, lat[(n * 99) / 100 < n ? (n * 99) / 100 : n - 1] / 1e3,
               100.0 * others / wall);
        fflush(stdout);
    }
    free(lat);
    return 0;
}

int main(int argc, char **argv)
{
    int provided, rank, size, scale, emulated;
    void *stream = NULL;
    MPI_Queue q = MPI_QUEUE_NULL;
    MPI_Request req;
    int data = 0;

    if (argc < 4) {
        fprintf(stderr, "usage: trigger_latency emulated|gpu-cuda ITERS-SCALE DELAY-US...\n");
        return 2;
    }
    emulated = (0 == strcmp(argv[1], "emulated"));
    scale = atoi(argv[2]);
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (2 != size || MPI_THREAD_MULTIPLE != provided) {
        fprintf(stderr, "trigger_latency: 2 ranks and MPI_THREAD_MULTIPLE\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (0 == rank) {
        if (0 != (emulated ? load_emulated() : load_cuda()) || 0 != st.stream_create(&stream)) {
            fprintf(stderr, "trigger_latency: no %s stream\n", emulated ? "emulated" : "CUDA");
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
        if (MPI_SUCCESS != MPI_Queue_init(&q, MPIX_QUEUE_TYPE_CUDA_STREAM, &stream)) {
            fprintf(stderr, "trigger_latency: no queue on the stream\n");
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
        MPI_Send_init(&data, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &req);
    } else {
        MPI_Recv_init(&data, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, &req);
    }
    MPI_Matchall(1, &req);
    for (int a = 3; a < argc; ++a) {
        uint64_t delay = strtoull(argv[a], NULL, 10);
        /* about the same time for every delay, at least 20 samples */
        int n = (int) (scale * 1000000ull / (delay + 300));
        if (n < 20) {
            n = 20;
        }
        run_delay(rank, &q, stream, &req, delay, n);
    }
    MPI_Request_free(&req);
    if (0 == rank) {
        MPI_Queue_free(&q);
        st.stream_destroy(stream);
    }
    MPI_Finalize();
    return 0;
}
