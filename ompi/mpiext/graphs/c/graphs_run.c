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
 * Graph executions on the extension's dependency executor (graphs_engine.c),
 * and the loading of any token into an execution.  A graph snapshot is
 * loaded into an execution as one node per operation (an
 * activation, with its own variables: graphs_inst_t).  If/else, while and
 * graph tokens inside a graph are compound nodes: their start creates a
 * sub-execution, which the executor advances through the node's progress
 * function and which completes the node's internal request when it is
 * quiescent; a loop whose body is a straight line of operations that start
 * at once runs that body itself, one operation after the other
 * (graphs_line_t).  A goto appends a new activation of its destination's
 * subtree to the execution it runs in.  Variable-bound arguments are resolved into
 * a copy of the token when the operation starts.
 */

#include "ompi_config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "opal/sys/atomic.h"
#include "ompi/mpiext/graphs/c/graphs_graph.h"
#include "ompi/mpiext/graphs/c/graphs_bindings.h"
#include "ompi/request/request_owner.h"

static void inst_construct(graphs_inst_t *inst)
{
    inst->magic = GRAPHS_INST_MAGIC;
    inst->def = NULL;
    inst->parent = NULL;
    inst->vals = NULL;
    inst->refs = NULL;
    inst->strs = NULL;
    inst->exec = NULL;
}

/* the strings var_set copied into this activation */
static void inst_drop_strings(graphs_inst_t *inst)
{
    for (int i = 0; i < inst->def->nvars; ++i) {
        free(inst->strs[i]);
        inst->strs[i] = NULL;
    }
}

static void inst_destruct(graphs_inst_t *inst)
{
    inst->magic = GRAPHS_DEAD_MAGIC;
    if (NULL != inst->strs) {
        inst_drop_strings(inst);
        free(inst->strs);
    }
    free(inst->vals);
    free(inst->refs);
    if (NULL != inst->def) {
        OBJ_RELEASE(inst->def);
    }
    if (NULL != inst->parent) {
        OBJ_RELEASE(inst->parent);
    }
}

OBJ_CLASS_INSTANCE(graphs_inst_t, opal_object_t, inst_construct, inst_destruct);

static int inst_new(graphs_gdef_t *def, graphs_inst_t *parent, graphs_engine_t *exec,
                    graphs_inst_t **out)
{
    graphs_inst_t *inst = OBJ_NEW(graphs_inst_t);

    if (NULL == inst) {
        return MPI_ERR_NO_MEM;
    }
    OBJ_RETAIN(def);
    inst->def = def;
    if (NULL != parent) {
        OBJ_RETAIN(parent);
        inst->parent = parent;
    }
    inst->exec = exec;
    if (0 < def->nvars) {
        inst->vals = malloc(def->vbytes ? def->vbytes : 1);
        inst->refs = calloc(def->nvars, sizeof(void *));
        if (NULL == inst->vals || NULL == inst->refs) {
            OBJ_RELEASE(inst);
            return MPI_ERR_NO_MEM;
        }
        memcpy(inst->vals, def->init, def->vbytes);
        for (int i = 0; i < def->nvars; ++i) {
            graphs_var_t *v = &def->vars[i];
            if (MPIX_GRAPH_VAR_REF_PARAM != v->scope) {
                continue;
            }
            if (0 <= v->ref_outer) {
                inst->refs[i] = graphs_inst_var(parent, v->ref_outer, NULL);
                if (NULL == inst->refs[i]) {
                    /* a graph aliasing an outer variable executed on its own */
                    OBJ_RELEASE(inst);
                    return MPI_ERR_ARG;
                }
            } else {
                inst->refs[i] = v->ref;
            }
        }
    }
    *out = inst;
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------ nodes */

struct graphs_child_t;

/* a var_reduce node's variables, looked up at its first start: the storage
 * of a variable does not move while the activation lives, and the node
 * keeps its activation (rewound, not reloaded) */
typedef struct graphs_vcache_t {
    void *p[3];                     /**< in1, in2, out */
    ompi_datatype_t *t[3];
    int sum_ik;                     /**< an integer MPI_SUM: graphs_var_int_kind, else 0 */
} graphs_vcache_t;

typedef struct graphs_run_t {
    graphs_inst_t *inst;            /**< retained */
    int idx;                        /**< node index in inst->def */
    graphs_dnode_t *dn;             /**< that node (started again at each iteration of a loop) */
    ompi_mpix_token_t *token;       /**< a token node: dn->token, read here at its start
                                         without the node's cache lines */
    struct graphs_block_t *block;
    ompi_mpix_token_t *tcopy;       /**< the token with its variables resolved, or NULL */
    struct graphs_child_t *child;   /**< a running sub-execution, or NULL */
    graphs_vcache_t *vc;            /**< var_reduce: its variables, or NULL */
} graphs_run_t;

/* the runs of one activation, allocated together */
typedef struct graphs_block_t {
    int left;                       /**< runs not released yet */
    graphs_run_t runs[];
} graphs_block_t;

/* a loop's body that is a straight line of nodes each starting at once
 * (tokens with their own arguments, counters), run by the loop itself: one
 * node after the other, the next iteration at once after the last, without
 * the executor's per-node bookkeeping (docs/graphs-streams.md, "A loop's
 * straight body") */
typedef struct graphs_line_t {
    int n;
    int pos;                        /**< the node running, or the next to start */
    int nreqs;                      /**< the running node's requests; 0: none runs */
    bool polled;                    /**< graphs_engine_watch returned true for them */
    ompi_request_t *reqs[GRAPHS_ENGINE_NODE_REQS];
    graphs_run_t runs[];            /**< in the body's order (inst not retained) */
} graphs_line_t;

/* a sub-execution: a graph token inside a graph, a branch, a loop */
typedef struct graphs_child_t {
    ompi_request_t req;             /**< what the parent's executor polls */
    graphs_engine_t exec;
    graphs_gdef_t *body;
    graphs_inst_t *parent;          /**< the enclosing activation (not retained: the run holds it) */
    graphs_inst_t *inst;            /**< the current activation (retained) */
    int cond;                       /**< while: the condition variable; -1 otherwise */
    void *cond_p;                   /**< its storage, when an integer (cond_ik) */
    int cond_ik;                    /**< graphs_var_int_kind of it, 0: look it up each time */
    graphs_line_t *line;            /**< a loop's straight body, or NULL (the body runs in exec) */
    bool cancelled;
} graphs_child_t;

static const graphs_engine_op_ops_t graphs_run_ops, graphs_run_leaf_ops, graphs_run_now_ops,
    graphs_run_reduce_ops;

/* the executor functions of a node: a node that may hold a sub-execution
 * (if/else, while, a graph token) is advanced and cancelled through it; the
 * others have no progress function to be called at every poll; a token
 * that may start at once with its own arguments (a send of a fan-out, a
 * loop's exchange) starts through a function of its own */
static inline const graphs_engine_op_ops_t *run_ops(const graphs_dnode_t *dn)
{
    if (GRAPHS_GN_IF == dn->type || GRAPHS_GN_WHILE == dn->type
        || (GRAPHS_GN_TOKEN == dn->type && GRAPHS_OP_GRAPH == dn->token->kind)) {
        return &graphs_run_ops;
    }
    if (GRAPHS_GN_TOKEN == dn->type && 0 == dn->token->nvb && graphs_token_fast(dn->token)
        && GRAPHS_OP_CALLBACK != dn->token->kind) {
        return &graphs_run_now_ops;
    }
    if (GRAPHS_GN_REDUCE == dn->type) {
        return &graphs_run_reduce_ops;
    }
    return &graphs_run_leaf_ops;
}
static int gdef_load_with(graphs_engine_t *exec, graphs_gdef_t *def, graphs_inst_t *inst);

static void line_free(graphs_line_t *line)
{
    for (int k = 0; k < line->n; ++k) {
        free(line->runs[k].vc);
    }
    free(line);
}

static void child_destroy(graphs_child_t *c)
{
    if (NULL != c->line) {
        line_free(c->line);
    }
    graphs_engine_fini(&c->exec);
    if (NULL != c->inst) {
        OBJ_RELEASE(c->inst);
    }
    OBJ_DESTRUCT(&c->req);
    free(c);
}

static bool cond_true(graphs_inst_t *inst, int id, int *rc)
{
    graphs_var_t *v = NULL;
    void *p = graphs_inst_var(inst, id, &v);
    int64_t x = 0;

    if (NULL == p || !graphs_var_to_i64(v->dtype, p, &x)) {
        *rc = MPI_ERR_ARG;
        return false;
    }
    return 0 != x;
}

/* load the body into the child as a new activation */
static int child_load(graphs_child_t *c)
{
    int rc;

    if (NULL == c->inst || 0 < c->body->nvars) {
        graphs_inst_t *inst;
        rc = inst_new(c->body, c->parent, &c->exec, &inst);
        if (MPI_SUCCESS != rc) {
            return rc;
        }
        if (NULL != c->inst) {
            OBJ_RELEASE(c->inst);
        }
        c->inst = inst;
    }
    return gdef_load_with(&c->exec, c->body, c->inst);
}

/* the variables of an activation back to their initial values: with its
 * nodes rewound, the activation is as good as a new one (nothing else holds
 * it once its nodes completed; reference parameters resolve the same) */
static void inst_rearm(graphs_inst_t *inst)
{
    if (0 < inst->def->vbytes) {
        memcpy(inst->vals, inst->def->init, inst->def->vbytes);
    }
    if (OPAL_UNLIKELY(NULL != inst->strs)) {
        inst_drop_strings(inst);
    }
}

/* the next iteration of a loop: its nodes rewound in place, unless a goto
 * added an activation (then loaded anew) */
static int child_reload(graphs_child_t *c)
{
    if (NULL != c->inst && c->exec.nnodes == c->body->nnodes
        && graphs_engine_rewind(&c->exec)) {
        inst_rearm(c->inst);
        return MPI_SUCCESS;
    }
    graphs_engine_reset(&c->exec);
    return child_load(c);
}

static bool line_advance(graphs_child_t *c, int *events);

/* advance a sub-execution; a loop starts its next iteration when one
 * completes; true when the sub-execution is complete */
static bool child_advance(graphs_child_t *c, bool may_block, int *events)
{
    int iterations = 0;

    if (NULL != c->line) {
        return line_advance(c, events);
    }
    for (;;) {
        int rc = MPI_SUCCESS;
        *events += graphs_engine_step(&c->exec, may_block);
        if (!graphs_engine_complete(&c->exec)) {
            return false;
        }
        if (c->cond < 0 || MPI_SUCCESS != c->exec.error || c->cancelled) {
            return true;
        }
        if (0 != c->cond_ik ? 0 == graphs_var_int_read(c->cond_ik, c->cond_p)
                            : !cond_true(c->parent, c->cond, &rc)) {
            if (MPI_SUCCESS != rc) {
                c->exec.error = rc;
            }
            return true;
        }
        /* the next iteration: a fresh activation of the body (its locals
         * re-initialized) */
        rc = child_reload(c);
        if (MPI_SUCCESS != rc) {
            c->exec.error = rc;
            return 0 == c->exec.running;
        }
        if (++iterations == 64) {
            /* let other work progress between long runs of quick
             * iterations; the next progress call goes on */
            graphs_engine_poke();
            *events += graphs_engine_step(&c->exec, may_block);
            return graphs_engine_complete(&c->exec) && (c->exec.error != MPI_SUCCESS);
        }
    }
}

/* the straight line of a loop's body, or NULL: its nodes in a chain, each
 * depending on the one before alone, each a token that starts at once with
 * its own arguments or a var_reduce (no collective, nothing blocking-only,
 * no compound node or goto); the condition an integer */
static graphs_line_t *line_new(graphs_child_t *c)
{
    graphs_gdef_t *d = c->body;
    graphs_line_t *line;

    if (0 == c->cond_ik || 0 >= d->nnodes || d->has_coll || d->blocking) {
        return NULL;
    }
    for (int k = 0; k < d->nnodes; ++k) {
        graphs_dnode_t *dn = &d->nodes[d->order[k]];
        const graphs_engine_op_ops_t *ops = run_ops(dn);
        if ((&graphs_run_now_ops != ops && &graphs_run_reduce_ops != ops) || 0 != dn->flags) {
            return NULL;
        }
        if (0 == k ? 0 != dn->ndeps : (1 != dn->ndeps || d->order[k - 1] != dn->deps[0])) {
            return NULL;
        }
    }
    line = malloc(sizeof(*line) + (size_t) d->nnodes * sizeof(graphs_run_t));
    if (NULL == line) {
        /* the executor runs the body */
        return NULL;
    }
    line->n = d->nnodes;
    line->pos = 0;
    line->nreqs = 0;
    line->polled = false;
    for (int k = 0; k < d->nnodes; ++k) {
        graphs_run_t *r = &line->runs[k];
        r->inst = NULL;
        r->idx = d->order[k];
        r->dn = &d->nodes[r->idx];
        r->token = r->dn->token;
        r->block = NULL;
        r->tcopy = NULL;
        r->child = NULL;
        r->vc = NULL;
    }
    return line;
}

/* start a sub-execution for run: done in the call (nreqs 0, error
 * returned) or running (reqs[0]) */
static int child_start(graphs_run_t *run, graphs_gdef_t *body, int cond, ompi_request_t **reqs,
                       int *nreqs)
{
    graphs_child_t *c = malloc(sizeof(*c));
    int rc, events = 0;

    if (NULL == c) {
        return MPI_ERR_NO_MEM;
    }
    OBJ_CONSTRUCT(&c->req, ompi_request_t);
    c->req.req_complete = REQUEST_PENDING;
    graphs_engine_init(&c->exec, false, NULL, NULL, NULL);
    c->body = body;
    c->parent = run->inst;
    c->cond = cond;
    c->cond_ik = 0;
    if (0 <= cond) {
        graphs_var_t *v = NULL;
        c->cond_p = graphs_inst_var(run->inst, cond, &v);
        if (NULL != c->cond_p) {
            c->cond_ik = graphs_var_int_kind(v->dtype);
        }
    }
    c->cancelled = false;
    c->inst = NULL;
    c->line = line_new(c);
    if (NULL != c->line) {
        rc = inst_new(body, c->parent, &c->exec, &c->inst);
        for (int k = 0; MPI_SUCCESS == rc && k < c->line->n; ++k) {
            c->line->runs[k].inst = c->inst;
        }
    } else {
        rc = child_load(c);
    }
    if (MPI_SUCCESS != rc) {
        child_destroy(c);
        return rc;
    }
    if (child_advance(c, false, &events)) {
        rc = c->exec.error;
        child_destroy(c);
        return rc;
    }
    run->child = c;
    reqs[0] = &c->req;
    *nreqs = 1;
    return MPI_SUCCESS;
}

/* a goto fired: a new activation of the destination and its descendants,
 * appended to the execution the goto runs in */
static int goto_fire(graphs_run_t *run, graphs_dnode_t *gn)
{
    graphs_inst_t *inst = run->inst;
    graphs_gdef_t *d = inst->def;
    graphs_engine_t *exec = inst->exec;
    graphs_block_t *block;
    int *map, base = exec->nnodes, rc = MPI_SUCCESS, deps[64];

    block = malloc(sizeof(*block) + gn->nsubtree * sizeof(graphs_run_t));
    map = malloc(d->nnodes * sizeof(int));
    if (NULL == block || NULL == map) {
        free(block);
        free(map);
        return MPI_ERR_NO_MEM;
    }
    block->left = gn->nsubtree;
    for (int k = 0; k < gn->nsubtree; ++k) {
        map[gn->subtree[k]] = base + k;
    }
    for (int k = 0; k < gn->nsubtree; ++k) {
        int i = gn->subtree[k], nd = 0;
        graphs_dnode_t *dn = &d->nodes[i];
        graphs_run_t *r = &block->runs[k];
        int *dp = deps;

        r->inst = inst;
        OBJ_RETAIN(inst);
        r->idx = i;
        r->dn = &d->nodes[i];
        r->token = r->dn->token;
        r->block = block;
        r->tcopy = NULL;
        r->child = NULL;
        r->vc = NULL;
        if (0 < k) {
            if (dn->ndeps > 64 && NULL == (dp = malloc(dn->ndeps * sizeof(int)))) {
                rc = MPI_ERR_NO_MEM;
            }
            for (int q = 0; MPI_SUCCESS == rc && q < dn->ndeps; ++q) {
                dp[nd++] = map[dn->deps[q]];
            }
        }
        if (MPI_SUCCESS == rc
            && 0 > graphs_engine_add(exec, run_ops(dn), r, dn->flags, nd, dp, false)) {
            rc = MPI_ERR_NO_MEM;
        }
        if (dp != deps) {
            free(dp);
        }
        if (MPI_SUCCESS != rc) {
            /* the runs not handed to the executor */
            for (int j = k; j < gn->nsubtree; ++j) {
                if (j > k) {
                    OBJ_RETAIN(inst);
                }
                OBJ_RELEASE(inst);
            }
            block->left -= gn->nsubtree - k;
            if (0 == block->left) {
                free(block);
            }
            break;
        }
    }
    free(map);
    return rc;
}

static int reduce_lookup(graphs_run_t *run, graphs_dnode_t *dn)
{
    graphs_vcache_t *vc = malloc(sizeof(*vc));
    const int ids[3] = {dn->in1, dn->in2, dn->out};

    if (NULL == vc) {
        return MPI_ERR_NO_MEM;
    }
    for (int k = 0; k < 3; ++k) {
        graphs_var_t *v = NULL;
        vc->p[k] = graphs_inst_var(run->inst, ids[k], &v);
        if (NULL == vc->p[k]) {
            free(vc);
            return MPI_ERR_ARG;
        }
        vc->t[k] = v->dtype;
    }
    vc->sum_ik = 0;
    if (dn->cmp < 0 && &ompi_mpi_op_sum.op == dn->op && vc->t[0] == vc->t[1]
        && vc->t[0] == vc->t[2]) {
        vc->sum_ik = graphs_var_int_kind(vc->t[0]);
    }
    run->vc = vc;
    return MPI_SUCCESS;
}

/* a resolved copy whose large counts are carried by derived datatypes owns those types */
static void run_drop_copy(graphs_run_t *run)
{
    for (int i = 0; NULL != run->tcopy && i < run->tcopy->nown; ++i) {
        ompi_datatype_t **type = (ompi_datatype_t **) ((char *) run->tcopy
                                                       + run->tcopy->own_off[i]);
        ompi_datatype_destroy(type);
    }
    free(run->tcopy);
    run->tcopy = NULL;
}

/* the start of a token node */
static __opal_attribute_noinline__ int run_start_token(graphs_run_t *run, ompi_mpix_token_t *t,
                                                       ompi_request_t **reqs, int *nreqs)
{
    int rc = MPI_SUCCESS;

    if (GRAPHS_OP_CALLBACK == t->kind) {
        /* the callback gets the running instance (spec 1.2.2) */
        return t->a.cb.fn((MPIX_Graph) run->inst, t->a.cb.extra_state);
    }
    if (GRAPHS_OP_GRAPH == t->kind) {
        return child_start(run, t->a.gdef, -1, reqs, nreqs);
    }
    /* a token that may start at once with its own arguments has
     * graphs_run_now_ops (run_ops) and does not come here */
    if (0 < t->nvb) {
        run->tcopy = malloc(sizeof(*t));
        if (NULL == run->tcopy) {
            return MPI_ERR_NO_MEM;
        }
        rc = graphs_token_resolve(t, run->inst, run->tcopy);
        if (MPI_SUCCESS != rc) {
            run_drop_copy(run);
            return rc;
        }
        t = run->tcopy;
    }
    rc = graphs_token_start_kind(t, reqs, nreqs);
    if (MPI_SUCCESS != rc || 0 == *nreqs) {
        run_drop_copy(run);
    }
    return rc;
}

static inline int run_reduce(graphs_run_t *run, graphs_dnode_t *dn)
{
    graphs_vcache_t *vc = run->vc;
    int rc;

    if (NULL == vc && MPI_SUCCESS != (rc = reduce_lookup(run, dn))) {
        return rc;
    }
    vc = run->vc;
    if (0 != vc->sum_ik) {
        /* modulo 2^n, as the integer MPI_SUM */
        uint64_t x = (uint64_t) graphs_var_int_read(vc->sum_ik, vc->p[0])
                     + (uint64_t) graphs_var_int_read(vc->sum_ik, vc->p[1]);
        graphs_var_int_write(vc->sum_ik, vc->p[2], (int64_t) x);
        return MPI_SUCCESS;
    }
    return graphs_var_reduce_compute(dn->op, dn->cmp, vc->t[0], vc->p[0], vc->p[1], vc->t[2],
                                     vc->p[2]);
}

/* the start of a var_reduce node (graphs_run_reduce_ops: a loop's counter
 * is one per iteration) */
static int run_start_reduce(void *op, ompi_request_t **reqs, int *nreqs)
{
    graphs_run_t *run = (graphs_run_t *) op;

    (void) reqs;
    *nreqs = 0;
    return run_reduce(run, run->dn);
}

/* advance a loop's straight body (graphs_line_t): finish the running
 * node if its requests completed, start the nodes after it until one is
 * left running, and go on with the next iteration while the condition
 * holds; true when the loop is complete (c->exec.error its result) */
static bool line_advance(graphs_child_t *c, int *events)
{
    graphs_line_t *line = c->line;
    int iterations = 0;

    for (;;) {
        while (line->pos < line->n) {
            graphs_run_t *r = &line->runs[line->pos];
            int rc = MPI_SUCCESS;

            if (0 < line->nreqs) {
                for (int q = 0; q < line->nreqs; ++q) {
                    if (!graphs_engine_req_done(line->reqs[q])) {
                        return false;
                    }
                }
                if (OPAL_UNLIKELY(line->polled)) {
                    graphs_engine_unpoll();
                    line->polled = false;
                }
                rc = graphs_token_finish_kind(r->token, line->reqs, line->nreqs);
                line->nreqs = 0;
            } else if (OPAL_UNLIKELY(MPI_SUCCESS != c->exec.error)) {
                /* failed or cancelled: nothing more starts */
                return true;
            } else if (GRAPHS_GN_REDUCE == r->dn->type) {
                rc = run_reduce(r, r->dn);
            } else if (graphs_token_try_now(r->token, line->reqs, &line->nreqs, &rc)) {
                line->nreqs = 0;
            } else {
                line->polled = graphs_engine_watch(line->reqs, line->nreqs);
                ++*events;
                return false;
            }
            ++*events;
            if (OPAL_UNLIKELY(MPI_SUCCESS != rc)) {
                if (MPI_SUCCESS == c->exec.error) {
                    c->exec.error = rc;
                }
                return true;
            }
            line->pos++;
        }
        if (MPI_SUCCESS != c->exec.error || c->cancelled
            || 0 == graphs_var_int_read(c->cond_ik, c->cond_p)) {
            return true;
        }
        /* the next iteration: a fresh activation of the body */
        line->pos = 0;
        inst_rearm(c->inst);
        if (++iterations == 64) {
            /* let other work progress between long runs of quick
             * iterations; the next progress call goes on */
            graphs_engine_poke();
            return false;
        }
    }
}

/* the start of the other nodes */
static __opal_attribute_noinline__ int run_start_other(graphs_run_t *run, graphs_dnode_t *dn,
                                                       ompi_request_t **reqs, int *nreqs)
{
    graphs_inst_t *inst = run->inst;
    int rc = MPI_SUCCESS;

    switch (dn->type) {
    case GRAPHS_GN_JOIN:
    case GRAPHS_GN_NOP:
        return MPI_SUCCESS;
    case GRAPHS_GN_REDUCE:
        return run_reduce(run, dn);
    case GRAPHS_GN_IF: {
        bool c = cond_true(inst, dn->var, &rc);
        graphs_gdef_t *branch = dn->sub[c ? 0 : 1];
        if (MPI_SUCCESS != rc || NULL == branch) {
            return rc;
        }
        return child_start(run, branch, -1, reqs, nreqs);
    }
    case GRAPHS_GN_WHILE:
        if (!cond_true(inst, dn->var, &rc)) {
            return rc;
        }
        return child_start(run, dn->sub[0], dn->var, reqs, nreqs);
    case GRAPHS_GN_GOTO:
        return goto_fire(run, dn);
    default:
        return MPI_ERR_INTERN;
    }
}

/* a small dispatcher, so that the commonest node (a token) pays for no
 * other node's registers */
static int run_start(void *op, ompi_request_t **reqs, int *nreqs)
{
    graphs_run_t *run = (graphs_run_t *) op;
    graphs_dnode_t *dn = run->dn;

    *nreqs = 0;
    if (OPAL_LIKELY(GRAPHS_GN_TOKEN == dn->type)) {
        return run_start_token(run, dn->token, reqs, nreqs);
    }
    return run_start_other(run, dn, reqs, nreqs);
}

/* the start of a token node of graphs_run_now_ops: an operation done in
 * the call (a small send) is finished here, so that the executor neither
 * polls it nor goes through run_finish and the op table */
static int run_start_now(void *op, ompi_request_t **reqs, int *nreqs)
{
    int rc = MPI_SUCCESS;

    if (graphs_token_try_now(((graphs_run_t *) op)->token, reqs, nreqs, &rc)) {
        *nreqs = 0;
    }
    return rc;
}

static int run_finish(void *op, ompi_request_t **reqs, int nreqs)
{
    graphs_run_t *run = (graphs_run_t *) op;
    int rc;

    if (NULL != run->child) {
        rc = run->child->exec.error;
        child_destroy(run->child);
        run->child = NULL;
        return rc;
    }
    rc = graphs_token_finish_kind(NULL != run->tcopy ? run->tcopy
                                                     : run->dn->token,
                                  reqs, nreqs);
    run_drop_copy(run);
    return rc;
}

static void run_release(void *op)
{
    graphs_run_t *run = (graphs_run_t *) op;
    graphs_block_t *block = run->block;

    if (NULL != run->child) {
        child_destroy(run->child);
        run->child = NULL;
    }
    run_drop_copy(run);
    free(run->vc);
    run->vc = NULL;
    OBJ_RELEASE(run->inst);
    if (0 == --block->left) {
        free(block);
    }
}

static int run_progress(void *op, bool may_block)
{
    graphs_run_t *run = (graphs_run_t *) op;
    graphs_child_t *c = run->child;
    int events = 0;

    if (NULL == c || ompi_request_seen_complete(&c->req)) {
        return 0;
    }
    if (child_advance(c, may_block, &events)) {
        opal_atomic_wmb();
        c->req.req_complete = REQUEST_COMPLETED;
        events++;
    }
    return events;
}

static void run_cancel(void *op)
{
    graphs_run_t *run = (graphs_run_t *) op;

    if (NULL != run->child) {
        graphs_line_t *line = run->child->line;
        run->child->cancelled = true;
        graphs_engine_cancel(&run->child->exec);
        if (NULL != line) {
            graphs_engine_cancel_reqs(line->reqs, line->nreqs);
        }
    }
}

static const graphs_engine_op_ops_t graphs_run_ops = {
    .start = run_start,
    .finish = run_finish,
    .release = run_release,
    .progress = run_progress,
    .cancel = run_cancel,
};

static const graphs_engine_op_ops_t graphs_run_now_ops = {
    .start = run_start_now,
    .finish = run_finish,
    .release = run_release,
    .progress = NULL,
    .cancel = NULL,
};

static const graphs_engine_op_ops_t graphs_run_reduce_ops = {
    .start = run_start_reduce,
    .finish = run_finish,
    .release = run_release,
    .progress = NULL,
    .cancel = NULL,
};

static const graphs_engine_op_ops_t graphs_run_leaf_ops = {
    .start = run_start,
    .finish = run_finish,
    .release = run_release,
    .progress = NULL,
    .cancel = NULL,
};

/* load def's nodes into exec as an activation with its variables in inst
 * (each node holds a reference to inst) */
static int gdef_load_with(graphs_engine_t *exec, graphs_gdef_t *def, graphs_inst_t *inst)
{
    graphs_block_t *block;
    int base = exec->nnodes, coll_base = exec->coll_count, deps[64], pos_small[64];
    int *pos = pos_small;

    if (0 == def->nnodes) {
        return MPI_SUCCESS;
    }
    block = malloc(sizeof(*block) + def->nnodes * sizeof(graphs_run_t));
    if (def->nnodes > 64) {
        pos = malloc(def->nnodes * sizeof(int));
    }
    if (NULL == block || NULL == pos) {
        free(block);
        if (pos != pos_small) {
            free(pos);
        }
        return MPI_ERR_NO_MEM;
    }
    block->left = def->nnodes;
    /* nodes go in in topological order (a dependency may name a later op
     * ID: set_dep_op); pos maps a node to its executor index */
    for (int k = 0; k < def->nnodes; ++k) {
        pos[def->order[k]] = base + k;
    }
    for (int k = 0; k < def->nnodes; ++k) {
        int i = def->order[k];
        graphs_dnode_t *dn = &def->nodes[i];
        graphs_run_t *r = &block->runs[i];
        int *dp = deps, idx;

        r->inst = inst;
        r->idx = i;
        r->dn = dn;
        r->token = dn->token;
        r->block = block;
        r->tcopy = NULL;
        r->child = NULL;
        r->vc = NULL;
        if (dn->ndeps > 64 && NULL == (dp = malloc(dn->ndeps * sizeof(int)))) {
            idx = -1;
        } else {
            for (int q = 0; q < dn->ndeps; ++q) {
                dp[q] = pos[dn->deps[q]];
            }
            idx = graphs_engine_add(exec, run_ops(dn), r, dn->flags, dn->ndeps, dp, false);
            if (dp != deps) {
                free(dp);
            }
        }
        if (0 > idx) {
            /* the runs not handed to the executor go; the execution fails */
            block->left -= def->nnodes - k;
            if (0 == block->left) {
                free(block);
            }
            if (pos != pos_small) {
                free(pos);
            }
            return MPI_ERR_NO_MEM;
        }
        OBJ_RETAIN(inst);
        /* collectives start in op-ID order, whatever the load order */
        if (0 <= def->coll_rank[i]) {
            exec->nodes[idx].coll_seq = coll_base + def->coll_rank[i];
        }
    }
    if (pos != pos_small) {
        free(pos);
    }
    return MPI_SUCCESS;
}

int graphs_gdef_load(graphs_engine_t *exec, graphs_gdef_t *def, graphs_inst_t *parent)
{
    graphs_inst_t *inst;
    int rc = inst_new(def, parent, exec, &inst);

    if (MPI_SUCCESS != rc) {
        return rc;
    }
    rc = gdef_load_with(exec, def, inst);
    OBJ_RELEASE(inst);
    return rc;
}

int graphs_exec_load(graphs_engine_t *exec, ompi_mpix_token_t *token)
{
    if (GRAPHS_OP_GRAPH == token->kind) {
        /* a stream runs a graph as one item (a node holding a
         * sub-execution); an execution of its own takes its nodes */
        return exec->open ? graphs_run_add_graph_node(exec, token)
                          : graphs_gdef_load(exec, token->a.gdef, NULL);
    }
    OBJ_RETAIN(token);
    if (0 > graphs_engine_add(exec, &graphs_token_exec_ops, token,
                              graphs_kind_blocking(token->kind) ? GRAPHS_ENGINE_BLOCKING : 0,
                              0, NULL, true)) {
        graphs_token_release(token);
        return MPI_ERR_NO_MEM;
    }
    return MPI_SUCCESS;
}

int graphs_exec_reload(graphs_engine_t *exec, ompi_mpix_token_t *token)
{
    if (GRAPHS_OP_GRAPH == token->kind && !exec->open && 0 < exec->nnodes
        && exec->nnodes == token->a.gdef->nnodes
        && (&graphs_run_ops == exec->nodes[0].ops || &graphs_run_leaf_ops == exec->nodes[0].ops
            || &graphs_run_now_ops == exec->nodes[0].ops
            || &graphs_run_reduce_ops == exec->nodes[0].ops)) {
        graphs_inst_t *inst = ((graphs_run_t *) exec->nodes[0].op)->inst;
        if (inst->def == token->a.gdef && NULL == inst->parent && graphs_engine_rewind(exec)) {
            inst_rearm(inst);
            return MPI_SUCCESS;
        }
    }
    graphs_engine_reset(exec);
    return graphs_exec_load(exec, token);
}

int graphs_run_add_graph_node(graphs_engine_t *exec, ompi_mpix_token_t *token)
{
    /* a one-node graph around the token, whose node runs the token as a
     * sub-execution, appended behind the stream's previous token */
    graphs_gdef_t *d = OBJ_NEW(graphs_gdef_t);
    graphs_inst_t *inst = NULL;
    graphs_block_t *block = NULL;
    int rc = MPI_ERR_NO_MEM;

    if (NULL == d) {
        return MPI_ERR_NO_MEM;
    }
    d->nnodes = 1;
    d->nodes = calloc(1, sizeof(graphs_dnode_t));
    d->order = calloc(1, sizeof(int));
    d->coll_rank = malloc(sizeof(int));
    d->init = calloc(1, 1);
    block = malloc(sizeof(*block) + sizeof(graphs_run_t));
    if (NULL == d->nodes || NULL == d->order || NULL == d->coll_rank || NULL == d->init
        || NULL == block) {
        goto out;
    }
    d->coll_rank[0] = -1;
    d->nodes[0].type = GRAPHS_GN_TOKEN;
    d->nodes[0].cmp = -1;
    OBJ_RETAIN(token);
    d->nodes[0].token = token;
    rc = inst_new(d, NULL, exec, &inst);
    if (MPI_SUCCESS != rc) {
        goto out;
    }
    block->left = 1;
    block->runs[0].inst = inst;
    block->runs[0].idx = 0;
    block->runs[0].dn = &d->nodes[0];
    block->runs[0].token = token;
    block->runs[0].block = block;
    block->runs[0].tcopy = NULL;
    block->runs[0].child = NULL;
    block->runs[0].vc = NULL;
    if (0 > graphs_engine_add(exec, &graphs_run_ops, &block->runs[0], 0, 0, NULL, true)) {
        OBJ_RELEASE(inst);
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    block = NULL;
    rc = MPI_SUCCESS;
out:
    free(block);
    OBJ_RELEASE(d);
    return rc;
}

int graphs_exec_error_op(graphs_engine_t *exec, ompi_mpix_token_t *token)
{
    if (NULL == token || GRAPHS_OP_GRAPH != token->kind || exec->error_node < 0
        || exec->error_node >= exec->nnodes) {
        return MPIX_DEP_NONE;
    }
    return ((graphs_run_t *) exec->nodes[exec->error_node].op)->idx + 1;
}
