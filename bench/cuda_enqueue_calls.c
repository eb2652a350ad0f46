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
 * What the checks of every CUDA-queue enqueue cost beside the enqueue itself
 * (ompi/mca/queue/base/queue_stream.c with the cuda backend: cuCtxGetCurrent to find whether
 * the stream's context must be pushed, cuStreamIsCapturing to refuse a
 * capturing stream, then cuStreamWriteValue64 or cuStreamWaitValue64).
 * One process, no MPI: ns per call of each, best of 5 rounds, and the two
 * checks as a fraction of one stream memory-operation enqueue.  Prints SKIP
 * without a CUDA device.  The driver API is loaded with dlopen.
 */

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "bench_util.h"

#define CHECKS 200000
#define WRITES 20000
#define ROUNDS 5

typedef int cu_result_t;
typedef void *cu_stream_t;
typedef unsigned long long cu_dptr_t;

static struct {
    cu_result_t (*init)(unsigned);
    cu_result_t (*device_get)(int *, int);
    cu_result_t (*device_get_name)(char *, int, int);
    cu_result_t (*primary_ctx_retain)(void **, int);
    cu_result_t (*ctx_set_current)(void *);
    cu_result_t (*ctx_get_current)(void **);
    cu_result_t (*stream_create)(cu_stream_t *, unsigned);
    cu_result_t (*stream_is_capturing)(cu_stream_t, int *);
    cu_result_t (*stream_synchronize)(cu_stream_t);
    cu_result_t (*mem_host_alloc)(void **, size_t, unsigned);
    cu_result_t (*mem_host_get_device_pointer)(cu_dptr_t *, void *, unsigned);
    cu_result_t (*stream_write_value64)(cu_stream_t, cu_dptr_t, uint64_t, unsigned);
} cu;

static int load(void)
{
    static const struct {
        const char *name;
        void **fn;
    } syms[] = {
        {"cuInit", (void **) &cu.init},
        {"cuDeviceGet", (void **) &cu.device_get},
        {"cuDeviceGetName", (void **) &cu.device_get_name},
        {"cuDevicePrimaryCtxRetain", (void **) &cu.primary_ctx_retain},
        {"cuCtxSetCurrent", (void **) &cu.ctx_set_current},
        {"cuCtxGetCurrent", (void **) &cu.ctx_get_current},
        {"cuStreamCreate", (void **) &cu.stream_create},
        {"cuStreamIsCapturing", (void **) &cu.stream_is_capturing},
        {"cuStreamSynchronize", (void **) &cu.stream_synchronize},
        {"cuMemHostAlloc", (void **) &cu.mem_host_alloc},
        {"cuMemHostGetDevicePointer_v2", (void **) &cu.mem_host_get_device_pointer},
        {"cuStreamWriteValue64_v2", (void **) &cu.stream_write_value64},
    };
    void *h = dlopen("libcuda.so.1", RTLD_NOW);

    if (NULL == h) {
        return -1;
    }
    for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); ++i) {
        if (NULL == (*syms[i].fn = dlsym(h, syms[i].name))) {
            return -1;
        }
    }
    return 0;
}

int main(void)
{
    double best_get = 1e30, best_cap = 1e30, best_write = 1e30, t0;
    cu_stream_t stream;
    cu_dptr_t dcounter;
    void *ctx, *cur, *host;
    char name[256] = "";
    int dev, capturing;

    if (0 != load() || 0 != cu.init(0) || 0 != cu.device_get(&dev, 0)) {
        printf("SKIP: no CUDA device on this machine\n");
        return 0;
    }
    if (0 != cu.device_get_name(name, sizeof(name), dev) || 0 != cu.primary_ctx_retain(&ctx, dev)
        || 0 != cu.ctx_set_current(ctx) || 0 != cu.stream_create(&stream, 1)
        || 0 != cu.mem_host_alloc(&host, sizeof(uint64_t), 0x2 /* DEVICEMAP */)
        || 0 != cu.mem_host_get_device_pointer(&dcounter, host, 0)) {
        printf("FAIL: CUDA set-up\n");
        return 1;
    }
    for (int r = 0; r < ROUNDS; ++r) {
        t0 = bench_now();
        for (int i = 0; i < CHECKS; ++i) {
            (void) cu.ctx_get_current(&cur);
        }
        best_get = (bench_now() - t0 < best_get) ? bench_now() - t0 : best_get;
        t0 = bench_now();
        for (int i = 0; i < CHECKS; ++i) {
            (void) cu.stream_is_capturing(stream, &capturing);
        }
        best_cap = (bench_now() - t0 < best_cap) ? bench_now() - t0 : best_cap;
        t0 = bench_now();
        for (int i = 0; i < WRITES; ++i) {
            (void) cu.stream_write_value64(stream, dcounter, (uint64_t) i, 0);
        }
        best_write = (bench_now() - t0 < best_write) ? bench_now() - t0 : best_write;
        (void) cu.stream_synchronize(stream);
    }
    best_get /= CHECKS;
    best_cap /= CHECKS;
    best_write /= WRITES;
    printf("%s: cuCtxGetCurrent %.1f ns, cuStreamIsCapturing %.1f ns, "
           "cuStreamWriteValue64 enqueue %.1f ns; checks/enqueue %.3f\n",
           name, best_get * 1e9, best_cap * 1e9, best_write * 1e9,
           (best_get + best_cap) / best_write);
    return 0;
}
