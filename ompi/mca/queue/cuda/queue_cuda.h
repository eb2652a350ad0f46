/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/**
 * @file
 *
 * CUDA stream queues (MPIX_QUEUE_TYPE_CUDA_STREAM).
 *
 * The driver is loaded with dlopen and its entry points are resolved with
 * cuGetProcAddress, so the component builds and loads where no CUDA driver
 * is installed; there it serves no queue and says why at MPI_Queue_init.
 */

#ifndef MCA_QUEUE_CUDA_H
#define MCA_QUEUE_CUDA_H

#include "ompi_config.h"

#include <cuda.h>

#include "ompi/mca/queue/queue.h"
#include "ompi/mca/queue/base/queue_stream.h"

BEGIN_C_DECLS

/** Driver entry points this component uses. */
typedef struct mca_queue_cuda_driver_t {
    CUresult (*init)(unsigned int flags);
    CUresult (*driver_get_version)(int *version);
    CUresult (*device_get_count)(int *count);
    CUresult (*get_error_name)(CUresult error, const char **name);
    /* queues */
    CUresult (*stream_get_ctx)(CUstream stream, CUcontext *ctx);
    CUresult (*ctx_get_current)(CUcontext *ctx);
    CUresult (*ctx_push_current)(CUcontext ctx);
    CUresult (*ctx_pop_current)(CUcontext *ctx);
    CUresult (*mem_host_alloc)(void **pp, size_t bytesize, unsigned int flags);
    CUresult (*mem_free_host)(void *p);
    CUresult (*mem_host_get_device_pointer)(CUdeviceptr *pdptr, void *p, unsigned int flags);
    CUresult (*stream_write_value64)(CUstream stream, CUdeviceptr addr, cuuint64_t value,
                                     unsigned int flags);
    CUresult (*stream_wait_value64)(CUstream stream, CUdeviceptr addr, cuuint64_t value,
                                    unsigned int flags);
    CUresult (*stream_is_capturing)(CUstream stream, CUstreamCaptureStatus *status);
    /* the CUDA 11.3 form, which cuGetProcAddress gives at our API version */
    CUresult (*stream_get_capture_info)(CUstream stream, CUstreamCaptureStatus *status,
                                        cuuint64_t *id, CUgraph *graph,
                                        const CUgraphNode **deps, size_t *ndeps);
    CUresult (*user_object_create)(CUuserObject *object, void *ptr, CUhostFn destroy,
                                   unsigned int refcount, unsigned int flags);
    CUresult (*graph_retain_user_object)(CUgraph graph, CUuserObject object,
                                         unsigned int count, unsigned int flags);
    CUresult (*user_object_release)(CUuserObject object, unsigned int count);
    CUresult (*event_create)(CUevent *event, unsigned int flags);
    CUresult (*event_record)(CUevent event, CUstream stream);
    CUresult (*event_query)(CUevent event);
    CUresult (*event_destroy)(CUevent event);
} mca_queue_cuda_driver_t;

/** The name of a driver error, for messages. */
const char *mca_queue_cuda_error_name(CUresult res);

typedef struct mca_queue_cuda_component_t {
    mca_queue_base_component_t super;
    int priority;
    /** file name or path of the driver library */
    char *driver_library;
} mca_queue_cuda_component_t;

OMPI_DECLSPEC extern mca_queue_cuda_component_t mca_queue_cuda_component;
extern ompi_queue_stream_module_t mca_queue_cuda_module;

/**
 * Load the driver and initialize it, once.  Later calls return the first
 * call's result.
 *
 * @param[out] driver  the entry points, on success
 * @param[out] reason  why CUDA queues cannot be used, on failure
 */
int mca_queue_cuda_driver_open(const mca_queue_cuda_driver_t **driver, const char **reason);

/** Unload the driver, if loaded. */
void mca_queue_cuda_driver_close(void);

END_C_DECLS

#endif /* MCA_QUEUE_CUDA_H */
