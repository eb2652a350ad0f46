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
 * HIP stream queues (MPIX_QUEUE_TYPE_HIP_STREAM).
 *
 * The HIP runtime is loaded with dlopen at the first HIP queue, so the
 * component loads where no HIP runtime is installed; there it serves no
 * queue and says why at MPI_Queue_init.
 */

#ifndef MCA_QUEUE_HIP_H
#define MCA_QUEUE_HIP_H

#include "ompi_config.h"

#include <hip/hip_runtime_api.h>

#include "ompi/mca/queue/queue.h"
#include "ompi/mca/queue/base/queue_stream.h"

BEGIN_C_DECLS

/** Runtime entry points this component uses. */
typedef struct mca_queue_hip_runtime_t {
    hipError_t (*get_device_count)(int *count);
    const char *(*get_error_name)(hipError_t error);
    /* queues */
    hipError_t (*host_malloc)(void **ptr, size_t size, unsigned int flags);
    hipError_t (*host_free)(void *ptr);
    hipError_t (*host_get_device_pointer)(void **dptr, void *hptr, unsigned int flags);
    hipError_t (*stream_write_value64)(hipStream_t stream, void *ptr, uint64_t value,
                                       unsigned int flags);
    hipError_t (*stream_wait_value64)(hipStream_t stream, void *ptr, uint64_t value,
                                      unsigned int flags, uint64_t mask);
    /** NULL in runtimes without it (capture is then not detected) */
    hipError_t (*stream_is_capturing)(hipStream_t stream, hipStreamCaptureStatus *status);
    hipError_t (*event_create_with_flags)(hipEvent_t *event, unsigned int flags);
    hipError_t (*event_record)(hipEvent_t event, hipStream_t stream);
    hipError_t (*event_query)(hipEvent_t event);
    hipError_t (*event_destroy)(hipEvent_t event);
    /* capture; NULL in runtimes without user objects (before ROCm 5.3):
     * a stream being captured then refuses enqueues.  The user object is
     * opaque here, so that older headers, which lack its type, build. */
    hipError_t (*stream_get_capture_info_v2)(hipStream_t stream, hipStreamCaptureStatus *status,
                                             unsigned long long *id, hipGraph_t *graph,
                                             const hipGraphNode_t **deps, size_t *ndeps);
    hipError_t (*user_object_create)(void **object, void *ptr, void (*destroy)(void *),
                                     unsigned int refcount, unsigned int flags);
    hipError_t (*graph_retain_user_object)(hipGraph_t graph, void *object, unsigned int count,
                                           unsigned int flags);
    hipError_t (*user_object_release)(void *object, unsigned int count);
} mca_queue_hip_runtime_t;

/* hipUserObjectNoDestructorSync, hipGraphUserObjectMove (as CUDA's) */
#define MCA_QUEUE_HIP_USER_OBJECT_NO_DESTRUCTOR_SYNC 0x1
#define MCA_QUEUE_HIP_GRAPH_USER_OBJECT_MOVE 0x1

typedef struct mca_queue_hip_component_t {
    mca_queue_base_component_t super;
    int priority;
    /** file names or paths of the HIP runtime library, comma separated: the
     * first that loads is used */
    char *runtime_library;
} mca_queue_hip_component_t;

OMPI_DECLSPEC extern mca_queue_hip_component_t mca_queue_hip_component;
extern ompi_queue_stream_module_t mca_queue_hip_module;

/**
 * Load the HIP runtime and look for a device, once.  Later calls return the
 * first call's result.
 */
int mca_queue_hip_runtime_open(const mca_queue_hip_runtime_t **runtime, const char **reason);

/** Unload the runtime, if loaded. */
void mca_queue_hip_runtime_close(void);

END_C_DECLS

#endif /* MCA_QUEUE_HIP_H */
