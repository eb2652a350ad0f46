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
 * Internals of the MPIX graphs and streams extension: tokens (deferred
 * operations), execution requests and streams, all run by the queue base's
 * dependency executor (ompi/mca/queue/base/queue_exec.h).
 */

#ifndef OMPI_MPIEXT_GRAPHS_H
#define OMPI_MPIEXT_GRAPHS_H

#include "ompi_config.h"

#include "mpi.h"
#include "opal/class/opal_object.h"
#include "opal/util/info.h"
#include "ompi/communicator/communicator.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/queue/base/queue_exec.h"
#include "ompi/op/op.h"
#include "ompi/request/request.h"

#include "ompi/mpiext/graphs/c/mpiext_graphs_c.h"

BEGIN_C_DECLS

/* live-handle markers: a freed object keeps its memory for a while (see
 * graphs_retire) with the marker cleared, so that a stale handle is refused */
#define GRAPHS_TOKEN_MAGIC 0x746f6b6eu
#define GRAPHS_STREAM_MAGIC 0x7374726du
#define GRAPHS_DEAD_MAGIC 0xdeadbeefu

/** The kinds of deferred operation (graphs_op_table in graphs_token.c). */
typedef enum {
    GRAPHS_OP_SEND,
    GRAPHS_OP_RECV,
    GRAPHS_OP_SENDRECV,
    GRAPHS_OP_BARRIER,
    GRAPHS_OP_BCAST,
    GRAPHS_OP_REDUCE,
    GRAPHS_OP_ALLREDUCE,
    GRAPHS_OP_CALLBACK,
    GRAPHS_OP_COPY_MEM,
    GRAPHS_OP_ALLOC_MEM,
    GRAPHS_OP_FREE_MEM,
    GRAPHS_OP_FILE_OPEN,
    GRAPHS_OP_FILE_CLOSE,
    GRAPHS_OP_FILE_GET_SIZE,
    GRAPHS_OP_FILE_READ,
    GRAPHS_OP_FILE_READ_AT,
    GRAPHS_OP_FILE_WRITE_AT,
    GRAPHS_OP_FILE_WRITE_AT_ALL,
    GRAPHS_OP_MAX
} graphs_op_kind_t;

typedef struct {
    void *buf;               /**< const for a send */
    int count;
    ompi_datatype_t *dtype;
    int peer;
    int tag;
    ompi_status_public_t *status;  /**< receives: MPI_STATUS_IGNORE or the program's */
} graphs_p2p_args_t;

struct ompi_mpix_token_t {
    opal_object_t super;
    volatile uint32_t magic;
    int kind;                      /**< graphs_op_kind_t */
    ompi_communicator_t *comm;     /**< retained; NULL for local operations */
    union {
        graphs_p2p_args_t p2p;
        struct {
            graphs_p2p_args_t send, recv;
        } sr;
        struct {
            const void *sbuf;
            void *rbuf;
            int count;
            ompi_datatype_t *dtype;
            ompi_op_t *op;
            int root;
        } coll;
        struct {
            MPIX_Graph_op_function *fn;
            void *extra_state;
        } cb;
        struct {
            void *dst;
            const void *src;
            MPI_Aint size;
        } copy;
        struct {
            MPI_Aint size;
            opal_info_t *info;
            void *baseptr;
        } mem;
        struct {
            char *filename;        /**< copied */
            int amode;
            MPI_Info info;         /**< retained, or MPI_INFO_NULL */
            MPI_File *fhp;         /**< open: OUT; close: INOUT */
            MPI_Offset *size;      /**< get_size: OUT */
            MPI_File fh;           /**< get_size */
        } file;
        struct {
            MPI_File fh;
            MPI_Offset offset;
            void *buf;             /**< const for writes */
            int count;
            ompi_datatype_t *dtype;  /**< retained (a derived one for counts above INT_MAX) */
            ompi_status_public_t *status;
        } io;
    } a;
};
typedef struct ompi_mpix_token_t ompi_mpix_token_t;
OBJ_CLASS_DECLARATION(ompi_mpix_token_t);

/** Executor functions of a token (one node = one token). */
extern const ompi_queue_exec_op_ops_t graphs_token_exec_ops;

static inline bool graphs_token_invalid(const ompi_mpix_token_t *token)
{
    return NULL == token || GRAPHS_TOKEN_MAGIC != token->magic;
}

/** New token of a kind (args filled by the caller); NULL when out of memory. */
ompi_mpix_token_t *graphs_token_new(int kind, ompi_communicator_t *comm);

/** Drop a reference to a token (the last one keeps it for reuse, see
 * graphs_token.c). */
void graphs_token_release(ompi_mpix_token_t *token);

/** The program gives up its token handle (MPIX_Token_free, a consuming
 * enqueue): mark it dead and drop the program's reference. */
void graphs_token_retire(ompi_mpix_token_t *token);

/** Release the tokens kept for reuse (finalization). */
void graphs_token_cache_flush(void);

/** Retain a datatype for a token (dropped by graphs_drop_type).  Predefined
 * datatypes live until finalization and are not counted, as in the PMLs. */
static inline ompi_datatype_t *graphs_keep_type(ompi_datatype_t *dtype)
{
    if (!ompi_datatype_is_predefined(dtype)) {
        OBJ_RETAIN(dtype);
    }
    return dtype;
}

static inline void graphs_drop_type(ompi_datatype_t *dtype)
{
    if (!ompi_datatype_is_predefined(dtype)) {
        OBJ_RELEASE(dtype);
    }
}

/** Retain a communicator for a token; the intrinsic ones (MPI_COMM_WORLD,
 * MPI_COMM_SELF) cannot be freed by the program and are not counted. */
static inline void graphs_keep_comm(ompi_communicator_t *comm)
{
    if (!OMPI_COMM_IS_INTRINSIC(comm)) {
        OBJ_RETAIN(comm);
    }
}

static inline void graphs_drop_comm(ompi_communicator_t *comm)
{
    if (!OMPI_COMM_IS_INTRINSIC(comm)) {
        OBJ_RELEASE(comm);
    }
}

/** The program gives up its stream handle: mark it dead and keep the memory a while. */
void graphs_retire(opal_object_t *obj, volatile uint32_t *magic);

/** Release every retired handle (finalization). */
void graphs_retire_flush(void);

/** The token is a blocking-only operation (File_open, File_close). */
bool graphs_token_blocking(const ompi_mpix_token_t *token);

/** The token may start at once in the caller (ompi_queue_exec_run_now). */
bool graphs_token_fast(const ompi_mpix_token_t *token);

/** Load a token into an execution as its nodes (a single operation today;
 * a graph token expands into its nodes and edges, issue 16). */
int graphs_exec_load(ompi_queue_exec_t *exec, ompi_mpix_token_t *token);

/* locations */

/**
 * Check a location and take what it needs (the progress thread for
 * PTHREAD).  On error *msg says why (static string).
 *
 * @return MPI_SUCCESS or an MPI error class
 */
int graphs_location_acquire(int loc_type, void *loc_info, const char **msg);
void graphs_location_release(int loc_type);

/* execution requests */

typedef enum { GRAPHS_REQ_EXEC, GRAPHS_REQ_ISYNC } graphs_req_kind_t;

typedef struct ompi_mpix_stream_t ompi_mpix_stream_t;
typedef struct graphs_cuda_t graphs_cuda_t;
typedef struct graphs_cuda_stream_t graphs_cuda_stream_t;

typedef struct graphs_request_t {
    ompi_request_t super;
    int kind;                       /**< graphs_req_kind_t */
    ompi_mpix_token_t *token;       /**< retained (execution requests) */
    ompi_queue_exec_t exec;
    int loc_type;
    bool completed;                 /**< the current execution completed (under exec.lock) */
    bool user_freed;                /**< freed by the program while active */
    bool error_kept;                /**< the error path's free of a failed execution was absorbed */
    int last_error, last_op;        /**< of the last completed execution */
    /* MPIX_OFFLOAD_CUDA: the queue and inner request that order it in the
     * stream (outer request), or the outer request to complete (inner) */
    graphs_cuda_t *cuda;
    struct graphs_request_t *outer;
    /* isync requests */
    ompi_mpix_stream_t *stream;
    uint64_t target;
} graphs_request_t;
OBJ_CLASS_DECLARATION(graphs_request_t);

/** True for an execution or isync request of this extension. */
bool graphs_request_is(ompi_request_t *req);

/**
 * Create an execution request for token at a location; persistent: inactive
 * (MPIX_Execute_init); otherwise started (MPIX_Iexecute).
 */
int graphs_request_create(ompi_mpix_token_t *token, int loc_type, bool persistent,
                          graphs_cuda_t *cuda, graphs_request_t **out);

/** Release an internal (inactive) request, whatever its last error. */
void graphs_request_destroy(graphs_request_t *req);

/** MPIX_Execute at MPIX_OFFLOAD_CUDA: ordered in the stream, waited host side. */
int graphs_execute_cuda(ompi_mpix_token_t *token, void *loc_info, const char **msg);

/* MPIX_OFFLOAD_CUDA (graphs_cuda.c) */
/** MPI_ERR_ARG (with *msg) when no queue can be bound to that stream. */
int graphs_cuda_probe(void *loc_info, const char **msg);
int graphs_cuda_create(ompi_mpix_token_t *token, void *loc_info, graphs_cuda_t **out,
                       const char **msg);
/** Enqueue one execution on the stream; outer completes with it. */
int graphs_cuda_start(graphs_cuda_t *c, graphs_request_t *outer);
bool graphs_cuda_done(const graphs_cuda_t *c);
int graphs_cuda_error(const graphs_cuda_t *c);
/** Not from a progress callback (it fences the internal queue). */
void graphs_cuda_free(graphs_cuda_t *c);
/* streams at MPIX_OFFLOAD_CUDA */
int graphs_cuda_stream_create(void *loc_info, graphs_cuda_stream_t **out, const char **msg);
/** Append a token as a node of exec (the stream's) that posts it when started. */
int graphs_cuda_stream_add(graphs_cuda_stream_t *cs, ompi_queue_exec_t *exec,
                           ompi_mpix_token_t *token);
void graphs_cuda_stream_fence(graphs_cuda_stream_t *cs);
void graphs_cuda_stream_free(graphs_cuda_stream_t *cs);

/** Release the execution requests kept for reuse (finalization). */
void graphs_request_cache_flush(void);

/** Run one execution of token to completion in this thread (MPIX_Execute). */
int graphs_execute_blocking(ompi_mpix_token_t *token);

/* streams */

struct ompi_mpix_stream_t {
    opal_object_t super;
    volatile uint32_t magic;
    ompi_queue_exec_t exec;         /**< open execution: a FIFO of tokens */
    int loc_type;
    bool loc_held;
    struct ompi_instance_t *session;  /**< NULL: World model; errors go to its handler */
    graphs_cuda_stream_t *cuda;       /**< MPIX_OFFLOAD_CUDA: the queue that orders it, or NULL */
    struct graphs_request_t **isyncs;  /**< pending isync requests */
    int nisyncs, isyncs_cap;
};
OBJ_CLASS_DECLARATION(ompi_mpix_stream_t);

static inline bool graphs_stream_invalid(const ompi_mpix_stream_t *stream)
{
    return NULL == stream || GRAPHS_STREAM_MAGIC != stream->magic;
}

/** The stream failed: it starts nothing more. */
static inline bool graphs_stream_failed(const ompi_mpix_stream_t *stream)
{
    return MPI_SUCCESS != stream->exec.error;
}

int graphs_stream_create(int loc_type, struct ompi_instance_t *session, graphs_cuda_stream_t *cuda,
                         ompi_mpix_stream_t **out);
/** Append a token; *consumed: the stream took it and the program's handle
 * is dead (set on success, and on a later failure to keep progress on it). */
int graphs_stream_enqueue(ompi_mpix_stream_t *stream, ompi_mpix_token_t *token, bool *consumed);
int graphs_stream_set_paused(ompi_mpix_stream_t *stream, bool paused);
int graphs_stream_sync(ompi_mpix_stream_t *stream);
int graphs_stream_isync(ompi_mpix_stream_t *stream, ompi_request_t **request);
/** MPI_ERR_PENDING when tokens are pending; otherwise frees. */
int graphs_stream_free(ompi_mpix_stream_t *stream);

/** An isync request is freed by the program: forget it. */
void graphs_isync_forget(graphs_request_t *req);

/** Create an isync request (used by graphs_stream_isync). */
graphs_request_t *graphs_isync_new(ompi_mpix_stream_t *stream, uint64_t target);

/** Release the progress-thread holds deferred by completions in that thread. */
void graphs_location_flush(void);

/* component */
int graphs_component_init(void);
int graphs_component_fini(void);

END_C_DECLS

#endif /* OMPI_MPIEXT_GRAPHS_H */
