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
 * Held executions: blocking-only nodes that, in a library that is not
 * thread safe, the MPI_Wait and MPI_Test families run in the program's
 * thread (spec 4.2; see graphs_engine.h).  The executor is an owner of the
 * requests of held executions (ompi/request/request_owner.h) that drives.
 */

#include "ompi_config.h"

#include <stdlib.h>

#include "opal/runtime/opal_progress.h"
#include "ompi/constants.h"
#include "ompi/mpiext/graphs/c/graphs_engine.h"
#include "ompi/request/request_owner.h"

/* Held executions (see graphs_engine_hold): few, looked up by request.
 * They exist only in a library that is not thread safe, where the lock is
 * a no-op; it is taken all the same, so that the table stays consistent if
 * that ever changes. */
typedef struct {
    graphs_engine_t *exec;
    ompi_request_t *req;  /* NULL: freed by the program (orphan) */
} exec_held_t;

static int32_t exec_nheld = 0;
static exec_held_t *exec_held = NULL;
static int32_t exec_held_size = 0;
static opal_mutex_t exec_held_lock = OPAL_MUTEX_STATIC_INIT;

static int exec_held_check(int count, ompi_request_t **reqs, ompi_request_owner_mode_t mode);

static const ompi_request_owner_t exec_held_owner = {
    .completed = NULL,
    .refusal = NULL,
    .check = exec_held_check,
};
static bool exec_held_registered = false;

int graphs_engine_hold(graphs_engine_t *exec, ompi_request_t *req)
{
    OPAL_THREAD_LOCK(&exec_held_lock);
    if (!exec_held_registered) {
        if (OMPI_SUCCESS != ompi_request_owner_register(&exec_held_owner)) {
            OPAL_THREAD_UNLOCK(&exec_held_lock);
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
        exec_held_registered = true;
    }
    if (exec_nheld == exec_held_size) {
        int32_t size = exec_held_size ? 2 * exec_held_size : 8;
        exec_held_t *held = realloc(exec_held, size * sizeof(*held));
        if (NULL == held) {
            OPAL_THREAD_UNLOCK(&exec_held_lock);
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
        exec_held = held;
        exec_held_size = size;
    }
    exec_held[exec_nheld].exec = exec;
    exec_held[exec_nheld].req = req;
    exec_nheld++;
    (void) OPAL_THREAD_ADD_FETCH32(&ompi_request_owned, 1);
    OPAL_THREAD_UNLOCK(&exec_held_lock);
    return OMPI_SUCCESS;
}

/* held lock held: the index of the pair (exec, req) in the table, an
 * orphan of exec counting as any request, or -1 */
static int32_t exec_held_index(const graphs_engine_t *exec, const ompi_request_t *req)
{
    for (int32_t i = 0; i < exec_nheld; ++i) {
        if (exec_held[i].exec == exec && (exec_held[i].req == req || NULL == exec_held[i].req)) {
            return i;
        }
    }
    return -1;
}

void graphs_engine_orphan(graphs_engine_t *exec, ompi_request_t *req)
{
    int32_t i;

    OPAL_THREAD_LOCK(&exec_held_lock);
    if (0 <= (i = exec_held_index(exec, req))) {
        exec_held[i].req = NULL;
    }
    OPAL_THREAD_UNLOCK(&exec_held_lock);
}

void graphs_engine_unhold(graphs_engine_t *exec, ompi_request_t *req)
{
    int32_t i;

    OPAL_THREAD_LOCK(&exec_held_lock);
    if (0 <= (i = exec_held_index(exec, req))) {
        exec_held[i] = exec_held[--exec_nheld];
        (void) OPAL_THREAD_ADD_FETCH32(&ompi_request_owned, -1);
    }
    if (0 == exec_nheld) {
        free(exec_held);
        exec_held = NULL;
        exec_held_size = 0;
    }
    OPAL_THREAD_UNLOCK(&exec_held_lock);
}

/* the held execution waited for through req (NULL: an orphan), from index
 * *from on; NULL when there is none */
static graphs_engine_t *exec_held_next(const ompi_request_t *req, int32_t *from)
{
    graphs_engine_t *exec = NULL;

    OPAL_THREAD_LOCK(&exec_held_lock);
    for (; *from < exec_nheld; ++*from) {
        if (exec_held[*from].req == req) {
            exec = exec_held[(*from)++].exec;
            break;
        }
    }
    OPAL_THREAD_UNLOCK(&exec_held_lock);
    return exec;
}

/* no lock held: the advance may start a blocking-only node, which runs
 * opal_progress, where another held execution may complete and leave the
 * table */
static void exec_held_advance(graphs_engine_t *exec)
{
    OPAL_THREAD_LOCK(&exec->lock);
    (void) graphs_engine_advance(exec, true);
    OPAL_THREAD_UNLOCK(&exec->lock);
}

/* the owner's check: drive the held executions among reqs as mode says,
 * calling opal_progress between passes; never refuses */
static int exec_held_check(int count, ompi_request_t **reqs, ompi_request_owner_mode_t mode)
{
    for (;;) {
        bool driven = false, any_active = false, any_done = false, all_done = true;
        graphs_engine_t *exec;
        int32_t from;

        for (int i = 0; i < count; ++i) {
            ompi_request_t *req = reqs[i];

            if (NULL == req || OMPI_REQUEST_INACTIVE == req->req_state) {
                continue;
            }
            any_active = true;
            if (ompi_request_seen_complete(req)) {
                any_done = true;
                continue;
            }
            from = 0;
            if (NULL != (exec = exec_held_next(req, &from))) {
                exec_held_advance(exec);
                driven = true;
                all_done = false;
            }
        }
        if (OMPI_REQUEST_OWNER_TEST != mode) {
            /* freed requests: nobody else waits for their executions (an
             * index may be visited twice or skipped when the table changes
             * meanwhile; the next pass or call takes it) */
            from = 0;
            while (NULL != (exec = exec_held_next(NULL, &from))) {
                exec_held_advance(exec);
                driven = true;
            }
        }
        if (!driven || !any_active || OMPI_REQUEST_OWNER_TEST == mode
            || (OMPI_REQUEST_OWNER_ANY == mode && any_done)
            || (OMPI_REQUEST_OWNER_ALL == mode && all_done)) {
            return -1;
        }
        /* completes what the advance started, and calls the done callback
         * of an execution that completed */
        opal_progress();
    }
}

void graphs_engine_held_fini(void)
{
    OPAL_THREAD_LOCK(&exec_held_lock);
    if (exec_held_registered) {
        ompi_request_owner_unregister(&exec_held_owner);
        exec_held_registered = false;
    }
    OPAL_THREAD_UNLOCK(&exec_held_lock);
}
