/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

#include "ompi_config.h"

#include <stddef.h>
#include <stdio.h>

#include "opal/mca/dl/base/base.h"
#include "opal/mca/threads/mutex.h"
#include "opal/util/argv.h"
#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/mca/queue/base/base.h"
#include "ompi/mca/queue/hip/queue_hip.h"

static opal_mutex_t queue_hip_runtime_lock = OPAL_MUTEX_STATIC_INIT;
static bool queue_hip_runtime_tried = false;
static int queue_hip_runtime_status = OMPI_ERR_NOT_AVAILABLE;
static opal_dl_handle_t *queue_hip_runtime_handle = NULL;
static mca_queue_hip_runtime_t queue_hip_runtime;
static char queue_hip_reason[256];

/* the first of the listed libraries that loads (ROCm 6 and 5 name the
 * runtime's soname differently) */
static int queue_hip_dlopen(void)
{
    char **names = opal_argv_split(mca_queue_hip_component.runtime_library, ',');
    char *err_msg = NULL;
    int ret = OMPI_ERR_NOT_AVAILABLE;

    for (int i = 0; NULL != names && NULL != names[i]; ++i) {
        if (OPAL_SUCCESS == opal_dl_open(names[i], false, true, &queue_hip_runtime_handle,
                                         &err_msg)) {
            opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_QUEUE_BASE_OUTPUT,
                                "queue:hip: loaded %s", names[i]);
            ret = OMPI_SUCCESS;
            break;
        }
    }
    opal_argv_free(names);
    return ret;
}

static int queue_hip_load(void)
{
    char *err_msg = NULL;
    hipError_t err;
    int count = 0;

    if (OMPI_SUCCESS != queue_hip_dlopen()) {
        snprintf(queue_hip_reason, sizeof(queue_hip_reason),
                 "no HIP runtime: cannot load %s", mca_queue_hip_component.runtime_library);
        return OMPI_ERR_NOT_AVAILABLE;
    }
    if (OPAL_SUCCESS != opal_dl_lookup(queue_hip_runtime_handle, "hipGetDeviceCount",
                                       (void **) &queue_hip_runtime.get_device_count, &err_msg)
        || OPAL_SUCCESS != opal_dl_lookup(queue_hip_runtime_handle, "hipGetErrorName",
                                          (void **) &queue_hip_runtime.get_error_name,
                                          &err_msg)) {
        snprintf(queue_hip_reason, sizeof(queue_hip_reason),
                 "the HIP runtime in %s lacks hipGetDeviceCount or hipGetErrorName",
                 mca_queue_hip_component.runtime_library);
        return OMPI_ERR_NOT_AVAILABLE;
    }

    {
        static const struct {
            const char *symbol;
            size_t offset;
        } procs[] = {
            {"hipHostMalloc", offsetof(mca_queue_hip_runtime_t, host_malloc)},
            {"hipHostFree", offsetof(mca_queue_hip_runtime_t, host_free)},
            {"hipHostGetDevicePointer", offsetof(mca_queue_hip_runtime_t, host_get_device_pointer)},
            {"hipStreamWriteValue64", offsetof(mca_queue_hip_runtime_t, stream_write_value64)},
            {"hipStreamWaitValue64", offsetof(mca_queue_hip_runtime_t, stream_wait_value64)},
            {"hipEventCreateWithFlags", offsetof(mca_queue_hip_runtime_t, event_create_with_flags)},
            {"hipEventRecord", offsetof(mca_queue_hip_runtime_t, event_record)},
            {"hipEventQuery", offsetof(mca_queue_hip_runtime_t, event_query)},
            {"hipEventDestroy", offsetof(mca_queue_hip_runtime_t, event_destroy)},
        };
        for (size_t i = 0; i < sizeof(procs) / sizeof(procs[0]); ++i) {
            if (OPAL_SUCCESS != opal_dl_lookup(queue_hip_runtime_handle, procs[i].symbol,
                                               (void **) ((char *) &queue_hip_runtime
                                                          + procs[i].offset),
                                               &err_msg)) {
                snprintf(queue_hip_reason, sizeof(queue_hip_reason),
                         "the HIP runtime in %s lacks %s", mca_queue_hip_component.runtime_library,
                         procs[i].symbol);
                return OMPI_ERR_NOT_AVAILABLE;
            }
        }
        if (OPAL_SUCCESS != opal_dl_lookup(queue_hip_runtime_handle, "hipStreamIsCapturing",
                                           (void **) &queue_hip_runtime.stream_is_capturing,
                                           &err_msg)) {
            queue_hip_runtime.stream_is_capturing = NULL;
        }
        /* capture of enqueued operations: all four, or none */
        static const struct {
            const char *symbol;
            size_t offset;
        } capture[] = {
            {"hipStreamGetCaptureInfo_v2",
             offsetof(mca_queue_hip_runtime_t, stream_get_capture_info_v2)},
            {"hipUserObjectCreate", offsetof(mca_queue_hip_runtime_t, user_object_create)},
            {"hipGraphRetainUserObject",
             offsetof(mca_queue_hip_runtime_t, graph_retain_user_object)},
            {"hipUserObjectRelease", offsetof(mca_queue_hip_runtime_t, user_object_release)},
        };
        bool all = true;
        for (size_t i = 0; i < sizeof(capture) / sizeof(capture[0]); ++i) {
            all = all && OPAL_SUCCESS == opal_dl_lookup(queue_hip_runtime_handle,
                                                        capture[i].symbol,
                                                        (void **) ((char *) &queue_hip_runtime
                                                                   + capture[i].offset),
                                                        &err_msg);
        }
        if (!all) {
            queue_hip_runtime.stream_get_capture_info_v2 = NULL;
            queue_hip_runtime.user_object_create = NULL;
            queue_hip_runtime.graph_retain_user_object = NULL;
            queue_hip_runtime.user_object_release = NULL;
            opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_QUEUE_BASE_OUTPUT,
                                "queue:hip: the runtime has no user objects: a stream being "
                                "captured refuses enqueues");
        }
    }

    err = queue_hip_runtime.get_device_count(&count);
    if (hipSuccess != err || 0 == count) {
        snprintf(queue_hip_reason, sizeof(queue_hip_reason), "no HIP device (%s)",
                 hipSuccess != err ? queue_hip_runtime.get_error_name(err) : "count is 0");
        return OMPI_ERR_NOT_AVAILABLE;
    }
    opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_QUEUE_BASE_OUTPUT,
                        "queue:hip: runtime loaded, %d device(s)", count);
    return OMPI_SUCCESS;
}

int mca_queue_hip_runtime_open(const mca_queue_hip_runtime_t **runtime, const char **reason)
{
    OPAL_THREAD_LOCK(&queue_hip_runtime_lock);
    if (!queue_hip_runtime_tried) {
        queue_hip_runtime_tried = true;
        queue_hip_runtime_status = queue_hip_load();
        if (OMPI_SUCCESS != queue_hip_runtime_status) {
            opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_QUEUE_BASE_OUTPUT,
                                "queue:hip: %s", queue_hip_reason);
            if (NULL != queue_hip_runtime_handle) {
                (void) opal_dl_close(queue_hip_runtime_handle);
                queue_hip_runtime_handle = NULL;
            }
        }
    }
    OPAL_THREAD_UNLOCK(&queue_hip_runtime_lock);

    if (OMPI_SUCCESS != queue_hip_runtime_status) {
        *reason = queue_hip_reason;
        return queue_hip_runtime_status;
    }
    *runtime = &queue_hip_runtime;
    return OMPI_SUCCESS;
}

void mca_queue_hip_runtime_close(void)
{
    OPAL_THREAD_LOCK(&queue_hip_runtime_lock);
    if (NULL != queue_hip_runtime_handle) {
        (void) opal_dl_close(queue_hip_runtime_handle);
        queue_hip_runtime_handle = NULL;
    }
    queue_hip_runtime_tried = false;
    queue_hip_runtime_status = OMPI_ERR_NOT_AVAILABLE;
    OPAL_THREAD_UNLOCK(&queue_hip_runtime_lock);
}
