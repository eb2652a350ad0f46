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
 * Graphs being built (templates) and MPIX_Graph_def, which checks a template
 * and snapshots it into an immutable graph definition (spec 1.4, 2.3-2.6):
 * parameters set, variables resolved lexically, implicit edges of future
 * values, no cycle, goto destinations, collectives in op-ID order.
 */

#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include "ompi/mpiext/graphs/c/graphs_bindings.h"
#include "ompi/mpiext/graphs/c/graphs_graph.h"

static void graph_construct(ompi_mpix_graph_t *g)
{
    g->magic = GRAPHS_GRAPH_MAGIC;
    g->nodes = NULL;
    g->nnodes = g->cap = 0;
    g->vars = NULL;
    g->nvars = g->vcap = 0;
    g->session = NULL;
}

static void gnode_clear(graphs_gnode_t *n)
{
    if (NULL != n->token) {
        graphs_token_release(n->token);
    }
    for (int b = 0; b < 2; ++b) {
        if (NULL != n->sub[b]) {
            OBJ_RELEASE(n->sub[b]);
        }
    }
    free(n->join);
    if (NULL != n->op && n->cmp < 0) {
        OBJ_RELEASE(n->op);
    }
}

static void var_clear(graphs_var_t *v)
{
    if (NULL != v->dtype) {
        OBJ_RELEASE(v->dtype);
    }
    free(v->str);
}

static void graph_destruct(ompi_mpix_graph_t *g)
{
    for (int i = 0; i < g->nnodes; ++i) {
        gnode_clear(&g->nodes[i]);
    }
    free(g->nodes);
    for (int i = 0; i < g->nvars; ++i) {
        var_clear(&g->vars[i]);
    }
    free(g->vars);
    g->magic = GRAPHS_DEAD_MAGIC;
}

OBJ_CLASS_INSTANCE(ompi_mpix_graph_t, opal_object_t, graph_construct, graph_destruct);

static void gdef_construct(graphs_gdef_t *d)
{
    memset((char *) d + sizeof(opal_object_t), 0, sizeof(*d) - sizeof(opal_object_t));
}

static void gdef_destruct(graphs_gdef_t *d)
{
    for (int i = 0; i < d->nnodes; ++i) {
        graphs_dnode_t *n = &d->nodes[i];
        if (NULL != n->token) {
            graphs_token_release(n->token);
        }
        for (int b = 0; b < 2; ++b) {
            if (NULL != n->sub[b]) {
                OBJ_RELEASE(n->sub[b]);
            }
        }
        free(n->deps);
        free(n->subtree);
        if (NULL != n->op && n->cmp < 0) {
            OBJ_RELEASE(n->op);
        }
    }
    free(d->nodes);
    free(d->order);
    free(d->coll_rank);
    for (int i = 0; i < d->nvars; ++i) {
        var_clear(&d->vars[i]);
    }
    free(d->vars);
    free(d->off);
    free(d->init);
}

OBJ_CLASS_INSTANCE(graphs_gdef_t, opal_object_t, gdef_construct, gdef_destruct);

int graphs_graph_var_find(const ompi_mpix_graph_t *g, int id)
{
    for (int i = 0; i < g->nvars; ++i) {
        if (g->vars[i].id == id) {
            return i;
        }
    }
    return -1;
}

int graphs_graph_add_node(ompi_mpix_graph_t *g, int type, int dep, graphs_gnode_t **node,
                          int *op_id)
{
    graphs_gnode_t *n;

    if (dep < 0 || dep > g->nnodes) {
        return MPI_ERR_ARG;
    }
    if (g->nnodes == g->cap) {
        int cap = g->cap ? 2 * g->cap : 16;
        graphs_gnode_t *nodes = realloc(g->nodes, cap * sizeof(*nodes));
        if (NULL == nodes) {
            return MPI_ERR_NO_MEM;
        }
        g->nodes = nodes;
        g->cap = cap;
    }
    n = &g->nodes[g->nnodes];
    memset(n, 0, sizeof(*n));
    n->type = type;
    n->dep = dep - 1;
    n->var = n->in1 = n->in2 = n->out = n->cmp = n->dest = -1;
    *node = n;
    *op_id = ++g->nnodes;
    return MPI_SUCCESS;
}

int graphs_graph_dup(ompi_mpix_graph_t *g, ompi_mpix_graph_t **out)
{
    ompi_mpix_graph_t *c = OBJ_NEW(ompi_mpix_graph_t);

    if (NULL == c) {
        return MPI_ERR_NO_MEM;
    }
    c->nodes = calloc(g->nnodes ? g->nnodes : 1, sizeof(*c->nodes));
    c->vars = calloc(g->nvars ? g->nvars : 1, sizeof(*c->vars));
    if (NULL == c->nodes || NULL == c->vars) {
        OBJ_RELEASE(c);
        return MPI_ERR_NO_MEM;
    }
    c->cap = g->nnodes ? g->nnodes : 1;
    c->vcap = g->nvars ? g->nvars : 1;
    c->session = g->session;
    for (int i = 0; i < g->nnodes; ++i) {
        graphs_gnode_t *n = &c->nodes[i];
        *n = g->nodes[i];
        n->join = NULL;
        if (0 < n->njoin) {
            n->join = malloc(n->njoin * sizeof(int));
            if (NULL == n->join) {
                n->njoin = 0;
                n->token = NULL;
                n->sub[0] = n->sub[1] = NULL;
                n->op = NULL;
                c->nnodes = i;
                OBJ_RELEASE(c);
                return MPI_ERR_NO_MEM;
            }
            memcpy(n->join, g->nodes[i].join, n->njoin * sizeof(int));
        }
        /* tokens and sub-graph copies are never changed once in a graph:
         * shared */
        if (NULL != n->token) {
            OBJ_RETAIN(n->token);
        }
        for (int b = 0; b < 2; ++b) {
            if (NULL != n->sub[b]) {
                OBJ_RETAIN(n->sub[b]);
            }
        }
        if (NULL != n->op && n->cmp < 0) {
            OBJ_RETAIN(n->op);
        }
        c->nnodes = i + 1;
    }
    for (int i = 0; i < g->nvars; ++i) {
        graphs_var_t *v = &c->vars[i];
        *v = g->vars[i];
        OBJ_RETAIN(v->dtype);
        v->str = NULL;
        if (NULL != g->vars[i].str) {
            v->str = strdup(g->vars[i].str);
            memcpy(v->val, &v->str, sizeof(char *));
        }
        c->nvars = i + 1;
    }
    *out = c;
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------------- def */

typedef struct graphs_scope_t {
    ompi_mpix_graph_t *g;
    const struct graphs_scope_t *up;
} graphs_scope_t;

static graphs_var_t *scope_find(const graphs_scope_t *s, int id)
{
    for (; NULL != s; s = s->up) {
        int k = graphs_graph_var_find(s->g, id);
        if (0 <= k) {
            return &s->g->vars[k];
        }
    }
    return NULL;
}

static int dnode_add_dep(graphs_dnode_t *n, int d)
{
    int *deps;

    for (int i = 0; i < n->ndeps; ++i) {
        if (n->deps[i] == d) {
            return MPI_SUCCESS;
        }
    }
    deps = realloc(n->deps, (n->ndeps + 1) * sizeof(int));
    if (NULL == deps) {
        return MPI_ERR_NO_MEM;
    }
    deps[n->ndeps++] = d;
    n->deps = deps;
    return MPI_SUCCESS;
}

/* is a reachable from b going up dependencies (a is an ancestor of b)? */
static bool is_ancestor(const graphs_gdef_t *d, int a, int b, unsigned char *mark, int *stack)
{
    int sp = 0;
    bool found = false;

    memset(mark, 0, d->nnodes);
    stack[sp++] = b;
    mark[b] = 1;
    while (sp > 0 && !found) {
        const graphs_dnode_t *n = &d->nodes[stack[--sp]];
        for (int i = 0; i < n->ndeps; ++i) {
            int p = n->deps[i];
            if (p == a) {
                found = true;
                break;
            }
            if (!mark[p]) {
                mark[p] = 1;
                stack[sp++] = p;
            }
        }
    }
    return found;
}

/* variables a node consumes (non-buffer uses) and produces (futures) */
static int node_vars(const graphs_gnode_t *g, int *cons, int *ncons, int *prod, int *nprod)
{
    *ncons = *nprod = 0;
    switch (g->type) {
    case GRAPHS_GN_TOKEN:
        for (int i = 0; i < g->token->nvb; ++i) {
            const graphs_vbind_t *vb = &g->token->vb[i];
            if (GRAPHS_VE_STORAGE == vb->enc) {
                if (GRAPHS_VR_OUT == vb->role) {
                    prod[(*nprod)++] = vb->var;
                }
            } else {
                cons[(*ncons)++] = vb->var;
            }
        }
        break;
    case GRAPHS_GN_REDUCE:
        cons[(*ncons)++] = g->in1;
        cons[(*ncons)++] = g->in2;
        prod[(*nprod)++] = g->out;
        break;
    case GRAPHS_GN_IF:
    case GRAPHS_GN_WHILE:
        cons[(*ncons)++] = g->var;
        break;
    default:
        break;
    }
    return MPI_SUCCESS;
}

static int gdef_build(ompi_mpix_graph_t *g, const graphs_scope_t *outer, graphs_gdef_t **out,
                      const char **msg);

/* checks of one node's variable references and types */
static int check_node_vars(const graphs_gnode_t *gn, const graphs_scope_t *scope, const char **msg)
{
    graphs_var_t *v, *v2, *vo;

    switch (gn->type) {
    case GRAPHS_GN_TOKEN:
        for (int i = 0; i < gn->token->nvb; ++i) {
            const graphs_vbind_t *vb = &gn->token->vb[i];
            v = scope_find(scope, vb->var);
            if (NULL == v) {
                *msg = "MPIX_Graph_def: an operation names a graph variable that no enclosing "
                       "graph declares";
                return MPI_ERR_ARG;
            }
            if (GRAPHS_VE_VALUE == vb->enc && 0 <= vb->ltype
                && graphs_local_type_index(v->dtype) != vb->ltype) {
                *msg = "MPIX_Graph_def: a handle argument is bound to a variable that does not "
                       "have the matching MPI_LOCAL_TYPE_*";
                return MPI_ERR_TYPE;
            }
            if ((GRAPHS_VE_NUM == vb->enc || GRAPHS_VE_ADDR == vb->enc)
                && 0 <= graphs_local_type_index(v->dtype)) {
                *msg = "MPIX_Graph_def: a numeric or address argument is bound to a variable of "
                       "a local type";
                return MPI_ERR_TYPE;
            }
        }
        if (GRAPHS_OP_GRAPH == gn->token->kind && gn->token->a.gdef->outer_refs) {
            graphs_gdef_t *sd = gn->token->a.gdef;
            for (int k = 0; k < sd->nvars; ++k) {
                if (0 <= sd->vars[k].ref_outer && NULL == scope_find(scope, sd->vars[k].ref_outer)) {
                    *msg = "MPIX_Graph_def: a graph token's reference parameter aliases a "
                           "variable that this graph does not declare";
                    return MPI_ERR_ARG;
                }
            }
        }
        return MPI_SUCCESS;
    case GRAPHS_GN_REDUCE:
        v = scope_find(scope, gn->in1);
        v2 = scope_find(scope, gn->in2);
        vo = scope_find(scope, gn->out);
        if (NULL == v || NULL == v2 || NULL == vo) {
            *msg = "MPIX_Graph_def: MPIX_Graph_var_reduce names a variable that no enclosing "
                   "graph declares";
            return MPI_ERR_ARG;
        }
        if (MPI_SUCCESS != graphs_var_reduce_check(gn->op, gn->cmp, v->dtype, v2->dtype, vo->dtype)) {
            *msg = "MPIX_Graph_def: MPIX_Graph_var_reduce on variables of incompatible types";
            return MPI_ERR_TYPE;
        }
        return MPI_SUCCESS;
    case GRAPHS_GN_IF:
    case GRAPHS_GN_WHILE:
        v = scope_find(scope, gn->var);
        if (NULL == v) {
            *msg = "MPIX_Graph_def: the condition variable of an if/else or while is not "
                   "declared";
            return MPI_ERR_ARG;
        }
        if (!graphs_var_to_i64(v->dtype, v->val, &(int64_t){0})) {
            *msg = "MPIX_Graph_def: the condition variable must have an integer type";
            return MPI_ERR_TYPE;
        }
        return MPI_SUCCESS;
    default:
        return MPI_SUCCESS;
    }
}

/* working arrays of one definition, n entries each */
typedef struct gdef_scratch_t {
    int n;
    int *indeg, *stack, *nsucc, **succ;
    unsigned char *mark;
} gdef_scratch_t;

static int gdef_scratch_init(gdef_scratch_t *sc, int n)
{
    int m = n ? n : 1;

    sc->n = n;
    sc->indeg = calloc(m, sizeof(int));
    sc->stack = malloc(m * sizeof(int));
    sc->mark = calloc(m, 1);
    sc->nsucc = calloc(m, sizeof(int));
    sc->succ = calloc(m, sizeof(int *));
    if (NULL == sc->indeg || NULL == sc->stack || NULL == sc->mark || NULL == sc->nsucc
        || NULL == sc->succ) {
        return MPI_ERR_NO_MEM;
    }
    return MPI_SUCCESS;
}

static void gdef_scratch_fini(gdef_scratch_t *sc)
{
    free(sc->indeg);
    free(sc->stack);
    free(sc->mark);
    if (NULL != sc->succ) {
        for (int i = 0; i < sc->n; ++i) {
            free(sc->succ[i]);
        }
    }
    free(sc->succ);
    free(sc->nsucc);
}

/* every parameter variable was given a value */
static int gdef_check_params(const ompi_mpix_graph_t *g, const char **msg)
{
    for (int i = 0; i < g->nvars; ++i) {
        const graphs_var_t *v = &g->vars[i];
        if ((MPIX_GRAPH_VAR_VAL_PARAM == v->scope || MPIX_GRAPH_VAR_REF_PARAM == v->scope)
            && !v->set) {
            *msg = "MPIX_Graph_def: a parameter variable was not given a value with "
                   "MPIX_Graph_set_param";
            return MPI_ERR_ARG;
        }
    }
    return MPI_SUCCESS;
}

/* an empty definition of g's size */
static graphs_gdef_t *gdef_new(const ompi_mpix_graph_t *g)
{
    graphs_gdef_t *d = OBJ_NEW(graphs_gdef_t);
    int m = g->nnodes ? g->nnodes : 1;

    if (NULL == d) {
        return NULL;
    }
    d->session = g->session;
    d->nodes = calloc(m, sizeof(*d->nodes));
    d->order = malloc(m * sizeof(int));
    d->coll_rank = malloc(m * sizeof(int));
    if (NULL == d->nodes || NULL == d->order || NULL == d->coll_rank) {
        OBJ_RELEASE(d);
        return NULL;
    }
    /* the destructor walks the nodes from here on */
    d->nnodes = g->nnodes;
    return d;
}

/* one node: its fields, explicit dependencies, checks, flags, sub-graphs */
static int gdef_node(ompi_mpix_graph_t *g, const graphs_scope_t *scope, graphs_gdef_t *d, int i,
                     const char **msg)
{
    graphs_gnode_t *gn = &g->nodes[i];
    graphs_dnode_t *dn = &d->nodes[i];
    int rc;

    dn->type = gn->type;
    dn->var = gn->var;
    dn->in1 = gn->in1;
    dn->in2 = gn->in2;
    dn->out = gn->out;
    dn->cmp = gn->cmp;
    if (NULL != gn->op) {
        dn->op = gn->op;
        if (gn->cmp < 0) {
            OBJ_RETAIN(dn->op);
        }
    }
    if (0 <= gn->dep && MPI_SUCCESS != (rc = dnode_add_dep(dn, gn->dep))) {
        return rc;
    }
    for (int k = 0; k < gn->njoin; ++k) {
        if (MPI_SUCCESS != (rc = dnode_add_dep(dn, gn->join[k]))) {
            return rc;
        }
    }
    rc = check_node_vars(gn, scope, msg);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    if (GRAPHS_GN_TOKEN == gn->type) {
        OBJ_RETAIN(gn->token);
        dn->token = gn->token;
        if (graphs_token_blocking(gn->token)) {
            dn->flags |= GRAPHS_ENGINE_BLOCKING;
            d->blocking = true;
        }
        if (graphs_token_collective(gn->token)) {
            dn->flags |= (GRAPHS_OP_GRAPH == gn->token->kind) ? GRAPHS_ENGINE_COLL_ITEM
                                                              : GRAPHS_ENGINE_COLL;
            d->has_coll = true;
        }
        if (GRAPHS_OP_GRAPH == gn->token->kind) {
            /* runs as a sub-execution: its blocking nodes are started
             * there (worker thread), not by this node */
            dn->flags &= ~GRAPHS_ENGINE_BLOCKING;
            d->blocking |= gn->token->a.gdef->blocking;
        }
    }
    for (int b = 0; b < 2; ++b) {
        if (NULL != gn->sub[b]) {
            rc = gdef_build(gn->sub[b], scope, &dn->sub[b], msg);
            if (MPI_SUCCESS != rc) {
                return rc;
            }
            if (dn->sub[b]->has_coll) {
                dn->flags |= GRAPHS_ENGINE_COLL_ITEM;
                d->has_coll = true;
            }
            d->blocking |= dn->sub[b]->blocking;
        }
    }
    if (GRAPHS_GN_GOTO == gn->type) {
        dn->var = gn->dest;
    }
    return MPI_SUCCESS;
}

/* implicit edges of future-valued variables (spec 2.3): a consumer depends
 * on the last earlier producer of the variable, unless already ordered */
static int gdef_implicit_edges(ompi_mpix_graph_t *g, const graphs_scope_t *outer,
                               graphs_gdef_t *d, gdef_scratch_t *sc)
{
    int n = g->nnodes, rc;

    for (int c = 0; c < n; ++c) {
        int cons[2 * GRAPHS_TOKEN_VB + 2], prod[GRAPHS_TOKEN_VB + 1], nc, np;
        node_vars(&g->nodes[c], cons, &nc, prod, &np);
        for (int k = 0; k < nc; ++k) {
            int p = -1;
            if (0 <= graphs_graph_var_find(g, cons[k]) || NULL != scope_find(outer, cons[k])) {
                for (int q = c - 1; q >= 0 && p < 0; --q) {
                    int pc[2 * GRAPHS_TOKEN_VB + 2], pp[GRAPHS_TOKEN_VB + 1], qnc, qnp;
                    node_vars(&g->nodes[q], pc, &qnc, pp, &qnp);
                    for (int r = 0; r < qnp; ++r) {
                        if (pp[r] == cons[k]) {
                            p = q;
                        }
                    }
                }
            }
            if (p >= 0 && !is_ancestor(d, p, c, sc->mark, sc->stack)
                && !is_ancestor(d, c, p, sc->mark, sc->stack)) {
                if (MPI_SUCCESS != (rc = dnode_add_dep(&d->nodes[c], p))) {
                    return rc;
                }
            }
        }
    }
    return MPI_SUCCESS;
}

/* successors, then d->order: a topological order (cycles refused) */
static int gdef_order(graphs_gdef_t *d, gdef_scratch_t *sc, const char **msg)
{
    int n = d->nnodes, head = 0, tail = 0;

    for (int i = 0; i < n; ++i) {
        graphs_dnode_t *dn = &d->nodes[i];
        sc->indeg[i] = dn->ndeps;
        for (int k = 0; k < dn->ndeps; ++k) {
            int p = dn->deps[k];
            int *s = realloc(sc->succ[p], (sc->nsucc[p] + 1) * sizeof(int));
            if (NULL == s) {
                return MPI_ERR_NO_MEM;
            }
            s[sc->nsucc[p]++] = i;
            sc->succ[p] = s;
        }
    }
    for (int i = 0; i < n; ++i) {
        if (0 == sc->indeg[i]) {
            d->order[tail++] = i;
        }
    }
    while (head < tail) {
        int i = d->order[head++];
        for (int k = 0; k < sc->nsucc[i]; ++k) {
            if (0 == --sc->indeg[sc->succ[i][k]]) {
                d->order[tail++] = sc->succ[i][k];
            }
        }
    }
    if (tail != n) {
        *msg = "MPIX_Graph_def: the dependencies form a cycle";
        return MPI_ERR_ARG;
    }
    return MPI_SUCCESS;
}

/* collectives: op-ID order, and none may wait for a later one (2.6) */
static int gdef_collectives(graphs_gdef_t *d, gdef_scratch_t *sc, const char **msg)
{
    int n = d->nnodes, rank = 0;

    for (int i = 0; i < n; ++i) {
        graphs_dnode_t *dn = &d->nodes[i];
        d->coll_rank[i] = -1;
        if (0 == (dn->flags & (GRAPHS_ENGINE_COLL | GRAPHS_ENGINE_COLL_ITEM))) {
            continue;
        }
        d->coll_rank[i] = rank++;
        for (int j = i + 1; j < n; ++j) {
            if ((d->nodes[j].flags & (GRAPHS_ENGINE_COLL | GRAPHS_ENGINE_COLL_ITEM))
                && is_ancestor(d, j, i, sc->mark, sc->stack)) {
                *msg = "MPIX_Graph_def: a collective depends on a collective added after "
                       "it (collectives start in op-ID order)";
                return MPI_ERR_ARG;
            }
        }
    }
    return MPI_SUCCESS;
}

/* a goto's destination: every descendant is fed only from inside (2.4);
 * dn->subtree lists the destination and its descendants in order */
static int gdef_goto(graphs_gdef_t *d, graphs_dnode_t *dn, unsigned char *mark, const char **msg)
{
    int n = d->nnodes, dest = dn->var, cnt = 0;

    memset(mark, 0, n);
    mark[dest] = 1;
    /* descendants, in topological order (dest first) */
    for (int k = 0; k < n; ++k) {
        int j = d->order[k];
        if (j == dest) {
            continue;
        }
        for (int q = 0; q < d->nodes[j].ndeps; ++q) {
            if (mark[d->nodes[j].deps[q]]) {
                mark[j] = 1;
                break;
            }
        }
    }
    for (int j = 0; j < n; ++j) {
        if (!mark[j] || j == dest) {
            continue;
        }
        for (int q = 0; q < d->nodes[j].ndeps; ++q) {
            if (!mark[d->nodes[j].deps[q]]) {
                *msg = "MPIX_Graph_def: invalid goto destination (a descendant of it "
                       "depends on an operation outside the destination's subtree)";
                return MPI_ERR_ARG;
            }
        }
    }
    dn->subtree = malloc(n * sizeof(int));
    if (NULL == dn->subtree) {
        return MPI_ERR_NO_MEM;
    }
    dn->subtree[cnt++] = dest;
    for (int k = 0; k < n; ++k) {
        int j = d->order[k];
        if (mark[j] && j != dest) {
            dn->subtree[cnt++] = j;
        }
    }
    dn->nsubtree = cnt;
    return MPI_SUCCESS;
}

/* variables: copies, layout, initial values, and whether the definition
 * aliases variables of an enclosing graph */
static int gdef_vars(const ompi_mpix_graph_t *g, graphs_gdef_t *d)
{
    size_t off = 0;

    d->nvars = g->nvars;
    d->vars = calloc(g->nvars ? g->nvars : 1, sizeof(graphs_var_t));
    d->off = calloc(g->nvars ? g->nvars : 1, sizeof(size_t));
    if (NULL == d->vars || NULL == d->off) {
        return MPI_ERR_NO_MEM;
    }
    for (int i = 0; i < g->nvars; ++i) {
        graphs_var_t *v = &d->vars[i];
        *v = g->vars[i];
        OBJ_RETAIN(v->dtype);
        v->str = NULL;
        if (NULL != g->vars[i].str) {
            v->str = strdup(g->vars[i].str);
            memcpy(v->val, &v->str, sizeof(char *));
        }
        if (MPIX_GRAPH_VAR_REF_PARAM == v->scope && 0 <= v->ref_outer) {
            d->outer_refs = true;
        }
        d->off[i] = off;
        off += (v->size + 7) & ~(size_t) 7;
    }
    d->vbytes = off;
    d->init = calloc(off ? off : 1, 1);
    if (NULL == d->init) {
        return MPI_ERR_NO_MEM;
    }
    for (int i = 0; i < g->nvars; ++i) {
        if (MPIX_GRAPH_VAR_REF_PARAM != d->vars[i].scope) {
            memcpy(d->init + d->off[i], d->vars[i].val, d->vars[i].size);
        }
    }
    /* a sub-graph aliasing outer variables makes this graph alias them
     * only if they are not declared here */
    for (int i = 0; i < d->nnodes && !d->outer_refs; ++i) {
        for (int b = 0; b < 2; ++b) {
            graphs_gdef_t *sd = d->nodes[i].sub[b];
            if (NULL != sd && sd->outer_refs) {
                for (int k = 0; k < sd->nvars; ++k) {
                    if (0 <= sd->vars[k].ref_outer
                        && graphs_graph_var_find(g, sd->vars[k].ref_outer) < 0) {
                        d->outer_refs = true;
                    }
                }
            }
        }
    }
    return MPI_SUCCESS;
}

/* the definition of template g, checked, in the scope of the graphs
 * around it (outer) */
static int gdef_build(ompi_mpix_graph_t *g, const graphs_scope_t *outer, graphs_gdef_t **out,
                      const char **msg)
{
    graphs_scope_t scope = {g, outer};
    gdef_scratch_t sc = {0};
    graphs_gdef_t *d;
    int rc;

    rc = gdef_check_params(g, msg);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    d = gdef_new(g);
    if (NULL == d) {
        return MPI_ERR_NO_MEM;
    }
    rc = gdef_scratch_init(&sc, g->nnodes);
    for (int i = 0; MPI_SUCCESS == rc && i < g->nnodes; ++i) {
        rc = gdef_node(g, &scope, d, i, msg);
    }
    if (MPI_SUCCESS == rc) {
        rc = gdef_implicit_edges(g, outer, d, &sc);
    }
    if (MPI_SUCCESS == rc) {
        rc = gdef_order(d, &sc, msg);
    }
    if (MPI_SUCCESS == rc) {
        rc = gdef_collectives(d, &sc, msg);
    }
    for (int i = 0; MPI_SUCCESS == rc && i < g->nnodes; ++i) {
        if (GRAPHS_GN_GOTO == d->nodes[i].type) {
            rc = gdef_goto(d, &d->nodes[i], sc.mark, msg);
        }
    }
    if (MPI_SUCCESS == rc) {
        rc = gdef_vars(g, d);
    }
    gdef_scratch_fini(&sc);
    if (MPI_SUCCESS != rc) {
        goto err_release;
    }
    *out = d;
    return MPI_SUCCESS;

err_release:
    OBJ_RELEASE(d);
    return rc;
}

int graphs_graph_def(ompi_mpix_graph_t *g, ompi_mpix_token_t **out, const char **msg)
{
    graphs_gdef_t *d;
    ompi_mpix_token_t *t;
    int rc;

    *msg = NULL;
    rc = gdef_build(g, NULL, &d, msg);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    t = graphs_token_new(GRAPHS_OP_GRAPH, NULL);
    if (NULL == t) {
        OBJ_RELEASE(d);
        return MPI_ERR_NO_MEM;
    }
    t->a.gdef = d;
    *out = t;
    return MPI_SUCCESS;
}

bool graphs_token_collective(const ompi_mpix_token_t *token)
{
    switch (token->kind) {
    case GRAPHS_OP_BARRIER:
    case GRAPHS_OP_BCAST:
    case GRAPHS_OP_REDUCE:
    case GRAPHS_OP_ALLREDUCE:
    case GRAPHS_OP_FILE_OPEN:
    case GRAPHS_OP_FILE_CLOSE:
    case GRAPHS_OP_FILE_WRITE_AT_ALL:
    case GRAPHS_OP_REMOTE_BARRIER:
        return true;
    case GRAPHS_OP_GRAPH:
        return token->a.gdef->has_coll;
    default:
        return false;
    }
}

/* ------------------------------------------------------------------
 * The graph bindings' work (their arguments checked by the bindings)
 */

int graphs_graph_create_impl(struct ompi_instance_t *session, MPIX_Graph *graph)
{
    ompi_mpix_graph_t *g = OBJ_NEW(ompi_mpix_graph_t);

    if (NULL == g) {
        return MPI_ERR_NO_MEM;
    }
    if (MPI_SUCCESS != graphs_session_get(session, &g->session)) {
        OBJ_RELEASE(g);
        return MPI_ERR_NO_MEM;
    }
    *graph = g;
    return MPI_SUCCESS;
}

int graphs_graph_free_impl(MPIX_Graph *graph)
{
    graphs_retire(&(*graph)->super, &(*graph)->magic);
    *graph = MPIX_GRAPH_NULL;
    return MPI_SUCCESS;
}

/* the message of a builder call fn whose dep_op_id is not an operation of
 * the graph */
#define GRAPHS_BAD_DEP(fn) fn ": dep_op_id is not an operation of this graph"

/* a new node of a builder call; bad_dep: the call's message for a dep_op_id
 * that is not an operation of g */
static int graph_new_node(ompi_mpix_graph_t *g, int type, int dep_op_id, const char *bad_dep,
                          graphs_gnode_t **n, int *id, const char **msg)
{
    int rc = graphs_graph_add_node(g, type, dep_op_id, n, id);

    if (MPI_ERR_ARG == rc) {
        *msg = bad_dep;
    }
    return rc;
}

int graphs_graph_add_impl(ompi_mpix_graph_t *graph, MPIX_Token *token, int *op_id, int dep_op_id,
                          const char **msg)
{
    graphs_gnode_t *n;
    int rc, id;

    rc = graph_new_node(graph, GRAPHS_GN_TOKEN, dep_op_id, GRAPHS_BAD_DEP("MPIX_Graph_add"), &n,
                        &id, msg);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    OBJ_RETAIN(*token);
    n->token = *token;
    graphs_token_retire(*token);
    *token = MPIX_TOKEN_NULL;
    if (NULL != op_id) {
        *op_id = id;
    }
    return MPI_SUCCESS;
}

int graphs_graph_nop_impl(ompi_mpix_graph_t *graph, int *op_id, int dep_op_id, const char **msg)
{
    graphs_gnode_t *n;
    int rc, id;

    rc = graph_new_node(graph, GRAPHS_GN_NOP, dep_op_id, GRAPHS_BAD_DEP("MPIX_Graph_nop"), &n, &id,
                        msg);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    if (NULL != op_id) {
        *op_id = id;
    }
    return MPI_SUCCESS;
}

int graphs_graph_join_impl(ompi_mpix_graph_t *graph, int count, const int array_of_dep_op_ids[],
                           int *op_id, const char **msg)
{
    graphs_gnode_t *n;
    int rc, id, *join = NULL;

    for (int i = 0; i < count; ++i) {
        if (array_of_dep_op_ids[i] < 1 || array_of_dep_op_ids[i] > graph->nnodes) {
            *msg = "MPIX_Graph_join: an ID is not an operation of this graph";
            return MPI_ERR_ARG;
        }
    }
    if (0 < count) {
        join = malloc(count * sizeof(int));
        if (NULL == join) {
            return MPI_ERR_NO_MEM;
        }
        for (int i = 0; i < count; ++i) {
            join[i] = array_of_dep_op_ids[i] - 1;
        }
    }
    rc = graph_new_node(graph, GRAPHS_GN_JOIN, MPIX_DEP_NONE, GRAPHS_BAD_DEP("MPIX_Graph_join"), &n,
                        &id, msg);
    if (MPI_SUCCESS != rc) {
        free(join);
        return rc;
    }
    n->join = join;
    n->njoin = count;
    if (NULL != op_id) {
        *op_id = id;
    }
    return MPI_SUCCESS;
}

int graphs_graph_set_dep_op_impl(ompi_mpix_graph_t *graph, int op_id, int dep_op_id,
                                 const char **msg)
{
    if (op_id < 1 || op_id > graph->nnodes || dep_op_id < 0 || dep_op_id > graph->nnodes) {
        *msg = "MPIX_Graph_set_dep_op: an ID is not an operation of this graph";
        return MPI_ERR_ARG;
    }
    if (op_id == dep_op_id) {
        *msg = "MPIX_Graph_set_dep_op: an operation cannot depend on itself";
        return MPI_ERR_ARG;
    }
    if (GRAPHS_GN_JOIN == graph->nodes[op_id - 1].type) {
        *msg = "MPIX_Graph_set_dep_op: op_id is a join (its dependencies are its inputs)";
        return MPI_ERR_ARG;
    }
    graph->nodes[op_id - 1].dep = dep_op_id - 1;
    return MPI_SUCCESS;
}

/* the condition of an if/else or a while: a variable of any type but the
 * local ones (bad: the call's message) */
static int graph_cond_check(ompi_mpix_graph_t *graph, int var_id, const char *bad,
                            const char **msg)
{
    int k = graphs_graph_var_find(graph, var_id);

    if (0 <= k && 0 <= graphs_local_type_index(graph->vars[k].dtype)) {
        *msg = bad;
        return MPI_ERR_TYPE;
    }
    return MPI_SUCCESS;
}

/* the copy of a branch or body (D18), into sub[i]; on error the copies
 * made before are released */
static int graph_sub_copy(ompi_mpix_graph_t *src, ompi_mpix_graph_t *sub[2], int i)
{
    int rc;

    if (MPIX_GRAPH_NULL == src) {
        return MPI_SUCCESS;
    }
    rc = graphs_graph_dup(src, &sub[i]);
    if (MPI_SUCCESS != rc && NULL != sub[0]) {
        OBJ_RELEASE(sub[0]);
    }
    return rc;
}

int graphs_graph_if_else_impl(ompi_mpix_graph_t *graph, int var_id, ompi_mpix_graph_t *true_graph,
                              ompi_mpix_graph_t *false_graph, int *op_id, int dep_op_id,
                              const char **msg)
{
    graphs_gnode_t *n;
    ompi_mpix_graph_t *sub[2] = {NULL, NULL};
    int rc, id;

    rc = graph_cond_check(graph, var_id,
                          "MPIX_Graph_if_else: the condition variable has a local type", msg);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    if ((MPIX_GRAPH_NULL != true_graph && graphs_graph_invalid(true_graph))
        || (MPIX_GRAPH_NULL != false_graph && graphs_graph_invalid(false_graph))) {
        *msg = "MPIX_Graph_if_else: a branch is not a valid graph";
        return MPI_ERR_ARG;
    }
    if (dep_op_id < 0 || dep_op_id > graph->nnodes) {
        *msg = GRAPHS_BAD_DEP("MPIX_Graph_if_else");
        return MPI_ERR_ARG;
    }
    /* both branches are copied now (D18) */
    rc = graph_sub_copy(true_graph, sub, 0);
    if (MPI_SUCCESS == rc) {
        rc = graph_sub_copy(false_graph, sub, 1);
    }
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    rc = graph_new_node(graph, GRAPHS_GN_IF, dep_op_id, GRAPHS_BAD_DEP("MPIX_Graph_if_else"), &n,
                        &id, msg);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    n->var = var_id;
    n->sub[0] = sub[0];
    n->sub[1] = sub[1];
    if (NULL != op_id) {
        *op_id = id;
    }
    return MPI_SUCCESS;
}

int graphs_graph_while_impl(ompi_mpix_graph_t *graph, int var_id, ompi_mpix_graph_t *sub_graph,
                            int *op_id, int dep_op_id, const char **msg)
{
    graphs_gnode_t *n;
    ompi_mpix_graph_t *sub[2] = {NULL, NULL};
    int rc, id;

    rc = graph_cond_check(graph, var_id,
                          "MPIX_Graph_while: the condition variable has a local type", msg);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    if (graphs_graph_invalid(sub_graph)) {
        *msg = "MPIX_Graph_while: sub_graph is not a valid graph";
        return MPI_ERR_ARG;
    }
    if (dep_op_id < 0 || dep_op_id > graph->nnodes) {
        *msg = GRAPHS_BAD_DEP("MPIX_Graph_while");
        return MPI_ERR_ARG;
    }
    /* the body is copied now (D18) */
    rc = graph_sub_copy(sub_graph, sub, 0);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    rc = graph_new_node(graph, GRAPHS_GN_WHILE, dep_op_id, GRAPHS_BAD_DEP("MPIX_Graph_while"), &n,
                        &id, msg);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    n->var = var_id;
    n->sub[0] = sub[0];
    if (NULL != op_id) {
        *op_id = id;
    }
    return MPI_SUCCESS;
}

int graphs_graph_goto_impl(ompi_mpix_graph_t *graph, int dest_op_id, int dep_op_id,
                           const char **msg)
{
    graphs_gnode_t *n;
    int rc, id;

    if (dest_op_id < 1 || dest_op_id > graph->nnodes) {
        *msg = "MPIX_Graph_goto: dest_op_id is not an operation of this graph";
        return MPI_ERR_ARG;
    }
    rc = graph_new_node(graph, GRAPHS_GN_GOTO, dep_op_id, GRAPHS_BAD_DEP("MPIX_Graph_goto"), &n,
                        &id, msg);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    n->dest = dest_op_id - 1;
    return MPI_SUCCESS;
}

int graphs_graph_var_create_impl(ompi_mpix_graph_t *graph, int var_id, int scope,
                                 ompi_datatype_t *datatype, const char **msg)
{
    graphs_var_t *v;
    size_t size;

    if (MPIX_GRAPH_VAR_VAL_PARAM != scope && MPIX_GRAPH_VAR_REF_PARAM != scope
        && MPIX_GRAPH_VAR_LOCAL != scope) {
        *msg = "MPIX_Graph_var_create: unknown scope";
        return MPI_ERR_ARG;
    }
    if (MPI_SUCCESS != graphs_var_check_type(datatype)) {
        *msg = "MPIX_Graph_var_create: a graph variable needs a predefined, non-derived datatype "
               "or a local type";
        return MPI_ERR_TYPE;
    }
    if (0 <= graphs_graph_var_find(graph, var_id)) {
        *msg = "MPIX_Graph_var_create: the variable is already declared in this graph";
        return MPI_ERR_ARG;
    }
    if (graph->nvars == graph->vcap) {
        int cap = graph->vcap ? 2 * graph->vcap : 8;
        graphs_var_t *vars = realloc(graph->vars, cap * sizeof(*vars));
        if (NULL == vars) {
            return MPI_ERR_NO_MEM;
        }
        graph->vars = vars;
        graph->vcap = cap;
    }
    v = &graph->vars[graph->nvars++];
    memset(v, 0, sizeof(*v));
    v->id = var_id;
    v->scope = scope;
    OBJ_RETAIN(datatype);
    v->dtype = datatype;
    ompi_datatype_type_size(datatype, &size);
    v->size = size;
    v->ref_outer = -1;
    return MPI_SUCCESS;
}

int graphs_graph_var_set_impl(ompi_mpix_graph_t *graph, int var_id, const void *value,
                              const char **msg)
{
    graphs_var_t *v;
    int k;

    if (GRAPHS_INST_MAGIC == ((graphs_inst_t *) graph)->magic) {
        /* a running instance (a callback's graph) */
        int rc = graphs_inst_var_set((graphs_inst_t *) graph, var_id, value);
        if (MPI_ERR_ARG == rc) {
            *msg = "MPIX_Graph_var_set: no such variable";
        } else if (MPI_SUCCESS != rc) {
            *msg = "MPIX_Graph_var_set: no memory for the string's copy";
        }
        return rc;
    }
    k = graphs_graph_var_find(graph, var_id);
    if (k < 0) {
        *msg = "MPIX_Graph_var_set: the variable is not declared in this graph";
        return MPI_ERR_ARG;
    }
    if (MPIX_GRAPH_VAR_REF_PARAM == graph->vars[k].scope) {
        *msg = "MPIX_Graph_var_set: a reference parameter is set with MPIX_Graph_set_param";
        return MPI_ERR_ARG;
    }
    v = &graph->vars[k];
    if (MPI_SUCCESS != graphs_var_write(v, NULL, value)) {
        return MPI_ERR_NO_MEM;
    }
    v->set = true;
    return MPI_SUCCESS;
}

int graphs_graph_var_get_impl(ompi_mpix_graph_t *graph, int var_id, void *value, const char **msg)
{
    graphs_var_t *v;
    int k;

    if (GRAPHS_INST_MAGIC == ((graphs_inst_t *) graph)->magic) {
        void *p = graphs_inst_var((graphs_inst_t *) graph, var_id, &v);
        if (NULL == p) {
            *msg = "MPIX_Graph_var_get: no such variable";
            return MPI_ERR_ARG;
        }
        memcpy(value, p, v->size);
        return MPI_SUCCESS;
    }
    k = graphs_graph_var_find(graph, var_id);
    if (k < 0) {
        *msg = "MPIX_Graph_var_get: the variable is not declared in this graph";
        return MPI_ERR_ARG;
    }
    v = &graph->vars[k];
    if (MPIX_GRAPH_VAR_REF_PARAM == v->scope) {
        if (NULL != v->ref) {
            memcpy(value, v->ref, v->size);
        } else {
            memset(value, 0, v->size);
        }
        return MPI_SUCCESS;
    }
    return graphs_var_read(v, NULL, value);
}

int graphs_graph_set_param_impl(ompi_mpix_graph_t *graph, int var_id, const void *value,
                                const char **msg)
{
    graphs_var_t *v;
    int k, enc, outer;

    k = graphs_graph_var_find(graph, var_id);
    if (k < 0) {
        *msg = "MPIX_Graph_set_param: the variable is not declared in this graph";
        return MPI_ERR_ARG;
    }
    if (MPIX_GRAPH_VAR_LOCAL == graph->vars[k].scope) {
        *msg = "MPIX_Graph_set_param: the variable is not a parameter";
        return MPI_ERR_ARG;
    }
    v = &graph->vars[k];
    if (MPIX_GRAPH_VAR_REF_PARAM == v->scope) {
        /* the program's memory, or MPIX_VAR(k): an enclosing graph's variable */
        outer = graphs_var_ptr_id(value, &enc);
        if (0 <= outer && GRAPHS_VE_STORAGE == enc) {
            v->ref = NULL;
            v->ref_outer = outer;
        } else {
            v->ref = (void *) value;
            v->ref_outer = -1;
        }
    } else if (MPI_SUCCESS != graphs_var_write(v, NULL, value)) {
        return MPI_ERR_NO_MEM;
    }
    v->set = true;
    return MPI_SUCCESS;
}

int graphs_graph_var_reduce_impl(ompi_mpix_graph_t *graph, int in_var1_id, int in_var2_id,
                                 ompi_op_t *var_op, int out_var_id, int *op_id, int dep_op_id,
                                 const char **msg)
{
    graphs_gnode_t *n;
    int rc, id, cmp, k1, k2, ko;

    if (in_var1_id < 0 || in_var1_id >= MPIX_GRAPH_VAR_MAX || in_var2_id < 0
        || in_var2_id >= MPIX_GRAPH_VAR_MAX || out_var_id < 0 || out_var_id >= MPIX_GRAPH_VAR_MAX) {
        *msg = "MPIX_Graph_var_reduce: a variable ID is out of range";
        return MPI_ERR_ARG;
    }
    cmp = graphs_cmp_index(var_op);
    if (cmp < 0 && MPI_SUM != var_op && MPI_PROD != var_op && MPI_MAX != var_op && MPI_MIN != var_op
        && MPI_LAND != var_op && MPI_LOR != var_op && MPI_LXOR != var_op && MPI_BAND != var_op
        && MPI_BOR != var_op && MPI_BXOR != var_op) {
        *msg = "MPIX_Graph_var_reduce: the operation must be a predefined reduction (not MAXLOC, "
               "MINLOC, REPLACE, NO_OP or a user operation) or a comparison";
        return MPI_ERR_OP;
    }
    k1 = graphs_graph_var_find(graph, in_var1_id);
    k2 = graphs_graph_var_find(graph, in_var2_id);
    ko = graphs_graph_var_find(graph, out_var_id);
    if (0 <= k1 && 0 <= k2 && 0 <= ko
        && MPI_SUCCESS != graphs_var_reduce_check(var_op, cmp, graph->vars[k1].dtype,
                                                  graph->vars[k2].dtype, graph->vars[ko].dtype)) {
        *msg = "MPIX_Graph_var_reduce: the variables' types do not fit the operation";
        return MPI_ERR_TYPE;
    }
    rc = graph_new_node(graph, GRAPHS_GN_REDUCE, dep_op_id, GRAPHS_BAD_DEP("MPIX_Graph_var_reduce"),
                        &n, &id, msg);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    n->in1 = in_var1_id;
    n->in2 = in_var2_id;
    n->out = out_var_id;
    n->cmp = cmp;
    n->op = var_op;
    if (cmp < 0) {
        OBJ_RETAIN(var_op);
    }
    if (NULL != op_id) {
        *op_id = id;
    }
    return MPI_SUCCESS;
}
