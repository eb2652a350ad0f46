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
 * Strong progress on request: a thread that calls opal_progress(), and so
 * advances every PML, collective, partitioned and queue operation, while the
 * application makes no MPI call.
 *
 * Requested by the MCA parameter mpi_async_progress or by the info key
 * mpi_strong_progress=true given to MPI_Session_init (the first instance
 * decides).  When requested, the library runs thread safe whatever thread
 * level the application asked for.  The key mpi_strong_progress in
 * MPI_INFO_ENV and in MPI_Session_get_info says whether the thread runs.
 */

#ifndef OMPI_RUNTIME_ASYNC_PROGRESS_H
#define OMPI_RUNTIME_ASYNC_PROGRESS_H

#include "ompi_config.h"

#include "opal/sys/atomic.h"
#include "opal/util/info.h"

BEGIN_C_DECLS

/** Info key (MPI_Session_init hint, MPI_INFO_ENV, MPI_Session_get_info). */
#define OMPI_ASYNC_PROGRESS_INFO_KEY "mpi_strong_progress"

/** Register the MCA parameters (idempotent). */
OMPI_DECLSPEC int ompi_async_progress_register(void);

/** Record the hint of an MPI_Session_init info object (may be NULL). */
OMPI_DECLSPEC void ompi_async_progress_hint(opal_info_t *info);

/**
 * Decide, before the PML is selected, whether the thread will run; if so,
 * make the library thread safe from here on.
 */
OMPI_DECLSPEC void ompi_async_progress_configure(void);

/** Start the thread if it was decided (end of the first initialization). */
OMPI_DECLSPEC int ompi_async_progress_start(void);

/** Stop the thread, waiting for it (start of the last finalization). */
OMPI_DECLSPEC void ompi_async_progress_stop(void);

/**
 * A component that needs a host agent (GPU queues) asks for the thread.
 * Reference counted with ompi_async_progress_release().
 *
 * @retval OMPI_SUCCESS            the thread runs
 * @retval OMPI_ERR_NOT_AVAILABLE  the library was not made thread safe at
 *                                 initialization (neither MPI_THREAD_MULTIPLE
 *                                 nor strong progress was requested)
 */
OMPI_DECLSPEC int ompi_async_progress_request(void);
OMPI_DECLSPEC void ompi_async_progress_release(void);

/** Whether the thread runs now. */
OMPI_DECLSPEC bool ompi_async_progress_active(void);

/** Write the mpi_strong_progress key into an info object. */
OMPI_DECLSPEC void ompi_async_progress_set_info(opal_info_t *info);

/** Nonzero while the thread runs (read by ompi_async_progress_wake). */
OMPI_DECLSPEC extern opal_atomic_int32_t ompi_async_progress_running;

OMPI_DECLSPEC void ompi_async_progress_kick(void);

/** Holders of work that progress must finish (active executions). */
OMPI_DECLSPEC extern opal_atomic_int32_t ompi_async_progress_busy;

/**
 * Work that only progress completes starts (delta 1) or ends (-1): while
 * any is pending the thread never backs off into a sleep, as a message
 * that arrives during one would wait for its end.
 */
static inline void ompi_async_progress_busy_add(int32_t delta)
{
    (void) opal_atomic_add_fetch_32(&ompi_async_progress_busy, delta);
}

/** Holders of work that a device completes (stream queues with entries). */
OMPI_DECLSPEC extern opal_atomic_int32_t ompi_async_progress_watched;

/**
 * Work that a device completes while the program makes no call (a start
 * behind a trigger word that a stream writes once its earlier kernels
 * have run) is enqueued (delta 1) or all done (-1).  While any is pending
 * the thread sleeps at most mpi_async_progress_watch_sleep_us (0, the
 * default: never, it yields between polls), so that it sees the trigger
 * soon after the device writes it, however long the device took to reach
 * it.  The first holder wakes a thread that sleeps.  Any thread.
 */
OMPI_DECLSPEC void ompi_async_progress_watch_add(int32_t delta);

/**
 * New work was handed to progress (an execution joined the active list):
 * an idle thread that backed off into a sleep of up to
 * mpi_async_progress_max_sleep_us starts progressing at once instead of at
 * the end of its sleep.  One load when the thread does not run.
 */
static inline void ompi_async_progress_wake(void)
{
    if (0 != __atomic_load_n(&ompi_async_progress_running, __ATOMIC_RELAXED)) {
        ompi_async_progress_kick();
    }
}

END_C_DECLS

#endif /* OMPI_RUNTIME_ASYNC_PROGRESS_H */
