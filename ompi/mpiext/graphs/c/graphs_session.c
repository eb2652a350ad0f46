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
 * The extension's record of a session whose graphs and streams it holds
 * (spec 1.0, D24): errors of calls on them go to the session's handler,
 * and so do errors that the MPI_Wait and MPI_Test families report for
 * their execution and isync requests.  Those calls find the handler
 * through the request's communicator (req_mpi_object.comm of a collective
 * request).  A communicator made from the session's self group would need
 * a collective construction and the PML's support of communicators from
 * groups, which pml/ucx of Open MPI 5.0.7 lacks; a request needs only a
 * handler.  So the record holds a stand-in communicator whose only use is
 * that lookup: its handler is ours, and passes the error on to the
 * session's handler of the moment (MPI_Session_set_errhandler may change
 * it).  It is never given to the program nor to any other framework.
 *
 * Records live until the extension's finalization (few: one per session
 * address); a later session at the address of a finalized one reuses its
 * record, which names the session only by that address.
 */

#include "ompi_config.h"

#include <stdarg.h>
#include <stdlib.h>

#include "opal/mca/threads/mutex.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/instance/instance.h"
#include "ompi/mpiext/graphs/c/graphs_session.h"

static graphs_session_t *graphs_sessions = NULL;
static opal_mutex_t graphs_sessions_lock = OPAL_MUTEX_STATIC_INIT;

/* the stand-ins' handler: not an object of the errhandler framework (its
 * constructor would give it a Fortran index and retain the MPI instance);
 * only its language and function are read */
static ompi_errhandler_t graphs_session_relay;
static char graphs_session_name[] = "MPIX session self";

static void graphs_session_relay_fn(MPI_Comm *comm, int *code, ...)
{
    graphs_session_t *s = (graphs_session_t *) *comm;
    const char *message;
    va_list ap;

    va_start(ap, code);
    message = va_arg(ap, const char *);
    va_end(ap);
    *code = ompi_errhandler_invoke(s->instance->error_handler, s->instance,
                                   s->instance->errhandler_type, *code, message);
}

int graphs_session_get(ompi_instance_t *instance, graphs_session_t **out)
{
    graphs_session_t *s;

    *out = NULL;
    if (NULL == instance || MPI_SESSION_NULL == instance) {
        return MPI_SUCCESS;
    }
    OPAL_THREAD_LOCK(&graphs_sessions_lock);
    for (s = graphs_sessions; NULL != s; s = s->next) {
        if (s->instance == instance) {
            break;
        }
    }
    if (NULL == s && NULL != (s = calloc(1, sizeof(*s)))) {
        graphs_session_relay.eh_lang = OMPI_ERRHANDLER_LANG_C;
        graphs_session_relay.eh_mpi_object_type = OMPI_ERRHANDLER_TYPE_COMM;
        graphs_session_relay.eh_comm_fn = graphs_session_relay_fn;
        s->comm.error_handler = &graphs_session_relay;
        s->comm.errhandler_type = OMPI_ERRHANDLER_TYPE_COMM;
        s->comm.instance = instance;
        s->comm.c_name = graphs_session_name;
        s->instance = instance;
        s->next = graphs_sessions;
        graphs_sessions = s;
    }
    OPAL_THREAD_UNLOCK(&graphs_sessions_lock);
    *out = s;
    return NULL == s ? MPI_ERR_NO_MEM : MPI_SUCCESS;
}

void graphs_session_flush(void)
{
    OPAL_THREAD_LOCK(&graphs_sessions_lock);
    while (NULL != graphs_sessions) {
        graphs_session_t *s = graphs_sessions;
        graphs_sessions = s->next;
        free(s);
    }
    OPAL_THREAD_UNLOCK(&graphs_sessions_lock);
}
