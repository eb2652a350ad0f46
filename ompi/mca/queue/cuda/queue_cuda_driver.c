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
#include <stdlib.h>

#include "opal/mca/dl/base/base.h"
#include "opal/mca/threads/mutex.h"
#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/mca/queue/base/base.h"
#include "ompi/mca/queue/cuda/queue_cuda.h"

/* Entry points are requested at this API level: the v2 stream memory
 * operations are the default from CUDA 11.7 on. */
#define QUEUE_CUDA_API_VERSION 11070

typedef CUresult (*queue_cuda_getproc_v2_fn_t)(const char *symbol, void **pfn, int version,
                                               cuuint64_t flags, void *status);
typedef CUresult (*queue_cuda_getproc_v1_fn_t)(const char *symbol, void **pfn, int version,
                                               cuuint64_t flags);

static opal_mutex_t queue_cuda_driver_lock = OPAL_MUTEX_STATIC_INIT;
static bool queue_cuda_driver_tried = false;
static int queue_cuda_driver_status = OMPI_ERR_NOT_AVAILABLE;
static const char *queue_cuda_driver_reason = NULL;
static opal_dl_handle_t *queue_cuda_driver_handle = NULL;
static mca_queue_cuda_driver_t queue_cuda_driver;
/* error text kept for the lifetime of the process: reasons are static */
static char queue_cuda_reason_buf[256];

static int queue_cuda_fail(const char *fmt, const char *detail)
{
    snprintf(queue_cuda_reason_buf, sizeof(queue_cuda_reason_buf), fmt, detail);
    queue_cuda_driver_reason = queue_cuda_reason_buf;
    opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_QUEUE_BASE_OUTPUT, "queue:cuda: %s",
                        queue_cuda_driver_reason);
    return OMPI_ERR_NOT_AVAILABLE;
}

const char *mca_queue_cuda_error_name(CUresult res)
{
    const char *name = NULL;

    if (NULL == queue_cuda_driver.get_error_name
        || CUDA_SUCCESS != queue_cuda_driver.get_error_name(res, &name) || NULL == name) {
        return "unknown CUDA error";
    }
    return name;
}

static int queue_cuda_resolve(void *getproc, bool v2, const char *symbol, void **pfn)
{
    CUresult res;

    *pfn = NULL;
    if (v2) {
        res = ((queue_cuda_getproc_v2_fn_t) getproc)(symbol, pfn, QUEUE_CUDA_API_VERSION, 0,
                                                     NULL);
    } else {
        res = ((queue_cuda_getproc_v1_fn_t) getproc)(symbol, pfn, QUEUE_CUDA_API_VERSION, 0);
    }
    if (CUDA_SUCCESS != res || NULL == *pfn) {
        return queue_cuda_fail("the CUDA driver has no entry point %s", symbol);
    }
    return OMPI_SUCCESS;
}

static int queue_cuda_load(void)
{
    void *getproc = NULL;
    char *err_msg = NULL;
    bool v2 = true;
    CUresult res;
    int count = 0, version = 0, ret;

    ret = opal_dl_open(mca_queue_cuda_component.driver_library, false, true,
                       &queue_cuda_driver_handle, &err_msg);
    if (OPAL_SUCCESS != ret) {
        return queue_cuda_fail("no CUDA driver: cannot load %s",
                               mca_queue_cuda_component.driver_library);
    }

    /* cuGetProcAddress_v2 (CUDA 12) takes one more argument than the
     * original; both return the same entry points */
    if (OPAL_SUCCESS != opal_dl_lookup(queue_cuda_driver_handle, "cuGetProcAddress_v2",
                                       &getproc, &err_msg)) {
        v2 = false;
        if (OPAL_SUCCESS != opal_dl_lookup(queue_cuda_driver_handle, "cuGetProcAddress",
                                           &getproc, &err_msg)) {
            return queue_cuda_fail("the CUDA driver in %s has no cuGetProcAddress (CUDA 11.3 or "
                                   "newer is required)",
                                   mca_queue_cuda_component.driver_library);
        }
    }

    {
        /* resolved at once, so that a queue never fails half-way; error
         * names first, for the messages of what follows */
        static const struct {
            const char *symbol;
            size_t offset;
        } procs[] = {
            {"cuGetErrorName", offsetof(mca_queue_cuda_driver_t, get_error_name)},
            {"cuInit", offsetof(mca_queue_cuda_driver_t, init)},
            {"cuDriverGetVersion", offsetof(mca_queue_cuda_driver_t, driver_get_version)},
            {"cuDeviceGetCount", offsetof(mca_queue_cuda_driver_t, device_get_count)},
            {"cuStreamGetCtx", offsetof(mca_queue_cuda_driver_t, stream_get_ctx)},
            {"cuCtxGetCurrent", offsetof(mca_queue_cuda_driver_t, ctx_get_current)},
            {"cuCtxPushCurrent", offsetof(mca_queue_cuda_driver_t, ctx_push_current)},
            {"cuCtxPopCurrent", offsetof(mca_queue_cuda_driver_t, ctx_pop_current)},
            {"cuMemHostAlloc", offsetof(mca_queue_cuda_driver_t, mem_host_alloc)},
            {"cuMemFreeHost", offsetof(mca_queue_cuda_driver_t, mem_free_host)},
            {"cuMemHostGetDevicePointer",
             offsetof(mca_queue_cuda_driver_t, mem_host_get_device_pointer)},
            {"cuStreamWriteValue64", offsetof(mca_queue_cuda_driver_t, stream_write_value64)},
            {"cuStreamWaitValue64", offsetof(mca_queue_cuda_driver_t, stream_wait_value64)},
            {"cuStreamIsCapturing", offsetof(mca_queue_cuda_driver_t, stream_is_capturing)},
            {"cuStreamGetCaptureInfo",
             offsetof(mca_queue_cuda_driver_t, stream_get_capture_info)},
            {"cuUserObjectCreate", offsetof(mca_queue_cuda_driver_t, user_object_create)},
            {"cuGraphRetainUserObject",
             offsetof(mca_queue_cuda_driver_t, graph_retain_user_object)},
            {"cuUserObjectRelease", offsetof(mca_queue_cuda_driver_t, user_object_release)},
            {"cuEventCreate", offsetof(mca_queue_cuda_driver_t, event_create)},
            {"cuEventRecord", offsetof(mca_queue_cuda_driver_t, event_record)},
            {"cuEventQuery", offsetof(mca_queue_cuda_driver_t, event_query)},
            {"cuEventDestroy", offsetof(mca_queue_cuda_driver_t, event_destroy)},
        };
        for (size_t i = 0; i < sizeof(procs) / sizeof(procs[0]); ++i) {
            ret = queue_cuda_resolve(getproc, v2, procs[i].symbol,
                                     (void **) ((char *) &queue_cuda_driver + procs[i].offset));
            if (OMPI_SUCCESS != ret) {
                return ret;
            }
        }
    }

    res = queue_cuda_driver.init(0);
    if (CUDA_SUCCESS != res) {
        return queue_cuda_fail("cuInit failed: %s", mca_queue_cuda_error_name(res));
    }
    res = queue_cuda_driver.driver_get_version(&version);
    if (CUDA_SUCCESS != res || version < QUEUE_CUDA_API_VERSION) {
        return queue_cuda_fail("the CUDA driver is older than 11.7 (%s)",
                               CUDA_SUCCESS != res ? mca_queue_cuda_error_name(res) : "too old");
    }
    res = queue_cuda_driver.device_get_count(&count);
    if (CUDA_SUCCESS != res || 0 == count) {
        return queue_cuda_fail("no CUDA device (%s)",
                               CUDA_SUCCESS != res ? mca_queue_cuda_error_name(res) : "count is 0");
    }

    opal_output_verbose(MCA_BASE_VERBOSE_COMPONENT, OMPI_QUEUE_BASE_OUTPUT,
                        "queue:cuda: driver %d.%d loaded, %d device(s)", version / 1000,
                        (version % 1000) / 10, count);
    return OMPI_SUCCESS;
}

int mca_queue_cuda_driver_open(const mca_queue_cuda_driver_t **driver, const char **reason)
{
    OPAL_THREAD_LOCK(&queue_cuda_driver_lock);
    if (!queue_cuda_driver_tried) {
        queue_cuda_driver_tried = true;
        queue_cuda_driver_status = queue_cuda_load();
        if (OMPI_SUCCESS != queue_cuda_driver_status && NULL != queue_cuda_driver_handle) {
            (void) opal_dl_close(queue_cuda_driver_handle);
            queue_cuda_driver_handle = NULL;
        }
    }
    OPAL_THREAD_UNLOCK(&queue_cuda_driver_lock);

    if (OMPI_SUCCESS != queue_cuda_driver_status) {
        *reason = queue_cuda_driver_reason;
        return queue_cuda_driver_status;
    }
    *driver = &queue_cuda_driver;
    return OMPI_SUCCESS;
}

void mca_queue_cuda_driver_close(void)
{
    OPAL_THREAD_LOCK(&queue_cuda_driver_lock);
    if (NULL != queue_cuda_driver_handle) {
        (void) opal_dl_close(queue_cuda_driver_handle);
        queue_cuda_driver_handle = NULL;
    }
    queue_cuda_driver_tried = false;
    queue_cuda_driver_status = OMPI_ERR_NOT_AVAILABLE;
    OPAL_THREAD_UNLOCK(&queue_cuda_driver_lock);
}
