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
 * CUDA stream queues (MPIX_QUEUE_TYPE_CUDA_STREAM), on a GPU: stream work
 * produces each message, an enqueued send ships it, the peer's enqueued
 * receive is consumed by later stream work, with no host synchronization
 * between iterations; then statuses, several queues on several streams, an
 * operation failing on a GPU queue (the stream must not hang), stream
 * capture (ten iterations replayed by a hundred launches, eager use of the
 * same queue between them, an error inside a launch), misuse.
 *
 * argv[1] is "gpu-cuda" when the runner found a CUDA device; otherwise the
 * test prints SKIP. The driver API is loaded with dlopen, so the test builds
 * with mpicc alone. Ranks work in pairs (rank ^ 1), sharing the GPU.
 *
 * argv[1] "emulated" (with queue/emulated on the component path) runs the
 * same test on the stream engine's emulated stream: that component's
 * mca_queue_emulated_* functions stand in for the driver's (device memory is
 * host memory there). That tests the engine's logic, not a GPU; there
 * also a start behind a busy stream (its stand-in for a long kernel).
 */

#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <stdint.h>

#include "common/qtest.h"

#define N 1024
#define ITERS 200

typedef int CUresult_t;
typedef void *CUctx_t;
typedef void *CUstream_t;
typedef unsigned long long CUdptr_t;

static struct {
    CUresult_t (*init)(unsigned);
    CUresult_t (*device_get)(int *, int);
    CUresult_t (*primary_ctx_retain)(CUctx_t *, int);
    CUresult_t (*ctx_set_current)(CUctx_t);
    CUresult_t (*stream_create)(CUstream_t *, unsigned);
    CUresult_t (*stream_destroy)(CUstream_t);
    CUresult_t (*stream_synchronize)(CUstream_t);
    CUresult_t (*mem_alloc)(CUdptr_t *, size_t);
    CUresult_t (*mem_free)(CUdptr_t);
    CUresult_t (*mem_alloc_host)(void **, size_t);
    CUresult_t (*mem_free_host)(void *);
    CUresult_t (*memset_d32_async)(CUdptr_t, unsigned, size_t, CUstream_t);
    CUresult_t (*memcpy_dtoh_async)(void *, CUdptr_t, size_t, CUstream_t);
    CUresult_t (*memcpy_htod_async)(CUdptr_t, const void *, size_t, CUstream_t);
    CUresult_t (*stream_begin_capture)(CUstream_t, int);
    CUresult_t (*stream_end_capture)(CUstream_t, void **);
    CUresult_t (*graph_destroy)(void *);
    CUresult_t (*graph_instantiate)(void **, void *, unsigned long long);
    CUresult_t (*graph_launch)(void *, CUstream_t);
    CUresult_t (*graph_exec_destroy)(void *);
} cu;

/* graphs captured from stream queues and not destroyed yet: the MPI_T
 * performance variable queue_base_stream_captures */
static MPI_T_pvar_session captures_session;
static MPI_T_pvar_handle captures_handle;

static int open_live_captures(void)
{
    int provided, index, count;

    if (MPI_SUCCESS != MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided)
        || MPI_SUCCESS != MPI_T_pvar_get_index("queue_base_stream_captures",
                                               MPI_T_PVAR_CLASS_LEVEL, &index)
        || MPI_SUCCESS != MPI_T_pvar_session_create(&captures_session)
        || MPI_SUCCESS != MPI_T_pvar_handle_alloc(captures_session, index, NULL,
                                                  &captures_handle, &count)
        || 1 != count) {
        return -1;
    }
    return 0;
}

static int live_captures(void)
{
    unsigned int live = 0;

    QT_OK(MPI_T_pvar_read(captures_session, captures_handle, &live));
    return (int) live;
}

static void close_live_captures(void)
{
    QT_OK(MPI_T_pvar_handle_free(captures_session, &captures_handle));
    QT_OK(MPI_T_pvar_session_free(&captures_session));
    QT_OK(MPI_T_finalize());
}

static int load_driver(void)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW);
    struct {
        const char *name;
        void **fn;
    } syms[] = {
        {"cuInit", (void **) &cu.init},
        {"cuDeviceGet", (void **) &cu.device_get},
        {"cuDevicePrimaryCtxRetain", (void **) &cu.primary_ctx_retain},
        {"cuCtxSetCurrent", (void **) &cu.ctx_set_current},
        {"cuStreamCreate", (void **) &cu.stream_create},
        {"cuStreamDestroy_v2", (void **) &cu.stream_destroy},
        {"cuStreamSynchronize", (void **) &cu.stream_synchronize},
        {"cuMemAlloc_v2", (void **) &cu.mem_alloc},
        {"cuMemFree_v2", (void **) &cu.mem_free},
        {"cuMemAllocHost_v2", (void **) &cu.mem_alloc_host},
        {"cuMemFreeHost", (void **) &cu.mem_free_host},
        {"cuMemsetD32Async", (void **) &cu.memset_d32_async},
        {"cuMemcpyDtoHAsync_v2", (void **) &cu.memcpy_dtoh_async},
        {"cuMemcpyHtoDAsync_v2", (void **) &cu.memcpy_htod_async},
        {"cuStreamBeginCapture_v2", (void **) &cu.stream_begin_capture},
        {"cuStreamEndCapture", (void **) &cu.stream_end_capture},
        {"cuGraphDestroy", (void **) &cu.graph_destroy},
        {"cuGraphInstantiateWithFlags", (void **) &cu.graph_instantiate},
        {"cuGraphLaunch", (void **) &cu.graph_launch},
        {"cuGraphExecDestroy", (void **) &cu.graph_exec_destroy},
    };
    CUctx_t ctx;
    int dev;

    if (NULL == h) {
        return -1;
    }
    for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); ++i) {
        if (NULL == (*syms[i].fn = dlsym(h, syms[i].name))) {
            fprintf(stderr, "[rank %d] no %s in the driver\n", qt_rank, syms[i].name);
            return -1;
        }
    }
    if (0 != cu.init(0) || 0 != cu.device_get(&dev, 0) || 0 != cu.primary_ctx_retain(&ctx, dev)
        || 0 != cu.ctx_set_current(ctx)) {
        return -1;
    }
    return 0;
}

/* the emulated stream (ompi/mca/queue/emulated/queue_emulated_stream.h),
 * found with dlsym in queue/emulated, which MPI_Init loaded */
static struct {
    int (*stream_create)(void **);
    int (*memset_d32_async)(void *, uint32_t, size_t, void *);
    int (*memcpy_async)(void *, const void *, size_t, void *);
    int (*begin_capture)(void *);
    int (*graph_launch)(void *, void *);
    int (*busy_async)(uint64_t, uint64_t *, void *);
    int (*fail_graph_retain)(int);
} emu;

static CUresult_t emu_stream_create(CUstream_t *stream, unsigned flags)
{
    (void) flags;
    return emu.stream_create(stream);
}

static CUresult_t emu_mem_alloc(CUdptr_t *p, size_t size)
{
    void *m = malloc(size);
    *p = (CUdptr_t) (uintptr_t) m;
    return NULL == m;
}

static CUresult_t emu_mem_free(CUdptr_t p)
{
    free((void *) (uintptr_t) p);
    return 0;
}

static CUresult_t emu_mem_alloc_host(void **p, size_t size)
{
    return NULL == (*p = malloc(size));
}

static CUresult_t emu_mem_free_host(void *p)
{
    free(p);
    return 0;
}

static CUresult_t emu_memset_d32_async(CUdptr_t dst, unsigned value, size_t n, CUstream_t s)
{
    return emu.memset_d32_async((void *) (uintptr_t) dst, value, n, s);
}

static CUresult_t emu_memcpy_dtoh_async(void *dst, CUdptr_t src, size_t bytes, CUstream_t s)
{
    return emu.memcpy_async(dst, (const void *) (uintptr_t) src, bytes, s);
}

static CUresult_t emu_memcpy_htod_async(CUdptr_t dst, const void *src, size_t bytes,
                                        CUstream_t s)
{
    return emu.memcpy_async((void *) (uintptr_t) dst, src, bytes, s);
}

static CUresult_t emu_begin_capture(CUstream_t s, int mode)
{
    (void) mode;
    return emu.begin_capture(s);
}

/* the emulated stream launches its graphs as captured */
static CUresult_t emu_graph_instantiate(void **exec, void *graph, unsigned long long flags)
{
    (void) flags;
    *exec = graph;
    return 0;
}

static CUresult_t emu_graph_launch(void *exec, CUstream_t s)
{
    return emu.graph_launch(exec, s);
}

static CUresult_t emu_graph_exec_destroy(void *exec)
{
    (void) exec;
    return 0;
}

static int load_emulated(void)
{
    struct {
        const char *name;
        void **fn;
    } syms[] = {
        {"mca_queue_emulated_stream_create", (void **) &emu.stream_create},
        {"mca_queue_emulated_stream_destroy", (void **) &cu.stream_destroy},
        {"mca_queue_emulated_stream_synchronize", (void **) &cu.stream_synchronize},
        {"mca_queue_emulated_memset_d32_async", (void **) &emu.memset_d32_async},
        {"mca_queue_emulated_memcpy_async", (void **) &emu.memcpy_async},
        {"mca_queue_emulated_begin_capture", (void **) &emu.begin_capture},
        {"mca_queue_emulated_end_capture", (void **) &cu.stream_end_capture},
        {"mca_queue_emulated_graph_destroy", (void **) &cu.graph_destroy},
        {"mca_queue_emulated_graph_launch", (void **) &emu.graph_launch},
        {"mca_queue_emulated_busy_async", (void **) &emu.busy_async},
        {"mca_queue_emulated_fail_graph_retain", (void **) &emu.fail_graph_retain},
    };

    for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); ++i) {
        if (NULL == (*syms[i].fn = dlsym(RTLD_DEFAULT, syms[i].name))) {
            fprintf(stderr, "[rank %d] no %s loaded\n", qt_rank, syms[i].name);
            return -1;
        }
    }
    cu.stream_create = emu_stream_create;
    cu.mem_alloc = emu_mem_alloc;
    cu.mem_free = emu_mem_free;
    cu.mem_alloc_host = emu_mem_alloc_host;
    cu.mem_free_host = emu_mem_free_host;
    cu.memset_d32_async = emu_memset_d32_async;
    cu.memcpy_dtoh_async = emu_memcpy_dtoh_async;
    cu.memcpy_htod_async = emu_memcpy_htod_async;
    cu.stream_begin_capture = emu_begin_capture;
    cu.graph_instantiate = emu_graph_instantiate;
    cu.graph_launch = emu_graph_launch;
    cu.graph_exec_destroy = emu_graph_exec_destroy;
    return 0;
}

#define CU_OK(call) QT_CHECK(0 == (call), "%s failed", #call)

/* Stream work makes the message, the queue moves it, stream work takes it:
 * values must arrive in order with no host synchronization in the loop. */
static void check_pipeline(int peer)
{
    CUstream_t stream;
    CUdptr_t dsend, drecv;
    uint32_t *hsend, *hrecv, *hcheck;
    MPI_Request reqs[2];
    MPI_Status sts[2];
    MPI_Queue q = MPI_QUEUE_NULL;
    int bad = 0;

    QT_STEP("pipeline: set-up");
    CU_OK(cu.stream_create(&stream, 0));
    CU_OK(cu.mem_alloc(&dsend, N * sizeof(uint32_t)));
    CU_OK(cu.mem_alloc(&drecv, N * sizeof(uint32_t)));
    CU_OK(cu.mem_alloc_host((void **) &hsend, N * sizeof(uint32_t)));
    CU_OK(cu.mem_alloc_host((void **) &hrecv, N * sizeof(uint32_t)));
    CU_OK(cu.mem_alloc_host((void **) &hcheck, (size_t) ITERS * N * sizeof(uint32_t)));
    QT_OK(MPI_Queue_init(&q, MPIX_QUEUE_TYPE_CUDA_STREAM, &stream));
    QT_OK(MPI_Send_init(hsend, N, MPI_UINT32_T, peer, 7, MPI_COMM_WORLD, &reqs[0]));
    QT_OK(MPI_Recv_init(hrecv, N, MPI_UINT32_T, peer, 7, MPI_COMM_WORLD, &reqs[1]));
    QT_OK(MPI_Matchall(2, reqs));

    QT_STEP("pipeline: iterations");
    for (int i = 0; i < ITERS; ++i) {
        CU_OK(cu.memset_d32_async(dsend, (unsigned) (1000 * i + qt_rank), N, stream));
        CU_OK(cu.memcpy_dtoh_async(hsend, dsend, N * sizeof(uint32_t), stream));
        QT_OK(MPI_Enqueue_startall(&q, 2, reqs));
        QT_OK(MPI_Enqueue_waitall(&q, 2, reqs, sts));
        CU_OK(cu.memcpy_htod_async(drecv, hrecv, N * sizeof(uint32_t), stream));
        CU_OK(cu.memcpy_dtoh_async(hcheck + (size_t) i * N, drecv, N * sizeof(uint32_t),
                                   stream));
    }
    QT_STEP("pipeline: fence");
    QT_OK(MPI_Queue_fence(&q));
    CU_OK(cu.stream_synchronize(stream));
    for (int i = 0; i < ITERS; ++i) {
        for (int j = 0; j < N; ++j) {
            bad += (hcheck[(size_t) i * N + j] != (uint32_t) (1000 * i + peer));
        }
    }
    QT_CHECK(0 == bad, "%d values wrong", bad);
    QT_CHECK(peer == sts[1].MPI_SOURCE && 7 == sts[1].MPI_TAG, "status src %d tag %d",
             sts[1].MPI_SOURCE, sts[1].MPI_TAG);

    QT_STEP("pipeline: clean-up");
    MPI_Request_free(&reqs[0]);
    MPI_Request_free(&reqs[1]);
    QT_OK(MPI_Queue_free(&q));
    cu.mem_free_host(hcheck);
    cu.mem_free_host(hrecv);
    cu.mem_free_host(hsend);
    cu.mem_free(drecv);
    cu.mem_free(dsend);
    cu.stream_destroy(stream);
}

/* Two queues on two streams: one stalled on a receive whose send comes
 * last must not keep the other from finishing. */
static void check_two_streams(int rank, int peer)
{
    CUstream_t s[2];
    MPI_Queue q[2];
    MPI_Request r[2][2];
    int out[2] = {rank, rank + 10}, in[2] = {-1, -1};

    QT_STEP("two streams");
    for (int k = 0; k < 2; ++k) {
        CU_OK(cu.stream_create(&s[k], 0));
        QT_OK(MPI_Queue_init(&q[k], MPIX_QUEUE_TYPE_CUDA_STREAM, &s[k]));
        QT_OK(MPI_Send_init(&out[k], 1, MPI_INT, peer, 20 + k, MPI_COMM_WORLD, &r[k][0]));
        QT_OK(MPI_Recv_init(&in[k], 1, MPI_INT, peer, 20 + k, MPI_COMM_WORLD, &r[k][1]));
        QT_OK(MPI_Matchall(2, r[k]));
    }
    /* queue 0 waits for its receive first; queue 1 runs a whole exchange */
    QT_OK(MPI_Enqueue_start(&q[0], &r[0][1]));
    QT_OK(MPI_Enqueue_wait(&q[0], &r[0][1], MPI_STATUS_IGNORE));
    QT_OK(MPI_Enqueue_startall(&q[1], 2, r[1]));
    QT_OK(MPI_Enqueue_waitall(&q[1], 2, r[1], MPI_STATUSES_IGNORE));
    QT_OK(MPI_Queue_fence(&q[1]));
    QT_CHECK(peer + 10 == in[1], "queue 1 received %d", in[1]);
    /* now the send queue 0 is waiting for, from the host: enqueued on
     * queue 0 it would sit behind that queue's wait on the same stream,
     * which the stream passes only once the receive completed */
    QT_OK(MPI_Start(&r[0][0]));
    QT_OK(MPI_Wait(&r[0][0], MPI_STATUS_IGNORE));
    QT_OK(MPI_Queue_fence(&q[0]));
    QT_CHECK(peer == in[0], "queue 0 received %d", in[0]);
    for (int k = 0; k < 2; ++k) {
        MPI_Request_free(&r[k][0]);
        MPI_Request_free(&r[k][1]);
        QT_OK(MPI_Queue_free(&q[k]));
        CU_OK(cu.stream_synchronize(s[k]));
        cu.stream_destroy(s[k]);
    }
}

/* A receive that fails (truncation): the error reaches the fence, and the
 * stream is not left waiting for a completion that never comes. */
static void check_error(int peer)
{
    CUstream_t stream;
    MPI_Queue q;
    MPI_Request r[2];
    MPI_Status sts[2];
    int out[2] = {1, 2}, in = 0;

    QT_STEP("failing operation");
    CU_OK(cu.stream_create(&stream, 0));
    QT_OK(MPI_Queue_init(&q, MPIX_QUEUE_TYPE_CUDA_STREAM, &stream));
    QT_OK(MPI_Send_init(out, 2, MPI_INT, peer, 30, MPI_COMM_WORLD, &r[0]));
    QT_OK(MPI_Recv_init(&in, 1, MPI_INT, peer, 30, MPI_COMM_WORLD, &r[1]));
    QT_OK(MPI_Matchall(2, r));
    QT_OK(MPI_Enqueue_startall(&q, 2, r));
    QT_OK(MPI_Enqueue_waitall(&q, 2, r, sts));
    QT_CHECK_RC(MPI_Queue_fence(&q), MPI_ERR_TRUNCATE);
    QT_STEP("failing operation: the stream goes on");
    CU_OK(cu.stream_synchronize(stream));
    MPI_Request_free(&r[0]);
    MPI_Request_free(&r[1]);
    QT_OK(MPI_Queue_free(&q));
    cu.stream_destroy(stream);
}

#define CAPTURED_ITERS 10
#define LAUNCHES 100

/* The chapter's exchange, ten iterations captured into a graph with the
 * stream work around them, launched a hundred times with the data checked
 * after each launch; eager use of the same queue between launches; the
 * graph destroyed, and with it what the queue kept for it. */
static void check_capture_replay(int peer)
{
    CUstream_t stream;
    CUdptr_t dsend, drecv;
    uint32_t *hsrc, *hsend, *hrecv, *hcheck;
    MPI_Request r[2];
    MPI_Status sts[2];
    MPI_Queue q;
    void *graph = NULL, *exec = NULL;
    int bad = 0, before = live_captures();

    QT_STEP("capture: set-up");
    CU_OK(cu.stream_create(&stream, 0));
    CU_OK(cu.mem_alloc(&dsend, N * sizeof(uint32_t)));
    CU_OK(cu.mem_alloc(&drecv, N * sizeof(uint32_t)));
    CU_OK(cu.mem_alloc_host((void **) &hsrc, CAPTURED_ITERS * N * sizeof(uint32_t)));
    CU_OK(cu.mem_alloc_host((void **) &hsend, N * sizeof(uint32_t)));
    CU_OK(cu.mem_alloc_host((void **) &hrecv, N * sizeof(uint32_t)));
    CU_OK(cu.mem_alloc_host((void **) &hcheck, CAPTURED_ITERS * N * sizeof(uint32_t)));
    QT_OK(MPI_Queue_init(&q, MPIX_QUEUE_TYPE_CUDA_STREAM, &stream));
    QT_OK(MPI_Send_init(hsend, N, MPI_UINT32_T, peer, 50, MPI_COMM_WORLD, &r[0]));
    QT_OK(MPI_Recv_init(hrecv, N, MPI_UINT32_T, peer, 50, MPI_COMM_WORLD, &r[1]));
    QT_OK(MPI_Matchall(2, r));

    QT_STEP("capture: recording");
    CU_OK(cu.stream_begin_capture(stream, 2 /* relaxed */));
    for (int i = 0; i < CAPTURED_ITERS; ++i) {
        /* the graph copies what the host wrote before each launch */
        CU_OK(cu.memcpy_htod_async(dsend, hsrc + (size_t) i * N, N * sizeof(uint32_t), stream));
        CU_OK(cu.memcpy_dtoh_async(hsend, dsend, N * sizeof(uint32_t), stream));
        QT_OK(MPI_Enqueue_startall(&q, 2, r));
        QT_OK(MPI_Enqueue_waitall(&q, 2, r, sts));
        CU_OK(cu.memcpy_htod_async(drecv, hrecv, N * sizeof(uint32_t), stream));
        CU_OK(cu.memcpy_dtoh_async(hcheck + (size_t) i * N, drecv, N * sizeof(uint32_t),
                                   stream));
    }
    CU_OK(cu.stream_end_capture(stream, &graph));
    QT_CHECK(NULL != graph, "no graph");
    QT_CHECK(before + 1 == live_captures(), "%d captured tables, expected %d", live_captures(),
             before + 1);
    CU_OK(cu.graph_instantiate(&exec, graph, 0));

    QT_STEP("capture: launches");
    for (int l = 0; l < LAUNCHES && 0 == qt_failures; ++l) {
        for (int i = 0; i < CAPTURED_ITERS; ++i) {
            for (int j = 0; j < N; ++j) {
                hsrc[(size_t) i * N + j]
                    = (uint32_t) (100000 * l + 1000 * i + 10 * qt_rank + j % 7);
            }
        }
        memset(hcheck, 0xff, (size_t) CAPTURED_ITERS * N * sizeof(uint32_t));
        CU_OK(cu.graph_launch(exec, stream));
        CU_OK(cu.stream_synchronize(stream));
        for (int i = 0; i < CAPTURED_ITERS; ++i) {
            for (int j = 0; j < N; ++j) {
                bad += (hcheck[(size_t) i * N + j]
                        != (uint32_t) (100000 * l + 1000 * i + 10 * peer + j % 7));
            }
        }
        QT_CHECK(0 == bad, "launch %d: %d values wrong", l, bad);
        if (9 == l % 10) {
            /* the same queue, eagerly, between launches */
            hsend[0] = (uint32_t) (l + qt_rank);
            QT_OK(MPI_Enqueue_startall(&q, 2, r));
            QT_OK(MPI_Enqueue_waitall(&q, 2, r, sts));
            QT_OK(MPI_Queue_fence(&q));
            QT_CHECK((uint32_t) (l + peer) == hrecv[0], "eager exchange after launch %d: %u", l,
                     hrecv[0]);
        }
    }
    QT_OK(MPI_Queue_fence(&q));
    QT_CHECK(peer == sts[1].MPI_SOURCE && 50 == sts[1].MPI_TAG, "status src %d tag %d",
             sts[1].MPI_SOURCE, sts[1].MPI_TAG);

    QT_STEP("capture: the graph's tables released with it");
    CU_OK(cu.graph_exec_destroy(exec));
    CU_OK(cu.graph_destroy(graph));
    /* a driver may release its user objects a little later */
    for (int spin = 0; before != live_captures() && spin < 100000; ++spin) {
        usleep(100);
    }
    QT_CHECK(before == live_captures(), "%d captured tables left, expected %d", live_captures(),
             before);

    QT_STEP("capture: clean-up");
    MPI_Request_free(&r[0]);
    MPI_Request_free(&r[1]);
    QT_OK(MPI_Queue_free(&q));
    cu.mem_free_host(hcheck);
    cu.mem_free_host(hrecv);
    cu.mem_free_host(hsend);
    cu.mem_free_host(hsrc);
    cu.mem_free(drecv);
    cu.mem_free(dsend);
    cu.stream_destroy(stream);
}

/* An error inside a launched graph (a truncated receive) reaches the
 * queue's next fence, as an eager enqueue's does, and the stream goes on. */
static void check_capture_error(int peer)
{
    CUstream_t stream;
    MPI_Queue q;
    MPI_Request r[2];
    int out[2] = {1, 2}, in = 0;
    void *graph = NULL, *exec = NULL;

    QT_STEP("capture: a failing operation");
    CU_OK(cu.stream_create(&stream, 0));
    QT_OK(MPI_Queue_init(&q, MPIX_QUEUE_TYPE_CUDA_STREAM, &stream));
    QT_OK(MPI_Send_init(out, 2, MPI_INT, peer, 51, MPI_COMM_WORLD, &r[0]));
    QT_OK(MPI_Recv_init(&in, 1, MPI_INT, peer, 51, MPI_COMM_WORLD, &r[1]));
    QT_OK(MPI_Matchall(2, r));
    CU_OK(cu.stream_begin_capture(stream, 2 /* relaxed */));
    QT_OK(MPI_Enqueue_startall(&q, 2, r));
    /* refused in the capture as eagerly: a second start before its wait */
    QT_CHECK_RC(MPI_Enqueue_start(&q, &r[0]), MPI_ERR_REQUEST);
    QT_OK(MPI_Enqueue_waitall(&q, 2, r, MPI_STATUSES_IGNORE));
    CU_OK(cu.stream_end_capture(stream, &graph));
    CU_OK(cu.graph_instantiate(&exec, graph, 0));
    CU_OK(cu.graph_launch(exec, stream));
    QT_CHECK_RC(MPI_Queue_fence(&q), MPI_ERR_TRUNCATE);
    QT_STEP("capture: a failing operation, the stream goes on");
    CU_OK(cu.stream_synchronize(stream));
    CU_OK(cu.graph_exec_destroy(exec));
    CU_OK(cu.graph_destroy(graph));
    MPI_Request_free(&r[0]);
    MPI_Request_free(&r[1]);
    QT_OK(MPI_Queue_free(&q));
    cu.stream_destroy(stream);
}

/* The graph refuses to hold the queue's words (the vendor's
 * cuGraphRetainUserObject failing after cuUserObjectCreate succeeded): the
 * enqueue fails with a clear error, the user object made for the graph is
 * released (no table outlives it), and the requests stay usable.
 * Emulated stream only (it injects the failure). */
static void check_capture_tie_failure(int rank, int peer)
{
    CUstream_t stream;
    MPI_Queue q;
    MPI_Request r[2];
    int out = 100 + rank, in = -1, live;
    void *graph = NULL;

    QT_STEP("capture: the graph refuses the queue's words");
    CU_OK(cu.stream_create(&stream, 0));
    QT_OK(MPI_Queue_init(&q, MPIX_QUEUE_TYPE_CUDA_STREAM, &stream));
    QT_OK(MPI_Send_init(&out, 1, MPI_INT, peer, 53, MPI_COMM_WORLD, &r[0]));
    QT_OK(MPI_Recv_init(&in, 1, MPI_INT, peer, 53, MPI_COMM_WORLD, &r[1]));
    QT_OK(MPI_Matchall(2, r));
    live = live_captures();
    CU_OK(cu.stream_begin_capture(stream, 2 /* relaxed */));
    CU_OK(emu.fail_graph_retain(1));
    QT_CHECK_RC(MPI_Enqueue_startall(&q, 2, r), MPI_ERR_OTHER);
    CU_OK(cu.stream_end_capture(stream, &graph));
    CU_OK(cu.graph_destroy(graph));
    QT_CHECK(live == live_captures(), "%d capture tables outlive the failed tie (the user "
             "object was not released)", live_captures() - live);
    QT_STEP("capture: the graph refused, the requests still run");
    QT_OK(MPI_Enqueue_startall(&q, 2, r));
    QT_OK(MPI_Enqueue_waitall(&q, 2, r, MPI_STATUSES_IGNORE));
    QT_OK(MPI_Queue_fence(&q));
    QT_CHECK(100 + peer == in, "received %d, not %d", in, 100 + peer);
    MPI_Request_free(&r[0]);
    MPI_Request_free(&r[1]);
    QT_OK(MPI_Queue_free(&q));
    cu.stream_destroy(stream);
}

/* the pvar mpi_async_progress_watched_sleeps: sleeps of the progress thread
 * that ran to their end while a stream queue had work pending */
static unsigned long long watched_sleeps(void)
{
    static MPI_T_pvar_session session = MPI_T_PVAR_SESSION_NULL;
    static MPI_T_pvar_handle handle;
    unsigned long long value = 0;
    int index, count, provided;

    if (MPI_T_PVAR_SESSION_NULL == session) {
        QT_OK(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided));
        int rc = MPI_T_pvar_get_index("mpi_async_progress_watched_sleeps",
                                      MPI_T_PVAR_CLASS_COUNTER, &index);
        QT_CHECK(MPI_SUCCESS == rc, "no pvar mpi_async_progress_watched_sleeps (%d)", rc);
        if (MPI_SUCCESS != rc) {
            return 0;
        }
        QT_OK(MPI_T_pvar_session_create(&session));
        QT_OK(MPI_T_pvar_handle_alloc(session, index, NULL, &handle, &count));
    }
    QT_OK(MPI_T_pvar_read(session, handle, &value));
    return value;
}

/* A start behind 20 ms of stream work (a kernel, on a GPU): the stream
 * writes the trigger long after the enqueue, while the program waits on
 * the stream and makes no MPI call.  The progress thread must still be
 * polling then, not in a sleep
 * of up to mpi_async_progress_max_sleep_us, or the start waits for the
 * sleep's end: no sleep may run to its end while the start is pending.
 * Emulated stream only (its busy period stands for the kernel). */
static void check_trigger_behind_busy(int rank, int peer)
{
    CUstream_t stream;
    MPI_Queue q;
    MPI_Request req;
    MPI_Status st;
    uint32_t buf[N];
    volatile uint64_t end_ns = 0;
    unsigned long long before, after;
    int bad = 0;

    QT_STEP("trigger behind a busy stream: set-up");
    for (int j = 0; j < N; ++j) {
        buf[j] = (0 == rank % 2) ? (uint32_t) (j + 5) : 0;
    }
    if (0 == rank % 2) {
        QT_OK(MPI_Send_init(buf, N, MPI_UINT32_T, peer, 11, MPI_COMM_WORLD, &req));
    } else {
        QT_OK(MPI_Recv_init(buf, N, MPI_UINT32_T, peer, 11, MPI_COMM_WORLD, &req));
    }
    QT_OK(MPI_Matchall(1, &req));
    if (0 == rank % 2) {
        CU_OK(cu.stream_create(&stream, 0));
        QT_OK(MPI_Queue_init(&q, MPIX_QUEUE_TYPE_CUDA_STREAM, &stream));
        before = watched_sleeps();
        QT_STEP("trigger behind a busy stream: enqueue behind 20 ms of stream work");
        CU_OK(emu.busy_async(20000, (uint64_t *) &end_ns, stream));
        QT_OK(MPI_Enqueue_start(&q, &req));
        QT_OK(MPI_Enqueue_wait(&q, &req, &st));
        /* the program makes no MPI call while the stream works: only the
         * progress thread sees the trigger */
        QT_STEP("trigger behind a busy stream: stream synchronize");
        CU_OK(cu.stream_synchronize(stream));
        after = watched_sleeps();
        QT_STEP("trigger behind a busy stream: fence");
        QT_OK(MPI_Queue_fence(&q));
        QT_CHECK(0 != end_ns, "the fence returned before the stream's busy period ended");
        QT_CHECK(before == after, "the progress thread slept %llu times to the end of its sleep "
                 "while the start waited for its trigger", after - before);
        QT_OK(MPI_Queue_free(&q));
        CU_OK(cu.stream_destroy(stream));
    } else {
        QT_STEP("trigger behind a busy stream: receive");
        QT_OK(MPI_Start(&req));
        QT_OK(MPI_Wait(&req, &st));
        for (int j = 0; j < N; ++j) {
            bad += (buf[j] != (uint32_t) (j + 5));
        }
        QT_CHECK(0 == bad, "%d values wrong", bad);
        QT_CHECK(peer == st.MPI_SOURCE && 11 == st.MPI_TAG, "status src %d tag %d",
                 st.MPI_SOURCE, st.MPI_TAG);
    }
    MPI_Request_free(&req);
}

int main(int argc, char **argv)
{
    int provided, rank, size, emulated = (argc > 1 && 0 == strcmp(argv[1], "emulated"));

    if (!emulated && (argc < 2 || 0 != strcmp(argv[1], "gpu-cuda"))) {
        /* print before MPI_Init: nothing here needs MPI */
        if (NULL == getenv("OMPI_COMM_WORLD_RANK") || 0 == atoi(getenv("OMPI_COMM_WORLD_RANK"))) {
            printf("SKIP: no CUDA device on this machine\n");
        }
        return 0;
    }
    qt_init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    QT_CHECK(MPI_THREAD_MULTIPLE == provided && 0 == size % 2, "needs MPI_THREAD_MULTIPLE and "
             "an even number of ranks");
    QT_CHECK(0 == open_live_captures(), "no MPI_T performance variable "
             "queue_base_stream_captures");
    if (emulated) {
        QT_CHECK(0 == load_emulated(), "cannot find the emulated stream: is queue/emulated's "
                 "build directory on mca_base_component_path?");
    } else {
        QT_CHECK(0 == load_driver(), "cannot load the CUDA driver");
    }
    if (0 == qt_failures) {
        MPI_Queue q;
        QT_STEP("misuse");
        QT_CHECK_RC(MPI_Queue_init(&q, MPIX_QUEUE_TYPE_CUDA_STREAM, NULL), MPI_ERR_ARG);
        check_pipeline(rank ^ 1);
        check_two_streams(rank, rank ^ 1);
        check_error(rank ^ 1);
        check_capture_replay(rank ^ 1);
        check_capture_error(rank ^ 1);
        if (emulated) {
            check_capture_tie_failure(rank, rank ^ 1);
            check_trigger_behind_busy(rank, rank ^ 1);
        }
        close_live_captures();
    }
    return qt_finalize();
}
