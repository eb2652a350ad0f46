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
 * Tokens: deferred operations (graphs_token.c, the operations themselves in
 * graphs_token_ops.c), their reuse ring, and the fast path that starts one
 * at once in the caller (streams, MPIX_Iexecute).
 */

#ifndef OMPI_MPIEXT_GRAPHS_TOKEN_H
#define OMPI_MPIEXT_GRAPHS_TOKEN_H

#include "ompi_config.h"

#include <string.h>

#include "mpi.h"
#include "opal/class/opal_object.h"
#include "ompi/communicator/communicator.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/request/request.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/op/op.h"
#include "ompi/mpiext/graphs/c/graphs_engine.h"
#include "ompi/mpiext/graphs/c/mpiext_graphs_c.h"
#include "ompi/request/request_owner.h"

BEGIN_C_DECLS

/* internals of libmpi, not exported (see graphs.h) */
#pragma GCC visibility push(hidden)

/* live-handle markers: a freed object keeps its memory for a while (see
 * graphs_retire) with the marker cleared, so that a stale handle is refused */
#define GRAPHS_TOKEN_MAGIC 0x746f6b6eu
#define GRAPHS_STREAM_MAGIC 0x7374726du
#define GRAPHS_DEAD_MAGIC 0xdeadbeefu
#define GRAPHS_GRAPH_MAGIC 0x67726170u
#define GRAPHS_INST_MAGIC 0x696e7374u

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
    GRAPHS_OP_REMOTE_BARRIER, /**< a.coll.root: the watched process */
    GRAPHS_OP_START,         /**< MPIX_Start_def: a persistent request of the program */
    GRAPHS_OP_WAIT,          /**< MPIX_Wait_def */
    GRAPHS_OP_GRAPH,         /**< a graph snapshot (MPIX_Graph_def) */
    GRAPHS_OP_MAX
} graphs_op_kind_t;

/* A token argument bound to a graph variable (MPIX_VAR* encodings, spec
 * 1.2.3): resolved into a copy of the token when the operation starts. */
enum {
    GRAPHS_FT_PTR = 0,       /**< a pointer or handle field */
    GRAPHS_FT_INT = 1,
    GRAPHS_FT_I64 = 2,
    GRAPHS_FT_BIGCOUNT = 3,  /**< the int count of a large-count (_c) binding: a value above
                                  INT_MAX is carried by a derived datatype at the start
                                  (the datatype field is at dtype_off) */
};
enum {
    GRAPHS_VE_STORAGE = 0,   /**< MPIX_VAR on a buffer/OUT pointer: the variable's storage */
    GRAPHS_VE_ADDR = 1,      /**< MPIX_VAR_ADDR: the address the variable holds */
    GRAPHS_VE_VALUE = 2,     /**< MPIX_VAR on a handle or string: the variable's value */
    GRAPHS_VE_NUM = 3,       /**< MPIX_VAR_INT/AINT/COUNT/OFFSET */
};
enum {
    GRAPHS_VR_BUF = 0,       /**< data buffer (size checked against count x extent) */
    GRAPHS_VR_OUT = 1,       /**< OUT argument that produces a future (handle, size, pointer) */
    GRAPHS_VR_COUNT = 2,
    GRAPHS_VR_RANK = 3,
    GRAPHS_VR_ROOT = 4,
    GRAPHS_VR_TAG = 5,
    GRAPHS_VR_NUM = 6,       /**< other numbers (amode, size, offset) */
    GRAPHS_VR_HANDLE = 7,
};
#define GRAPHS_TOKEN_VB 12

typedef struct {
    uint16_t off;            /**< offset of the field in ompi_mpix_token_t */
    uint8_t ftype, enc, role;
    int8_t ltype;            /**< handles: index of the expected local type, or -1 */
    int16_t var;
    int16_t count_off, dtype_off;  /**< buffers: the count (int) and datatype fields, or -1 */
} graphs_vbind_t;

struct graphs_gdef_t;

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
    bool fast;                     /**< see graphs_token_fast */
    uint8_t nown;                  /**< a resolved copy: datatypes it made for counts above
                                        INT_MAX (released with the copy), at own_off[] */
    uint16_t own_off[2];
    ompi_communicator_t *comm;     /**< retained; NULL for local operations */
    int nvb;                       /**< arguments bound to graph variables */
    /* the arguments before the variable bindings (read only at a graph's
     * start): what a send reads is in the token's first two cache lines */
    union {
        struct graphs_gdef_t *gdef;  /**< GRAPHS_OP_GRAPH (retained) */
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
            MPI_Request *req;      /**< the program's handle, read when the token runs */
            ompi_status_public_t *status;  /**< MPIX_Wait_def */
        } preq;
        struct {
            MPI_File fh;
            MPI_Offset offset;
            void *buf;             /**< const for writes */
            int count;
            ompi_datatype_t *dtype;  /**< retained (a derived one for counts above INT_MAX) */
            ompi_status_public_t *status;
        } io;
    } a;
    graphs_vbind_t vb[GRAPHS_TOKEN_VB];
};
typedef struct ompi_mpix_token_t ompi_mpix_token_t;
OBJ_CLASS_DECLARATION(ompi_mpix_token_t);

/** Executor functions of a token (one node = one token). */
extern const graphs_engine_op_ops_t graphs_token_exec_ops;

static inline bool graphs_token_invalid(const ompi_mpix_token_t *token)
{
    return NULL == token || GRAPHS_TOKEN_MAGIC != token->magic;
}

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

/** Blocking-only kinds (File_open, File_close): never started by a
 * progress callback (GRAPHS_ENGINE_BLOCKING). */
static inline bool graphs_kind_blocking(int kind)
{
    return GRAPHS_OP_FILE_OPEN == kind || GRAPHS_OP_FILE_CLOSE == kind;
}

/*
 * Tokens whose handle the program gave up and whose last reference went wait
 * in a ring, oldest first, before their memory is reused.  A new token takes
 * the oldest only while more than GRAPHS_TOKEN_REUSE_DISTANCE wait, so that a
 * stale handle reads the cleared marker for at least that many later tokens;
 * a full ring frees its oldest.  One ring does both jobs: a stream fed with a
 * new token per message neither allocates nor frees.  Its fast paths are
 * inline: a token is made and recycled per message.
 */
#define GRAPHS_TOKEN_RING 512
#define GRAPHS_TOKEN_REUSE_DISTANCE 256

typedef struct {
    unsigned head, count;
    opal_mutex_t lock;
    ompi_mpix_token_t *slot[GRAPHS_TOKEN_RING];
} graphs_token_ring_t;

extern graphs_token_ring_t graphs_token_ring;

/** graphs_token_new when the ring has no token to give: a new object. */
ompi_mpix_token_t *graphs_token_alloc(int kind, ompi_communicator_t *comm);

/** Drop a reference to a token (the last one keeps it for reuse in the ring). */
void graphs_token_release(ompi_mpix_token_t *token);

/** Free a token that the ring let go (out of line: rare). */
void graphs_token_drop(ompi_mpix_token_t *token);

/** A new or reused token takes its kind and communicator. */
static inline void graphs_token_arm(ompi_mpix_token_t *token, int kind, ompi_communicator_t *comm)
{
    token->kind = kind;
    token->fast = GRAPHS_OP_GRAPH != kind && !graphs_kind_blocking(kind);
    if (NULL != comm) {
        graphs_keep_comm(comm);
        token->comm = comm;
    }
}

/** New token of a kind (args filled by the caller); NULL when out of memory. */
static inline ompi_mpix_token_t *graphs_token_new(int kind, ompi_communicator_t *comm)
{
    graphs_token_ring_t *r = &graphs_token_ring;
    ompi_mpix_token_t *token = NULL;

    /* a hint read without the lock (most tokens are new while the ring
     * fills): count is stored atomically under the lock, and read again
     * under it */
    if (GRAPHS_TOKEN_REUSE_DISTANCE < __atomic_load_n(&r->count, __ATOMIC_RELAXED)) {
        OPAL_THREAD_LOCK(&r->lock);
        if (GRAPHS_TOKEN_REUSE_DISTANCE < r->count) {
            token = r->slot[r->head];
            r->head = (r->head + 1) % GRAPHS_TOKEN_RING;
            __atomic_store_n(&r->count, r->count - 1, __ATOMIC_RELAXED);
        }
        OPAL_THREAD_UNLOCK(&r->lock);
    }
    if (OPAL_UNLIKELY(NULL == token)) {
        return graphs_token_alloc(kind, comm);
    }
    /* a token in the ring is cleared (no kind, no communicator) */
    token->magic = GRAPHS_TOKEN_MAGIC;
    token->nvb = 0;
    if (GRAPHS_OP_SEND != kind && GRAPHS_OP_RECV != kind) {
        /* graphs_set_p2p fills every field of a point-to-point token */
        memset(&token->a, 0, sizeof(token->a));
    }
    graphs_token_arm(token, kind, comm);
    return token;
}

/** Put a cleared token (last reference gone) into the ring. */
static inline void graphs_token_ring_put(ompi_mpix_token_t *token)
{
    graphs_token_ring_t *r = &graphs_token_ring;
    ompi_mpix_token_t *evicted = NULL;

    OPAL_THREAD_LOCK(&r->lock);
    if (OPAL_UNLIKELY(GRAPHS_TOKEN_RING == r->count)) {
        evicted = r->slot[r->head];
        r->head = (r->head + 1) % GRAPHS_TOKEN_RING;
        __atomic_store_n(&r->count, r->count - 1, __ATOMIC_RELAXED);
    }
    r->slot[(r->head + r->count) % GRAPHS_TOKEN_RING] = token;
    __atomic_store_n(&r->count, r->count + 1, __ATOMIC_RELAXED);
    OPAL_THREAD_UNLOCK(&r->lock);
    if (OPAL_UNLIKELY(NULL != evicted)) {
        graphs_token_drop(evicted);
    }
}

/** graphs_token_release of a send or receive token whose handle is dead. */
static inline void graphs_token_release_p2p(ompi_mpix_token_t *token)
{
    if (OPAL_UNLIKELY(1 != token->super.obj_reference_count || NULL == token->comm)) {
        graphs_token_release(token);
        return;
    }
    /* the last reference is this caller's: what graphs_token_release's
     * clearing does for this kind */
    graphs_drop_type(token->a.p2p.dtype);
    graphs_drop_comm(token->comm);
    token->comm = NULL;
    token->kind = GRAPHS_OP_MAX;
    token->magic = GRAPHS_DEAD_MAGIC;
    graphs_token_ring_put(token);
}

/** The program gives up its token handle (MPIX_Token_free, a consuming
 * enqueue): mark it dead and drop the program's reference. */
void graphs_token_retire(ompi_mpix_token_t *token);

/** MPIX_Token_free (the handle checked live): the program gives it up;
 * requests, streams and graphs that use the token hold their own
 * reference. */
static inline int graphs_token_free_impl(MPIX_Token *token)
{
    graphs_token_retire(*token);
    *token = MPIX_TOKEN_NULL;
    return MPI_SUCCESS;
}

/** Release the tokens kept for reuse (finalization). */
void graphs_token_cache_flush(void);

/** The program gives up its stream handle: mark it dead and keep the memory a while. */
void graphs_retire(opal_object_t *obj, volatile uint32_t *magic);

/** Release every retired handle (finalization). */
void graphs_retire_flush(void);



/** The token may start at once in the caller (graphs_token_try_now): a
 * single operation that is not blocking-only (set by graphs_token_new). */
static inline bool graphs_token_fast(const ompi_mpix_token_t *token)
{
    return token->fast;
}

/** graphs_token_try_now for every kind, through the op table. */
bool graphs_token_try_table(ompi_mpix_token_t *t, ompi_request_t **reqs, int *nreqs, int *rc);

/**
 * Start a token that may start at once (graphs_token_fast) in the caller,
 * and finish it if its requests completed in the call (the executor's fast
 * path, graphs_engine_track), for streams and MPIX_Iexecute.  A send, the
 * commonest token, is inline here.
 *
 * @return true: done, *rc its result (MPI_SUCCESS or an error class);
 *         false: still running, its requests in reqs[0 .. *nreqs)
 *         (hand them to graphs_engine_track)
 */
static inline bool graphs_token_try_now(ompi_mpix_token_t *t, ompi_request_t **reqs, int *nreqs,
                                        int *rc)
{
    graphs_p2p_args_t *p = &t->a.p2p;
    int ret;

    if (GRAPHS_OP_SEND != t->kind || MPI_PROC_NULL == p->peer) {
        return graphs_token_try_table(t, reqs, nreqs, rc);
    }
    ret = MCA_PML_CALL(isend(p->buf, p->count, p->dtype, p->peer, p->tag,
                             MCA_PML_BASE_SEND_STANDARD, t->comm, &reqs[0]));
    if (OPAL_UNLIKELY(OMPI_SUCCESS != ret)) {
        *nreqs = 0;
        *rc = ompi_errcode_get_mpi_code(ret);
        return true;
    }
    *nreqs = 1;
    if (!ompi_request_seen_complete(reqs[0])) {
        return false;
    }
    *rc = reqs[0]->req_status.MPI_ERROR;
    (void) ompi_request_free(&reqs[0]);
    return true;
}

/** The start/finish of a token's kind, on a (resolved) token. */
int graphs_token_start_kind(ompi_mpix_token_t *t, ompi_request_t **reqs, int *nreqs);
int graphs_token_finish_kind(ompi_mpix_token_t *t, ompi_request_t **reqs, int nreqs);

/**
 * The remote barrier (MPIX_Remote_barrier, spec 1.8): on the watched
 * process, a zero-byte message to every other member of comm (local: *req
 * NULL); on the others, the receive of the watched process's message
 * (*req).  The k-th call of a process pairs with watched's k-th (one tag,
 * one communicator: MPI's order).
 *
 * @return MPI_SUCCESS or an MPI error class
 */
int graphs_remote_barrier_post(ompi_communicator_t *comm, int watched, ompi_request_t **req);

/** MPIX_Remote_barrier (arguments checked): the remote barrier, waited for. */
int graphs_remote_barrier_impl(ompi_communicator_t *comm, int watched);

#pragma GCC visibility pop

END_C_DECLS

#endif /* OMPI_MPIEXT_GRAPHS_TOKEN_H */
