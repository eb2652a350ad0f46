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
 * Graphs: templates being built (graphs_graph.c), their immutable snapshots
 * and running activations with their variables (graphs_run.c,
 * graphs_vars.c), and the loading of a token into an execution.
 */

#ifndef OMPI_MPIEXT_GRAPHS_GRAPH_H
#define OMPI_MPIEXT_GRAPHS_GRAPH_H

#include "ompi_config.h"

#include "ompi/mpiext/graphs/c/graphs_session.h"
#include "ompi/mpiext/graphs/c/graphs_token.h"

BEGIN_C_DECLS

/* internals of libmpi, not exported (see graphs.h) */
#pragma GCC visibility push(hidden)

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
    graphs_engine_t *exec;       /**< where its nodes run (goto appends there) */
} graphs_inst_t;
OBJ_CLASS_DECLARATION(graphs_inst_t);

/** Neither a live graph nor a running activation of one (a callback's
 * graph: its magic is at the same place). */
static inline bool graphs_graph_or_inst_invalid(const ompi_mpix_graph_t *g)
{
    return NULL == g
           || (GRAPHS_GRAPH_MAGIC != g->magic
               && GRAPHS_INST_MAGIC != ((const graphs_inst_t *) g)->magic);
}

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

/*
 * The work of the graph bindings once their arguments are checked (the graph
 * live, IDs of new variables in range, output pointers not NULL); on error
 * *msg says why (static string), or stays NULL.
 */

/** MPIX_Graph_create (session MPI_SESSION_NULL: the World model). */
int graphs_graph_create_impl(struct ompi_instance_t *session, MPIX_Graph *graph);
/** MPIX_Graph_free: the graph's tokens and copies are independent of it. */
int graphs_graph_free_impl(MPIX_Graph *graph);
/** MPIX_Graph_add: the graph takes the token (the handle is consumed). */
int graphs_graph_add_impl(ompi_mpix_graph_t *graph, MPIX_Token *token, int *op_id, int dep_op_id,
                          const char **msg);
int graphs_graph_nop_impl(ompi_mpix_graph_t *graph, int *op_id, int dep_op_id, const char **msg);
int graphs_graph_join_impl(ompi_mpix_graph_t *graph, int count, const int array_of_dep_op_ids[],
                           int *op_id, const char **msg);
int graphs_graph_set_dep_op_impl(ompi_mpix_graph_t *graph, int op_id, int dep_op_id,
                                 const char **msg);
int graphs_graph_if_else_impl(ompi_mpix_graph_t *graph, int var_id, ompi_mpix_graph_t *true_graph,
                              ompi_mpix_graph_t *false_graph, int *op_id, int dep_op_id,
                              const char **msg);
int graphs_graph_while_impl(ompi_mpix_graph_t *graph, int var_id, ompi_mpix_graph_t *sub_graph,
                            int *op_id, int dep_op_id, const char **msg);
int graphs_graph_goto_impl(ompi_mpix_graph_t *graph, int dest_op_id, int dep_op_id,
                           const char **msg);
int graphs_graph_var_create_impl(ompi_mpix_graph_t *graph, int var_id, int scope,
                                 ompi_datatype_t *datatype, const char **msg);
/** MPIX_Graph_var_set and _get: graph is a graph or a running activation
 * (a callback's graph). */
int graphs_graph_var_set_impl(ompi_mpix_graph_t *graph, int var_id, const void *value,
                              const char **msg);
int graphs_graph_var_get_impl(ompi_mpix_graph_t *graph, int var_id, void *value, const char **msg);
int graphs_graph_set_param_impl(ompi_mpix_graph_t *graph, int var_id, const void *value,
                                const char **msg);
int graphs_graph_var_reduce_impl(ompi_mpix_graph_t *graph, int in_var1_id, int in_var2_id,
                                 ompi_op_t *var_op, int out_var_id, int *op_id, int dep_op_id,
                                 const char **msg);

/** Append a graph token to an open execution (a stream) as one node. */
int graphs_run_add_graph_node(graphs_engine_t *exec, ompi_mpix_token_t *token);

/** Load a graph snapshot into exec as its nodes (a new activation). */
int graphs_gdef_load(graphs_engine_t *exec, graphs_gdef_t *def, graphs_inst_t *parent);

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

/** The token is a collective (started in op-ID order inside a graph). */
bool graphs_token_collective(const ompi_mpix_token_t *token);

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
int graphs_exec_error_op(graphs_engine_t *exec, ompi_mpix_token_t *token);

/** Load a token into an execution as its nodes (a single operation today;
 * a graph token expands into its nodes and edges, issue 16). */
int graphs_exec_load(graphs_engine_t *exec, ompi_mpix_token_t *token);

/** A closed execution's next run of token: a graph loaded there by the
 * last run is rewound in place (graphs_engine_rewind), anything else is
 * reset and loaded. */
int graphs_exec_reload(graphs_engine_t *exec, ompi_mpix_token_t *token);

#pragma GCC visibility pop

END_C_DECLS

#endif /* OMPI_MPIEXT_GRAPHS_GRAPH_H */
