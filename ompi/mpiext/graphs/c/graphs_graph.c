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

static int gdef_build(ompi_mpix_graph_t *g, const graphs_scope_t *outer, graphs_gdef_t **out,
                      const char **msg)
{
    graphs_scope_t scope = {g, outer};
    graphs_gdef_t *d;
    int n = g->nnodes, rc = MPI_SUCCESS;
    int *indeg = NULL, *stack = NULL, **succ = NULL, *nsucc = NULL;
    unsigned char *mark = NULL;
    size_t off = 0;

    for (int i = 0; i < g->nvars; ++i) {
        graphs_var_t *v = &g->vars[i];
        if ((MPIX_GRAPH_VAR_VAL_PARAM == v->scope || MPIX_GRAPH_VAR_REF_PARAM == v->scope)
            && !v->set) {
            *msg = "MPIX_Graph_def: a parameter variable was not given a value with "
                   "MPIX_Graph_set_param";
            return MPI_ERR_ARG;
        }
    }
    d = OBJ_NEW(graphs_gdef_t);
    if (NULL == d) {
        return MPI_ERR_NO_MEM;
    }
    d->session = g->session;
    d->nnodes = n;
    d->nodes = calloc(n ? n : 1, sizeof(*d->nodes));
    d->order = malloc((n ? n : 1) * sizeof(int));
    d->coll_rank = malloc((n ? n : 1) * sizeof(int));
    indeg = calloc(n ? n : 1, sizeof(int));
    stack = malloc((n ? n : 1) * sizeof(int));
    mark = calloc(n ? n : 1, 1);
    nsucc = calloc(n ? n : 1, sizeof(int));
    succ = calloc(n ? n : 1, sizeof(int *));
    if (NULL == d->nodes || NULL == d->order || NULL == d->coll_rank || NULL == indeg
        || NULL == stack || NULL == mark || NULL == nsucc || NULL == succ) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }

    /* nodes, explicit dependencies, sub-graphs */
    for (int i = 0; i < n; ++i) {
        graphs_gnode_t *gn = &g->nodes[i];
        graphs_dnode_t *dn = &d->nodes[i];

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
            goto out;
        }
        for (int k = 0; k < gn->njoin; ++k) {
            if (MPI_SUCCESS != (rc = dnode_add_dep(dn, gn->join[k]))) {
                goto out;
            }
        }
        rc = check_node_vars(gn, &scope, msg);
        if (MPI_SUCCESS != rc) {
            goto out;
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
                rc = gdef_build(gn->sub[b], &scope, &dn->sub[b], msg);
                if (MPI_SUCCESS != rc) {
                    goto out;
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
    }

    /* implicit edges of future-valued variables (spec 2.3) */
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
            if (p >= 0 && !is_ancestor(d, p, c, mark, stack) && !is_ancestor(d, c, p, mark, stack)) {
                if (MPI_SUCCESS != (rc = dnode_add_dep(&d->nodes[c], p))) {
                    goto out;
                }
            }
        }
    }

    /* successors, topological order (cycles refused) */
    for (int i = 0; i < n; ++i) {
        graphs_dnode_t *dn = &d->nodes[i];
        indeg[i] = dn->ndeps;
        for (int k = 0; k < dn->ndeps; ++k) {
            int p = dn->deps[k];
            int *s = realloc(succ[p], (nsucc[p] + 1) * sizeof(int));
            if (NULL == s) {
                rc = MPI_ERR_NO_MEM;
                goto out;
            }
            s[nsucc[p]++] = i;
            succ[p] = s;
        }
    }
    {
        int head = 0, tail = 0;
        for (int i = 0; i < n; ++i) {
            if (0 == indeg[i]) {
                d->order[tail++] = i;
            }
        }
        while (head < tail) {
            int i = d->order[head++];
            for (int k = 0; k < nsucc[i]; ++k) {
                if (0 == --indeg[succ[i][k]]) {
                    d->order[tail++] = succ[i][k];
                }
            }
        }
        if (tail != n) {
            *msg = "MPIX_Graph_def: the dependencies form a cycle";
            rc = MPI_ERR_ARG;
            goto out;
        }
    }

    /* collectives: op-ID order, and none may wait for a later one (2.6) */
    {
        int rank = 0;
        for (int i = 0; i < n; ++i) {
            graphs_dnode_t *dn = &d->nodes[i];
            d->coll_rank[i] = -1;
            if (0 == (dn->flags & (GRAPHS_ENGINE_COLL | GRAPHS_ENGINE_COLL_ITEM))) {
                continue;
            }
            d->coll_rank[i] = rank++;
            for (int j = i + 1; j < n; ++j) {
                if ((d->nodes[j].flags & (GRAPHS_ENGINE_COLL | GRAPHS_ENGINE_COLL_ITEM))
                    && is_ancestor(d, j, i, mark, stack)) {
                    *msg = "MPIX_Graph_def: a collective depends on a collective added after "
                           "it (collectives start in op-ID order)";
                    rc = MPI_ERR_ARG;
                    goto out;
                }
            }
        }
    }

    /* goto destinations: every descendant is fed only from inside (2.4) */
    for (int i = 0; i < n; ++i) {
        graphs_dnode_t *dn = &d->nodes[i];
        int dest, cnt = 0;
        if (GRAPHS_GN_GOTO != dn->type) {
            continue;
        }
        dest = dn->var;
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
                    rc = MPI_ERR_ARG;
                    goto out;
                }
            }
        }
        dn->subtree = malloc(n * sizeof(int));
        if (NULL == dn->subtree) {
            rc = MPI_ERR_NO_MEM;
            goto out;
        }
        dn->subtree[cnt++] = dest;
        for (int k = 0; k < n; ++k) {
            int j = d->order[k];
            if (mark[j] && j != dest) {
                dn->subtree[cnt++] = j;
            }
        }
        dn->nsubtree = cnt;
    }

    /* variables: copies, layout, initial values */
    d->nvars = g->nvars;
    d->vars = calloc(g->nvars ? g->nvars : 1, sizeof(graphs_var_t));
    d->off = calloc(g->nvars ? g->nvars : 1, sizeof(size_t));
    if (NULL == d->vars || NULL == d->off) {
        rc = MPI_ERR_NO_MEM;
        goto out;
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
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    for (int i = 0; i < g->nvars; ++i) {
        if (MPIX_GRAPH_VAR_REF_PARAM != d->vars[i].scope) {
            memcpy(d->init + d->off[i], d->vars[i].val, d->vars[i].size);
        }
    }
    /* a sub-graph aliasing outer variables makes this graph alias them
     * only if they are not declared here */
    for (int i = 0; i < n && !d->outer_refs; ++i) {
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

out:
    free(indeg);
    free(stack);
    free(mark);
    if (NULL != succ) {
        for (int i = 0; i < n; ++i) {
            free(succ[i]);
        }
    }
    free(succ);
    free(nsucc);
    if (MPI_SUCCESS != rc) {
        OBJ_RELEASE(d);
        return rc;
    }
    *out = d;
    return MPI_SUCCESS;
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
