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

#include <string.h>

#include "mpi.h"
#include "opal/class/opal_object.h"
#include "opal/util/info.h"
#include "ompi/communicator/communicator.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/mca/queue/base/queue_exec.h"
#include "ompi/op/op.h"
#include "ompi/request/request.h"

#include "ompi/mpiext/graphs/c/mpiext_graphs_c.h"

BEGIN_C_DECLS

/* internals of libmpi, not exported: calls between the extension's files
 * go direct, and a program may use these names for its own symbols */
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
extern const ompi_queue_exec_op_ops_t graphs_token_exec_ops;

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
 * progress callback (OMPI_QUEUE_EXEC_BLOCKING). */
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

    if (GRAPHS_TOKEN_REUSE_DISTANCE < r->count) {
        OPAL_THREAD_LOCK(&r->lock);
        if (GRAPHS_TOKEN_REUSE_DISTANCE < r->count) {
            token = r->slot[r->head];
            r->head = (r->head + 1) % GRAPHS_TOKEN_RING;
            r->count--;
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
        r->count--;
    }
    r->slot[(r->head + r->count) % GRAPHS_TOKEN_RING] = token;
    r->count++;
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
 * path, ompi_queue_exec_track), for streams and MPIX_Iexecute.  A send, the
 * commonest token, is inline here.
 *
 * @return true: done, *rc its result (MPI_SUCCESS or an error class);
 *         false: still running, its requests in reqs[0 .. *nreqs)
 *         (hand them to ompi_queue_exec_track)
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
    if (!REQUEST_COMPLETE(reqs[0])) {
        return false;
    }
    *rc = reqs[0]->req_status.MPI_ERROR;
    (void) ompi_request_free(&reqs[0]);
    return true;
}

/** Load a token into an execution as its nodes (a single operation today;
 * a graph token expands into its nodes and edges, issue 16). */
int graphs_exec_load(ompi_queue_exec_t *exec, ompi_mpix_token_t *token);

/** A closed execution's next run of token: a graph loaded there by the
 * last run is rewound in place (ompi_queue_exec_rewind), anything else is
 * reset and loaded. */
int graphs_exec_reload(ompi_queue_exec_t *exec, ompi_mpix_token_t *token);

/* graphs (graphs_graph.c: templates and MPIX_Graph_def; graphs_run.c: execution) */

/** Kinds of graph nodes. */
enum {
    GRAPHS_GN_TOKEN = 0,
    GRAPHS_GN_JOIN,
    GRAPHS_GN_NOP,
    GRAPHS_GN_REDUCE,
    GRAPHS_GN_IF,
    GRAPHS_GN_WHILE,
    GRAPHS_GN_GOTO,
};

/* sessions (graphs_session.c) */

/** The extension's record of a session: a stand-in communicator whose
 * error handler passes errors on to the session's (see graphs_session.c). */
typedef struct graphs_session_t {
    ompi_communicator_t comm;      /**< first: the handler receives its address */
    struct ompi_instance_t *instance;
    struct graphs_session_t *next;
} graphs_session_t;

/**
 * The record of a session, made at its first use; *out NULL for
 * MPI_SESSION_NULL (the World model).
 *
 * @return MPI_SUCCESS or MPI_ERR_NO_MEM
 */
int graphs_session_get(struct ompi_instance_t *instance, graphs_session_t **out);

/** Release every record (finalization). */
void graphs_session_flush(void);

/** The session of a record, NULL for the World model. */
static inline struct ompi_instance_t *graphs_session_instance(const graphs_session_t *s)
{
    return NULL == s ? NULL : s->instance;
}

/** The communicator whose handler reports a request's errors at completion
 * for objects of a session: the record's stand-in, MPI_COMM_SELF for the
 * World model. */
static inline ompi_communicator_t *graphs_session_comm(graphs_session_t *s)
{
    return NULL == s ? &ompi_mpi_comm_self.comm : &s->comm;
}

/** Largest variable (an MPI_Status, a long double complex is refused). */
#define GRAPHS_VAR_BYTES 32

typedef struct {
    int id, scope;
    ompi_datatype_t *dtype;        /**< retained */
    size_t size;
    bool set;                      /**< var_set/set_param given */
    unsigned char val[GRAPHS_VAR_BYTES];
    void *ref;                     /**< REF_PARAM: the program's memory */
    int ref_outer;                 /**< REF_PARAM aliasing an outer variable, or -1 */
    char *str;                     /**< MPI_LOCAL_TYPE_STRING value (owned copy) */
} graphs_var_t;

typedef struct ompi_mpix_graph_t ompi_mpix_graph_t;

/** A node of a graph being built (op ID = index + 1). */
typedef struct {
    int type;                      /**< GRAPHS_GN_* */
    int dep;                       /**< index of the dependency, or -1 */
    int njoin;
    int *join;                     /**< join inputs (indices) */
    ompi_mpix_token_t *token;      /**< GRAPHS_GN_TOKEN (the graph's reference) */
    ompi_mpix_graph_t *sub[2];     /**< if/else branches, while body (copies) */
    int var, in1, in2, out;        /**< condition variable; var_reduce's */
    ompi_op_t *op;                 /**< var_reduce (retained unless a comparison) */
    int cmp;                       /**< comparison index (0..5), or -1 */
    int dest;                      /**< goto: destination index */
} graphs_gnode_t;

struct ompi_mpix_graph_t {
    opal_object_t super;
    volatile uint32_t magic;
    graphs_gnode_t *nodes;
    int nnodes, cap;
    graphs_var_t *vars;
    int nvars, vcap;
    graphs_session_t *session;     /**< NULL: World model; errors go to its handler */
};
OBJ_CLASS_DECLARATION(ompi_mpix_graph_t);

static inline bool graphs_graph_invalid(const ompi_mpix_graph_t *g)
{
    return NULL == g || GRAPHS_GRAPH_MAGIC != g->magic;
}

/** A node of a graph snapshot. */
typedef struct {
    int type;
    uint16_t flags;                /**< executor flags: BLOCKING, COLL, COLL_ITEM */
    int ndeps;
    int *deps;                     /**< every predecessor (explicit, join, implicit) */
    ompi_mpix_token_t *token;      /**< retained */
    struct graphs_gdef_t *sub[2];  /**< retained */
    int var, in1, in2, out, cmp;
    ompi_op_t *op;
    int nsubtree;
    int *subtree;                  /**< goto: the destination and its descendants, in start order */
} graphs_dnode_t;

/** An immutable graph snapshot (the content of a graph token). */
typedef struct graphs_gdef_t {
    opal_object_t super;
    int nnodes;
    graphs_dnode_t *nodes;
    int *order;                    /**< a topological order of the nodes */
    int *coll_rank;                /**< per node: rank among collective items by op ID, or -1 */
    int nvars;
    graphs_var_t *vars;            /**< copies (strings owned) */
    size_t *off;                   /**< each variable's offset in an instance */
    size_t vbytes;
    unsigned char *init;           /**< initial values of an instance */
    bool has_coll, blocking;
    bool outer_refs;               /**< a REF_PARAM aliases a variable of an enclosing graph */
    graphs_session_t *session;     /**< the graph's (NULL: World model) */
} graphs_gdef_t;
OBJ_CLASS_DECLARATION(graphs_gdef_t);

/** A running activation of a graph: its variables.  Passed to callbacks
 * as their MPIX_Graph (magic at the same place as a graph's). */
typedef struct graphs_inst_t {
    opal_object_t super;
    volatile uint32_t magic;
    graphs_gdef_t *def;            /**< retained */
    struct graphs_inst_t *parent;  /**< retained, or NULL */
    unsigned char *vals;
    void **refs;                   /**< per variable: REF_PARAM storage */
    char **strs;                   /**< per variable: the string a var_set on this
                                        activation copied (owned), or NULL */
    ompi_queue_exec_t *exec;       /**< where its nodes run (goto appends there) */
} graphs_inst_t;
OBJ_CLASS_DECLARATION(graphs_inst_t);

/** Storage of variable id seen from inst (lexical), NULL if none. */
void *graphs_inst_var(graphs_inst_t *inst, int id, graphs_var_t **var);

/** MPIX_Graph_var_set on a running activation: variable id seen from inst
 * takes the value at value (a string is copied, owned by the activation
 * that holds the variable until it is set again or that activation is
 * rearmed or released).  MPI_ERR_ARG: no such variable. */
int graphs_inst_var_set(graphs_inst_t *inst, int id, const void *value);

/** Index of variable id in a graph's table, or -1. */
int graphs_graph_var_find(const ompi_mpix_graph_t *g, int id);

/** MPIX_Graph_def: snapshot g into a new token.  *msg says why on error. */
int graphs_graph_def(ompi_mpix_graph_t *g, ompi_mpix_token_t **out, const char **msg);

/** MPIX_Graph_dup */
int graphs_graph_dup(ompi_mpix_graph_t *g, ompi_mpix_graph_t **out);

/** Append a graph token to an open execution (a stream) as one node. */
int graphs_run_add_graph_node(ompi_queue_exec_t *exec, ompi_mpix_token_t *token);

/** Load a graph snapshot into exec as its nodes (a new activation). */
int graphs_gdef_load(ompi_queue_exec_t *exec, graphs_gdef_t *def, graphs_inst_t *parent);

/** Graph builder calls (graphs_graph.c); *msg says why on error. */
int graphs_graph_add_node(ompi_mpix_graph_t *g, int type, int dep, graphs_gnode_t **node,
                          int *op_id);
int graphs_var_check_type(ompi_datatype_t *dtype);
int graphs_var_write(graphs_var_t *v, void *storage, const void *value);
int graphs_var_read(const graphs_var_t *v, const void *storage, void *value);
/** Integer value of a variable's storage (integer types), false if not an integer type. */
bool graphs_var_to_i64(ompi_datatype_t *dtype, const void *storage, int64_t *v);

/** How an integer variable is stored: its size in bytes, negative when
 * unsigned; 0 for any other type.  For graphs_var_int_read/_write, which
 * skip the type lookup on a path run again and again (a loop's condition
 * and counter). */
int graphs_var_int_kind(ompi_datatype_t *dtype);

static inline int64_t graphs_var_int_read(int ik, const void *p)
{
    switch (ik) {
    case 1: return *(const int8_t *) p;
    case 2: return *(const int16_t *) p;
    case 4: return *(const int32_t *) p;
    case -1: return *(const uint8_t *) p;
    case -2: return *(const uint16_t *) p;
    case -4: return *(const uint32_t *) p;
    default: return *(const int64_t *) p;
    }
}

static inline void graphs_var_int_write(int ik, void *p, int64_t v)
{
    switch (ik) {
    case 1: case -1: *(int8_t *) p = (int8_t) v; break;
    case 2: case -2: *(int16_t *) p = (int16_t) v; break;
    case 4: case -4: *(int32_t *) p = (int32_t) v; break;
    default: *(int64_t *) p = v; break;
    }
}
bool graphs_var_from_i64(ompi_datatype_t *dtype, void *storage, int64_t v);
/** The index of a local type (0..12), or -1. */
int graphs_local_type_index(ompi_datatype_t *dtype);
/* counts above INT_MAX (graphs_bigcount.c): Open MPI 5.0.7's PML, coll and
 * io interfaces take int counts */

/**
 * The datatype and int count that describe count elements of dtype: dtype
 * itself for counts that fit an int; above INT_MAX a derived datatype of
 * 2^20-element blocks and the remainder, with count 1.
 *
 * @param[out] type   retained (the caller's reference)
 * @return MPI_SUCCESS, MPI_ERR_COUNT (too large even so) or MPI_ERR_INTERN
 */
int graphs_count_type(MPI_Count count, ompi_datatype_t *dtype, ompi_datatype_t **type,
                      int *icount);

/**
 * The operation that reduces count elements of a predefined datatype when
 * they are carried by graphs_count_type's derived datatype (the reductions
 * apply an operation to the datatype's elements, not to those of its base
 * type).  Kept until finalization; the caller needs no reference.
 *
 * @return MPI_SUCCESS; MPI_ERR_OP for an operation that is not predefined,
 *         MPI_ERR_TYPE for a datatype that is not
 */
int graphs_big_op(ompi_op_t *op, ompi_datatype_t *dtype, ompi_op_t **out);

/** Release the operations of graphs_big_op (finalization). */
void graphs_big_ops_fini(void);

/** Compute out = in1 op in2 (var_reduce). */
int graphs_var_reduce_compute(ompi_op_t *op, int cmp, ompi_datatype_t *t1, const void *in1,
                              const void *in2, ompi_datatype_t *tout, void *out);
/** var_reduce's argument checks: MPI_ERR_OP / MPI_ERR_TYPE / MPI_SUCCESS. */
int graphs_var_reduce_check(ompi_op_t *op, int cmp, ompi_datatype_t *t1, ompi_datatype_t *t2,
                            ompi_datatype_t *tout);
/** Comparison index of an MPI_Op handle (0..5), or -1. */
int graphs_cmp_index(ompi_op_t *op);

/** The token's arguments bound to variables, resolved in inst, into copy.
 * @return MPI_SUCCESS or the class of the run-time argument error */
int graphs_token_resolve(const ompi_mpix_token_t *t, graphs_inst_t *inst, ompi_mpix_token_t *copy);

/** The start/finish of a token's kind, on a (resolved) token. */
int graphs_token_start_kind(ompi_mpix_token_t *t, ompi_request_t **reqs, int *nreqs);
int graphs_token_finish_kind(ompi_mpix_token_t *t, ompi_request_t **reqs, int nreqs);
/** The token is a collective (started in op-ID order inside a graph). */
bool graphs_token_collective(const ompi_mpix_token_t *token);

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

/** MPI_ERR_ARG when the token cannot run at top level (variable
 * arguments, or a graph aliasing outer variables). */
static inline bool graphs_token_unbound(const ompi_mpix_token_t *token)
{
    if (GRAPHS_OP_GRAPH == token->kind) {
        return token->a.gdef->outer_refs;
    }
    return 0 < token->nvb;
}

/** The token is a blocking-only operation (File_open, File_close), or a
 * graph holding one: the only single operations that are not fast. */
static inline bool graphs_token_blocking(const ompi_mpix_token_t *token)
{
    if (GRAPHS_OP_GRAPH == token->kind) {
        return token->a.gdef->blocking;
    }
    return !token->fast;
}
/** The op ID (node index + 1) of the node that failed in a top-level graph execution. */
int graphs_exec_error_op(ompi_queue_exec_t *exec, ompi_mpix_token_t *token);

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
    bool held;                      /**< its blocking-only nodes wait for MPI_Wait/MPI_Test
                                         (ompi_queue_exec_hold) */
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

/** The shared completed request of MPIX_Iexecute's fast path (component
 * init and fini). */
void graphs_request_done_init(void);
void graphs_request_done_fini(void);

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
    graphs_session_t *session;      /**< NULL: World model; errors go to its handler */
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
/** graphs_stream_enqueue for any token and stream state. */
int graphs_stream_enqueue_any(ompi_mpix_stream_t *stream, ompi_mpix_token_t *token, bool *consumed);

/** Lock held, released here: a token started on the idle stream whose
 * requests still run becomes its running node. */
int graphs_stream_track(ompi_mpix_stream_t *stream, ompi_mpix_token_t *token, ompi_request_t **reqs,
                        int nreqs);

/**
 * Append a token; *consumed: the stream took it and the program's handle
 * is dead (set on success, and on a later failure to keep progress on it).
 * A send on an idle stream, one per message in the commonest use, is
 * started and, done at once, recycled here.
 */
static inline int graphs_stream_enqueue(ompi_mpix_stream_t *stream, ompi_mpix_token_t *token,
                                        bool *consumed)
{
    if (GRAPHS_OP_SEND == token->kind && NULL == stream->cuda) {
        ompi_queue_exec_t *exec = &stream->exec;
        OPAL_THREAD_LOCK(&exec->lock);
        if (ompi_queue_exec_idle(exec)) {
            ompi_request_t *reqs[OMPI_QUEUE_EXEC_NODE_REQS];
            int nreqs, rc;

            /* the program's reference goes with the token (the handle is
             * consumed): it needs no reference of its own */
            token->magic = GRAPHS_DEAD_MAGIC;
            *consumed = true;
            if (!graphs_token_try_now(token, reqs, &nreqs, &rc)) {
                return graphs_stream_track(stream, token, reqs, nreqs);
            }
            /* a failure fails the stream, reported by its next call */
            ompi_queue_exec_retire_now(exec, rc);
            OPAL_THREAD_UNLOCK(&exec->lock);
            graphs_token_release_p2p(token);
            return MPI_SUCCESS;
        }
        OPAL_THREAD_UNLOCK(&exec->lock);
    }
    return graphs_stream_enqueue_any(stream, token, consumed);
}
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

/* local types, comparison ops (graphs_vars.c) */
int graphs_vars_init(void);
void graphs_vars_fini(void);

/* component */
int graphs_component_init(void);
int graphs_component_fini(void);

#pragma GCC visibility pop

END_C_DECLS

#endif /* OMPI_MPIEXT_GRAPHS_H */
