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

#include <stdio.h>
#include <stdlib.h>

#include "opal/mca/threads/mutex.h"
#include "opal/util/output.h"
#include "opal/util/printf.h"
#include "ompi/constants.h"
#include "ompi/errhandler/errcode-internal.h"
#include "ompi/mca/match/base/match_request.h"
#include "ompi/mca/queue/base/base.h"
#include "ompi/mca/queue/base/queue_object.h"
#include "ompi/mca/queue/base/queue_host.h"
#include "ompi/mca/queue/base/queue_stream_capture.h"

/* How many freed objects wait before their memory is reused. */
#define OMPI_QUEUE_RETIRED_MAX 64

ompi_predefined_queue_t ompi_mpi_queue_null = {{{{0}}}};
opal_pointer_array_t ompi_queue_f_to_c_table = {{0}};

static opal_list_t ompi_queue_retired;
static opal_mutex_t ompi_queue_lock;
static bool ompi_queue_objects_ready = false;

static void ompi_queue_construct(ompi_queue_t *queue)
{
    queue->q_f_to_c_index = -1;
    queue->q_state = OMPI_QUEUE_STATE_NULL;
    queue->q_type = MPI_QUEUE_TYPE_DEFAULT;
    queue->q_external = NULL;
    queue->q_module = NULL;
    queue->q_module_data = NULL;
}

OBJ_CLASS_INSTANCE(ompi_queue_t, opal_list_item_t, ompi_queue_construct, NULL);

int ompi_queue_objects_init(void)
{
    if (ompi_queue_objects_ready) {
        return OMPI_SUCCESS;
    }
    OBJ_CONSTRUCT(&ompi_queue_retired, opal_list_t);
    OBJ_CONSTRUCT(&ompi_queue_lock, opal_mutex_t);
    OBJ_CONSTRUCT(&ompi_queue_f_to_c_table, opal_pointer_array_t);
    if (OPAL_SUCCESS != opal_pointer_array_init(&ompi_queue_f_to_c_table, 8,
                                                OMPI_FORTRAN_HANDLE_MAX, 32)) {
        OBJ_DESTRUCT(&ompi_queue_f_to_c_table);
        OBJ_DESTRUCT(&ompi_queue_lock);
        OBJ_DESTRUCT(&ompi_queue_retired);
        return OMPI_ERR_OUT_OF_RESOURCE;
    }

    if (OMPI_SUCCESS != ompi_queue_host_init()) {
        OBJ_DESTRUCT(&ompi_queue_f_to_c_table);
        OBJ_DESTRUCT(&ompi_queue_lock);
        OBJ_DESTRUCT(&ompi_queue_retired);
        return OMPI_ERR_OUT_OF_RESOURCE;
    }

    /* MPI_QUEUE_NULL takes Fortran index 0 */
    OBJ_CONSTRUCT(&ompi_mpi_queue_null.queue, ompi_queue_t);
    ompi_mpi_queue_null.queue.q_f_to_c_index
        = opal_pointer_array_add(&ompi_queue_f_to_c_table, &ompi_mpi_queue_null.queue);
    ompi_queue_objects_ready = true;
    return OMPI_SUCCESS;
}

static void ompi_queue_dispose(ompi_queue_t *queue)
{
    OBJ_DESTRUCT(queue);
    free(queue);
}

void ompi_queue_objects_finalize(void)
{
    ompi_queue_t *queue;
    int size;

    if (!ompi_queue_objects_ready) {
        return;
    }

    /* Queues the program never freed go with MPI. */
    size = opal_pointer_array_get_size(&ompi_queue_f_to_c_table);
    for (int i = 1; i < size; ++i) {
        queue = (ompi_queue_t *) opal_pointer_array_get_item(&ompi_queue_f_to_c_table, i);
        if (NULL != queue) {
            opal_output_verbose(MCA_BASE_VERBOSE_WARN, OMPI_QUEUE_BASE_OUTPUT,
                                "queue:base: a queue (Fortran handle %d) was not freed before finalize",
                                i);
            (void) ompi_queue_release(queue);
        }
    }
    while (NULL != (queue = (ompi_queue_t *) opal_list_remove_first(&ompi_queue_retired))) {
        ompi_queue_dispose(queue);
    }

    ompi_queue_stream_capture_fini();
    ompi_queue_host_fini();
    OBJ_DESTRUCT(&ompi_mpi_queue_null.queue);
    OBJ_DESTRUCT(&ompi_queue_f_to_c_table);
    OBJ_DESTRUCT(&ompi_queue_lock);
    OBJ_DESTRUCT(&ompi_queue_retired);
    ompi_queue_objects_ready = false;
}

static ompi_queue_t *ompi_queue_alloc(void)
{
    ompi_queue_t *queue = NULL;

    OPAL_THREAD_LOCK(&ompi_queue_lock);
    if (opal_list_get_size(&ompi_queue_retired) >= OMPI_QUEUE_RETIRED_MAX) {
        queue = (ompi_queue_t *) opal_list_remove_first(&ompi_queue_retired);
    }
    OPAL_THREAD_UNLOCK(&ompi_queue_lock);

    if (NULL != queue) {
        OBJ_DESTRUCT(queue);
    } else {
        queue = malloc(sizeof(*queue));
        if (NULL == queue) {
            return NULL;
        }
    }
    OBJ_CONSTRUCT(queue, ompi_queue_t);
    return queue;
}

static void ompi_queue_retire(ompi_queue_t *queue)
{
    queue->q_state = OMPI_QUEUE_STATE_FREED;
    OPAL_THREAD_LOCK(&ompi_queue_lock);
    opal_list_append(&ompi_queue_retired, &queue->super);
    OPAL_THREAD_UNLOCK(&ompi_queue_lock);
}

static char *ompi_queue_type_string(int type)
{
    const char *name = mca_queue_base_type_name(type);
    char *str = NULL;

    if (NULL != name) {
        opal_asprintf(&str, "%s (%d)", name, type);
    } else {
        opal_asprintf(&str, "%d", type);
    }
    return str;
}

int ompi_queue_create(int type, void *external, ompi_queue_t **queue_out, char **msg)
{
    mca_queue_base_module_t *module = NULL;
    const char *reason = NULL;
    const char *reason_component = NULL;
    ompi_queue_t *queue;
    char *type_str;
    int ret;

    *msg = NULL;
    for (int i = 0; i < mca_queue_base_available.count; ++i) {
        mca_queue_base_module_t *candidate = mca_queue_base_available.modules[i];
        const char *why = NULL;

        ret = candidate->queue_query(candidate, type, external, &why);
        if (OMPI_SUCCESS == ret) {
            module = candidate;
            break;
        }
        if (OMPI_ERR_NOT_SUPPORTED != ret && NULL == reason) {
            reason = (NULL != why) ? why : "the component refused it";
            reason_component = candidate->queue_component->queuem_version.mca_component_name;
        }
    }

    if (NULL == module) {
        type_str = ompi_queue_type_string(type);
        if (NULL != reason) {
            opal_asprintf(msg, "queue type %s cannot be used: %s (queue component %s)",
                          type_str, reason, reason_component);
        } else if (NULL != mca_queue_base_type_name(type)) {
            opal_asprintf(msg, "queue type %s is not served by any available queue "
                          "component (see ompi_info --param queue all and OMPI_MCA_queue)",
                          type_str);
        } else {
            opal_asprintf(msg, "unknown queue type %s", type_str);
        }
        free(type_str);
        opal_output_verbose(MCA_BASE_VERBOSE_WARN, OMPI_QUEUE_BASE_OUTPUT, "queue:base: %s",
                            NULL != *msg ? *msg : "queue type refused");
        return OMPI_ERR_BAD_PARAM;
    }

    queue = ompi_queue_alloc();
    if (NULL == queue) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    queue->q_type = type;
    queue->q_external = external;
    queue->q_module = module;

    ret = module->queue_create(queue, external);
    if (OMPI_SUCCESS != ret) {
        ompi_queue_dispose(queue);
        return ret;
    }

    queue->q_f_to_c_index = opal_pointer_array_add(&ompi_queue_f_to_c_table, queue);
    if (0 > queue->q_f_to_c_index) {
        (void) module->queue_destroy(queue);
        ompi_queue_dispose(queue);
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    queue->q_state = OMPI_QUEUE_STATE_LIVE;

    opal_output_verbose(MCA_BASE_VERBOSE_TRACE, OMPI_QUEUE_BASE_OUTPUT,
                        "queue:base: queue %d of type %d served by %s", queue->q_f_to_c_index,
                        type, module->queue_component->queuem_version.mca_component_name);
    *queue_out = queue;
    return OMPI_SUCCESS;
}

int ompi_queue_release(ompi_queue_t *queue)
{
    int ret;

    ret = queue->q_module->queue_destroy(queue);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    opal_output_verbose(MCA_BASE_VERBOSE_TRACE, OMPI_QUEUE_BASE_OUTPUT,
                        "queue:base: queue %d freed", queue->q_f_to_c_index);
    (void) opal_pointer_array_set_item(&ompi_queue_f_to_c_table, queue->q_f_to_c_index, NULL);
    queue->q_f_to_c_index = -1;
    queue->q_module_data = NULL;
    ompi_queue_retire(queue);
    return OMPI_SUCCESS;
}

int ompi_queue_enqueue_error(int ret, ompi_request_t **requests,
                             const mca_queue_base_refusal_t *refusal, const char *func,
                             const char *what)
{
    if (OMPI_ERR_REQUEST == ret) {
        /* a refused member: no member was enqueued */
        return mca_match_base_error(requests[refusal->index], MPI_ERR_REQUEST, func,
                                    refusal->reason);
    }
    if (OMPI_ERR_NOT_SUPPORTED == ret) {
        /* (Open MPI's table gives MPI_ERR_INTERN for that code) */
        return mca_match_base_error(requests[0], MPI_ERR_UNSUPPORTED_OPERATION, func,
                                    "the queue's stream is being captured into a graph: "
                                    "enqueued operations cannot be captured");
    }
    return mca_match_base_error(requests[0], ompi_errcode_get_mpi_code(ret), func, what);
}
