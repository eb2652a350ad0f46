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
 * What the generated bindings share (contrib/graphs/gen-bindings.py): the
 * checks of their arguments, one per kind of argument, with the error classes
 * the blocking calls give; the count conversion of the large-count (_c) ones;
 * the reporting of errors on the extension's objects; and the recording of
 * arguments given as graph variables.
 */

#ifndef OMPI_MPIEXT_GRAPHS_BINDINGS_H
#define OMPI_MPIEXT_GRAPHS_BINDINGS_H

#include "ompi_config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "opal/mca/threads/thread_usage.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/file/file.h"
#include "ompi/info/info.h"
#include "ompi/instance/instance.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/mpi/c/bindings.h"
#include "ompi/mpiext/graphs/c/graphs.h"

/*
 * The checks of the bindings' arguments, one per kind of argument (the kinds
 * of contrib/graphs/gen-bindings.py): the graphs_*_invalid ones are true when
 * the argument is wrong, for the class MPI_Send, MPI_Bcast, ... report for
 * it; the graphs_check_* ones return that class.
 */

static inline bool graphs_type_null(const ompi_datatype_t *dtype)
{
    return MPI_DATATYPE_NULL == dtype || NULL == dtype;
}

/* a receive may take any tag */
static inline bool graphs_tag_invalid(int tag, bool is_recv)
{
    if (is_recv && MPI_ANY_TAG == tag) {
        return false;
    }
    return 0 > tag || mca_pml.pml_max_tag < tag;
}

/* a receive may take any source; MPI_PROC_NULL is a peer of every call */
static inline bool graphs_peer_invalid(ompi_communicator_t *comm, int peer, bool is_recv)
{
    if (MPI_PROC_NULL == peer || (is_recv && MPI_ANY_SOURCE == peer)) {
        return false;
    }
    return ompi_comm_peer_invalid(comm, peer);
}

/* a root, or a process a call watches: a member of an intracommunicator */
static inline bool graphs_member_invalid(ompi_communicator_t *comm, int rank)
{
    return 0 > rank || ompi_comm_size(comm) <= rank;
}

/* an operation for dtype (a NULL one is refused before it is looked at) */
static inline bool graphs_op_invalid(ompi_op_t *op, ompi_datatype_t *dtype)
{
    char *msg = NULL;
    bool bad = NULL == op || MPI_OP_NULL == op || !ompi_op_is_valid(op, dtype, &msg, "MPIX_def");

    free(msg);
    return bad;
}

static inline bool graphs_info_invalid(ompi_info_t *info)
{
    return NULL == info || ompi_info_is_freed(info);
}

/** The count elements of dtype that a call sends or receives.
 * @return MPI_SUCCESS, MPI_ERR_TYPE or MPI_ERR_COUNT */
static inline int graphs_check_buf(ompi_datatype_t *dtype, MPI_Count count, bool is_recv)
{
    int rc = MPI_SUCCESS;

    if (is_recv) {
        OMPI_CHECK_DATATYPE_FOR_RECV(rc, dtype, count);
    } else {
        OMPI_CHECK_DATATYPE_FOR_SEND(rc, dtype, count);
    }
    return rc;
}

/** A NULL buffer for count elements of a datatype without absolute
 * addresses: MPI_Send's and MPI_Recv's MPI_ERR_BUFFER. */
static inline bool graphs_buf_null(const void *buf, ompi_datatype_t *dtype, MPI_Count count)
{
    int rc = MPI_SUCCESS;

    OMPI_CHECK_USER_BUFFER(rc, buf, dtype, count);
    return MPI_SUCCESS != rc;
}

/** The copy of MPIX_Copy_mem(_def): overlap is detected (spec 1.7).
 * @return MPI_SUCCESS, or MPI_ERR_ARG with *msg saying why */
static inline int graphs_check_copy(void *dst, const void *src, MPI_Aint size, const char **msg)
{
    uintptr_t d = (uintptr_t) dst, s = (uintptr_t) src;

    if (size < 0) {
        *msg = "MPIX_Copy_mem: size is negative";
        return MPI_ERR_ARG;
    }
    if (0 == size) {
        return MPI_SUCCESS;
    }
    if (NULL == dst || NULL == src) {
        *msg = "MPIX_Copy_mem: a NULL buffer with a positive size";
        return MPI_ERR_ARG;
    }
    if (d < s + (uintptr_t) size && s < d + (uintptr_t) size) {
        *msg = "MPIX_Copy_mem: the source and destination ranges overlap";
        return MPI_ERR_ARG;
    }
    return MPI_SUCCESS;
}

/** MPIX_Copy_mem, its copy checked (graphs_check_copy). */
static inline int graphs_copy_mem(void *dst, const void *src, MPI_Aint size)
{
    if (0 < size) {
        memcpy(dst, src, (size_t) size);
    }
    return MPI_SUCCESS;
}

/** Report a failed argument check of a binding on a communicator as
 * Open MPI's bindings do (OMPI_ERRHANDLER_CHECK): the communicator's handler
 * is called, and the call returns the class whatever the handler did with
 * its code. */
static inline int graphs_comm_error(ompi_communicator_t *comm, int err, const char *msg)
{
    int code = ompi_errcode_get_mpi_code(err);

    ompi_errhandler_invoke(comm->error_handler, comm, (int) comm->errhandler_type, code, msg);
    return code;
}

/* why graphs_big_args refused (*why): the message of each, for the binding fn */
enum {
    GRAPHS_BIG_OK = 0,
    GRAPHS_BIG_VAR_BOUND,
    GRAPHS_BIG_OP,
    GRAPHS_BIG_TYPE,
    GRAPHS_BIG_COUNT,
};
#define GRAPHS_BIG_MSGS(fn)                                                                    \
    {fn, fn ": a count above INT_MAX needs its datatype and operation as arguments, not from " \
            "graph variables",                                                                 \
     fn ": a reduction of more than INT_MAX elements needs a predefined operation",            \
     fn ": a reduction of more than INT_MAX elements needs a predefined datatype",             \
     fn ": the count is too large"}

/**
 * A large-count (_c) binding's count and datatype as its token carries them
 * (graphs_count_type); for a reduction (op not NULL) above INT_MAX, *op
 * becomes the operation that applies to them (graphs_big_op).  Above
 * INT_MAX the datatype and the operation are needed now, not from graph
 * variables (var_bound).
 *
 * @param[out] type  retained (the caller's reference)
 * @param[out] why   GRAPHS_BIG_*: the message to report with an error
 * @return MPI_SUCCESS or an MPI error class
 */
static inline int graphs_big_args(MPI_Count count, ompi_datatype_t *dtype, ompi_op_t **op,
                                  bool var_bound, ompi_datatype_t **type, int *icount, int *why)
{
    int rc;

    *why = GRAPHS_BIG_OK;
    if (count > INT_MAX && var_bound) {
        *why = GRAPHS_BIG_VAR_BOUND;
        return MPI_ERR_ARG;
    }
    if (count > INT_MAX && NULL != op) {
        rc = graphs_big_op(*op, dtype, op);
        if (MPI_SUCCESS != rc) {
            *why = (MPI_ERR_OP == rc)     ? GRAPHS_BIG_OP
                   : (MPI_ERR_TYPE == rc) ? GRAPHS_BIG_TYPE
                                          : GRAPHS_BIG_OK;
            return rc;
        }
    }
    rc = graphs_count_type(count, dtype, type, icount);
    if (MPI_ERR_COUNT == rc) {
        *why = GRAPHS_BIG_COUNT;
    }
    return rc;
}

/** Report an error of a call on an object of the extension: the handler of
 * its session (record s), or as the queue functions do (World model, s
 * NULL). */
static inline int graphs_object_error(const graphs_session_t *s, int err, const char *msg)
{
    if (NULL != s) {
        return OMPI_ERRHANDLER_INVOKE(s->instance, err, msg);
    }
    return OMPI_ERRHANDLER_NOHANDLE_INVOKE(err, msg);
}

/** Report an error of a call on a valid stream: its session's error handler
 * (Sessions model), or as the queue functions do (World model). */
static inline int graphs_stream_error(ompi_mpix_stream_t *stream, int err, const char *msg)
{
    return graphs_object_error(stream->session, err, msg);
}

static inline int graphs_session_error(ompi_instance_t *session, int err, const char *msg)
{
    if (MPI_SESSION_NULL != session) {
        return OMPI_ERRHANDLER_INVOKE(session, err, msg);
    }
    return OMPI_ERRHANDLER_NOHANDLE_INVOKE(err, msg);
}


/* ------------------------------------------------------------------
 * Graph variables as arguments (spec 1.2.3): a _def records each argument
 * given as MPIX_VAR*(id) and puts a harmless placeholder in its place for
 * the checks; the token resolves them when it starts inside a graph.
 */

typedef struct {
    int n;
    bool overflow;
    graphs_vbind_t b[GRAPHS_TOKEN_VB];
} graphs_vb_t;

/* a _def's bindings start empty; the entries are written as they are pushed
 * (not cleared: a _def is on the per-message path of streams) */
#define GRAPHS_VB_START(vb) \
    do {                    \
        (vb).n = 0;         \
        (vb).overflow = false; \
    } while (0)

/** The variable of a pointer-form encoding (MPIX_VAR, MPIX_VAR_ADDR), or -1. */
static inline int graphs_var_ptr_id(const void *p, int *enc)
{
    /* the two sentinel rows are contiguous: one comparison tells an
     * ordinary pointer */
    uintptr_t d = (uintptr_t) p - (uintptr_t) ompi_mpix_var_sentinel[0];

    if (OPAL_LIKELY(d >= 2 * MPIX_GRAPH_VAR_MAX)) {
        return -1;
    }
    *enc = (d < MPIX_GRAPH_VAR_MAX) ? GRAPHS_VE_STORAGE : GRAPHS_VE_ADDR;
    return (int) (d % MPIX_GRAPH_VAR_MAX);
}

/** Whether p may be a pointer-form encoding (a cheap first test). */
static inline int graphs_var_ptr_maybe(const void *p)
{
    return (uintptr_t) p - (uintptr_t) ompi_mpix_var_sentinel[0] < 2 * MPIX_GRAPH_VAR_MAX;
}

static inline int graphs_var_int_id(int v)
{
    /* MPIX_VAR_INT(id) = base - id, id in [0, MPIX_GRAPH_VAR_MAX) */
    const unsigned d = (unsigned) -(1 << 30) - (unsigned) v;
    return OPAL_LIKELY(d >= MPIX_GRAPH_VAR_MAX) ? -1 : (int) d;
}

static inline int graphs_var_i64_id(int64_t v)
{
    const uint64_t d = (uint64_t) -((int64_t) 1 << 62) - (uint64_t) v;
    return OPAL_LIKELY(d >= MPIX_GRAPH_VAR_MAX) ? -1 : (int) d;
}

static inline void graphs_vb_push(graphs_vb_t *vb, size_t off, int ftype, int enc, int role,
                                  int ltype, int var, int count_off, int dtype_off)
{
    graphs_vbind_t *b;

    if (vb->n == GRAPHS_TOKEN_VB) {
        vb->overflow = true;
        return;
    }
    b = &vb->b[vb->n++];
    b->off = (uint16_t) off;
    b->ftype = (uint8_t) ftype;
    b->enc = (uint8_t) enc;
    b->role = (uint8_t) role;
    b->ltype = (int8_t) ltype;
    b->var = (int16_t) var;
    b->count_off = (int16_t) count_off;
    b->dtype_off = (int16_t) dtype_off;
}

static inline bool graphs_vb_has(const graphs_vb_t *vb, size_t off)
{
    for (int i = 0; i < vb->n; ++i) {
        if (vb->b[i].off == off) {
            return true;
        }
    }
    return false;
}

static inline void graphs_vb_commit(ompi_mpix_token_t *t, const graphs_vb_t *vb)
{
    t->nvb = vb->n;
    if (0 < vb->n) {
        memcpy(t->vb, vb->b, vb->n * sizeof(graphs_vbind_t));
    }
}

#define GRAPHS_TOFF(f) offsetof(ompi_mpix_token_t, f)

/* a buffer or OUT pointer: MPIX_VAR (storage) or MPIX_VAR_ADDR */
#define GRAPHS_VB_PTR(vb, param, off, role, coff, doff)                                    \
    do {                                                                                   \
        int e_, id_ = graphs_var_ptr_id((const void *) (param), &e_);                      \
        if (0 <= id_) {                                                                    \
            graphs_vb_push(&(vb), (off), GRAPHS_FT_PTR, e_, (role), -1, id_, (coff), (doff)); \
        }                                                                                  \
    } while (0)

/* a handle or string passed by value: MPIX_VAR is the variable's value */
#define GRAPHS_VB_HANDLE(vb, param, off, ltype, placeholder)                                \
    do {                                                                                   \
        int e_, id_ = graphs_var_ptr_id((const void *) (param), &e_);                      \
        if (0 <= id_ && GRAPHS_VE_STORAGE == e_) {                                         \
            graphs_vb_push(&(vb), (off), GRAPHS_FT_PTR, GRAPHS_VE_VALUE, GRAPHS_VR_HANDLE, \
                           (ltype), id_, -1, -1);                                          \
            (param) = (placeholder);                                                       \
        }                                                                                  \
    } while (0)

#define GRAPHS_VB_INT(vb, param, off, role, placeholder)                                    \
    do {                                                                                   \
        int id_ = graphs_var_int_id(param);                                                \
        if (0 <= id_) {                                                                    \
            graphs_vb_push(&(vb), (off), GRAPHS_FT_INT, GRAPHS_VE_NUM, (role), -1, id_, -1, -1); \
            (param) = (placeholder);                                                       \
        }                                                                                  \
    } while (0)

/* a count of a large-count binding; dtype_off: its datatype's field */
#define GRAPHS_VB_BIG(vb, param, off, dtype_off)                                              \
    do {                                                                                   \
        int id_ = graphs_var_i64_id((int64_t) (param));                                    \
        if (0 <= id_) {                                                                    \
            graphs_vb_push(&(vb), (off), GRAPHS_FT_BIGCOUNT, GRAPHS_VE_NUM, GRAPHS_VR_COUNT, -1, \
                           id_, -1, (dtype_off));                                          \
            (param) = 0;                                                                   \
        }                                                                                  \
    } while (0)

#define GRAPHS_VB_I64(vb, param, off, role, ftype)                                          \
    do {                                                                                   \
        int id_ = graphs_var_i64_id((int64_t) (param));                                    \
        if (0 <= id_) {                                                                    \
            graphs_vb_push(&(vb), (off), (ftype), GRAPHS_VE_NUM, (role), -1, id_, -1, -1); \
            (param) = 0;                                                                   \
        }                                                                                  \
    } while (0)

/** The session a graph handle belongs to: a graph's, or a running
 * activation's (a callback's graph) through its snapshot; NULL for the
 * World model and for a handle that is not a live graph. */
static inline const graphs_session_t *graphs_graph_session(const void *graph)
{
    const ompi_mpix_graph_t *g = (const ompi_mpix_graph_t *) graph;

    if (NULL == g) {
        return NULL;
    }
    if (GRAPHS_GRAPH_MAGIC == g->magic) {
        return g->session;
    }
    if (GRAPHS_INST_MAGIC == ((const graphs_inst_t *) graph)->magic) {
        return ((const graphs_inst_t *) graph)->def->session;
    }
    return NULL;
}

/** Report an error of a call on a graph: its session's error handler
 * (Sessions model), or as the queue functions do (World model, or a handle
 * that is not a live graph). */
static inline int graphs_graph_error(const void *graph, int err, const char *msg)
{
    return graphs_object_error(graphs_graph_session(graph), err, msg);
}

/** Report an error of a call on a token: a graph token of a session goes
 * to that session's handler; every other token as the queue functions do. */
static inline int graphs_token_report(const ompi_mpix_token_t *token, int err, const char *msg)
{
    return graphs_object_error(GRAPHS_OP_GRAPH == token->kind ? token->a.gdef->session : NULL,
                               err, msg);
}

/** A failed execution (MPIX_Execute): the handler of the operation's
 * communicator, or of a graph token's session. */
static inline int graphs_token_error(const ompi_mpix_token_t *token, int err, const char *msg)
{
    if (NULL != token->comm) {
        return OMPI_ERRHANDLER_INVOKE(token->comm, err, msg);
    }
    return graphs_token_report(token, err, msg);
}

#endif /* OMPI_MPIEXT_GRAPHS_BINDINGS_H */
