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
 * The owners of requests (request_owner.h): a few frameworks register once,
 * so the table is small and read without a lock by the completion calls;
 * registration takes the lock and publishes an owner after its slot is
 * written.
 */

#include "ompi_config.h"

#include <stdio.h>

#include "opal/mca/threads/mutex.h"
#include "ompi/communicator/communicator.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/request/request_owner.h"

opal_atomic_int32_t ompi_request_owned = 0;
ompi_request_complete_fn_t volatile ompi_request_owner_callbacks[OMPI_REQUEST_OWNERS_MAX];
volatile int ompi_request_owner_ncallbacks = 0;

/* refusing owners first, then driving ones */
static const ompi_request_owner_t *volatile request_owners[OMPI_REQUEST_OWNERS_MAX];
static volatile int request_owners_count = 0;
static opal_mutex_t request_owners_lock = OPAL_MUTEX_STATIC_INIT;

/* lock held: the owners' completion callbacks, for the inline test of
 * request_owner.h (written before the count that publishes them) */
static void request_owner_callbacks_update(void)
{
    int n = 0;

    for (int i = 0; i < request_owners_count; ++i) {
        if (NULL != request_owners[i]->completed) {
            ompi_request_owner_callbacks[n++] = request_owners[i]->completed;
        }
    }
    opal_atomic_wmb();
    ompi_request_owner_ncallbacks = n;
}

int ompi_request_owner_register(const ompi_request_owner_t *owner)
{
    int ret = OMPI_SUCCESS;

    OPAL_THREAD_LOCK(&request_owners_lock);
    if (OMPI_REQUEST_OWNERS_MAX == request_owners_count) {
        ret = OMPI_ERR_OUT_OF_RESOURCE;
    } else {
        int i = request_owners_count;
        /* keep the refusing owners before the driving ones */
        while (0 < i && NULL != owner->refusal && NULL == request_owners[i - 1]->refusal) {
            request_owners[i] = request_owners[i - 1];
            --i;
        }
        request_owners[i] = owner;
        opal_atomic_wmb();
        request_owners_count++;
        request_owner_callbacks_update();
    }
    OPAL_THREAD_UNLOCK(&request_owners_lock);
    return ret;
}

void ompi_request_owner_unregister(const ompi_request_owner_t *owner)
{
    OPAL_THREAD_LOCK(&request_owners_lock);
    for (int i = 0; i < request_owners_count; ++i) {
        if (request_owners[i] == owner) {
            for (int j = i + 1; j < request_owners_count; ++j) {
                request_owners[j - 1] = request_owners[j];
            }
            request_owners_count--;
            request_owner_callbacks_update();
            break;
        }
    }
    OPAL_THREAD_UNLOCK(&request_owners_lock);
}

int ompi_request_owner_check_slow(int count, ompi_request_t **requests,
                                  ompi_request_owner_mode_t mode, const char *func)
{
    int n = request_owners_count;

    opal_atomic_rmb();
    for (int i = 0; i < n; ++i) {
        const ompi_request_owner_t *owner = request_owners[i];
        int bad = owner->check(count, requests, mode);

        if (OPAL_UNLIKELY(0 <= bad)) {
            char msg[MPI_MAX_ERROR_STRING];
            snprintf(msg, sizeof(msg), "%s: %s", func, owner->refusal);
            return OMPI_ERRHANDLER_INVOKE(requests[bad]->req_mpi_object.comm, MPI_ERR_REQUEST,
                                          msg);
        }
    }
    return MPI_SUCCESS;
}

