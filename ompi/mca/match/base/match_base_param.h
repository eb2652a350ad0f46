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
 * A match component's MCA parameters as one table.
 *
 * Each channel component (sm, ucx, ofi, pml) registers a handful of
 * read-only tuning parameters of the same form: a name, a type, a level,
 * its default and its help.  The component lists them in a table and
 * registers the whole table from its mca_register_component_params with
 * mca_match_base_register_params, which stores each default in the
 * component's variable, then registers the variable, so that a parameter
 * is written in one place.
 */

#ifndef MCA_MATCH_BASE_PARAM_H
#define MCA_MATCH_BASE_PARAM_H

#include "ompi_config.h"

#include <stdbool.h>
#include <stddef.h>

#include "opal/mca/base/mca_base_var.h"

BEGIN_C_DECLS

typedef struct mca_match_base_param_t {
    const char *name;             /**< without the component's prefix */
    mca_base_var_type_t type;     /**< INT, UNSIGNED_INT, SIZE_T, BOOL or STRING */
    mca_base_var_info_lvl_t level;
    void *storage;                /**< the component's variable, of that type */
    long long value;              /**< the default (numbers and BOOL) */
    const char *string;           /**< the default (STRING; NULL: none) */
    const char *help;
} mca_match_base_param_t;

/* the rows of the two types most tuning parameters have */
#define MCA_MATCH_BASE_PARAM_BOOL(name, storage, value, help) \
    {(name), MCA_BASE_VAR_TYPE_BOOL, OPAL_INFO_LVL_5, (storage), (value), NULL, (help)}
#define MCA_MATCH_BASE_PARAM_UINT(name, storage, value, help) \
    {(name), MCA_BASE_VAR_TYPE_UNSIGNED_INT, OPAL_INFO_LVL_5, (storage), (value), NULL, (help)}

/**
 * Register the count parameters of params for component, each
 * MCA_BASE_VAR_SCOPE_READONLY, after storing its default.
 *
 * @return OMPI_SUCCESS, or OMPI_ERR_BAD_PARAM for a type the table does
 *         not take (nothing of that row is stored or registered).
 *
 * Called from a component's mca_register_component_params, on the thread
 * that opens the framework.
 */
OMPI_DECLSPEC int mca_match_base_register_params(const mca_base_component_t *component,
                                                 const mca_match_base_param_t *params,
                                                 size_t count);

/**
 * Register the rows every channel component has, in the same words for
 * each: "priority" (its place among the match components), "max_channels"
 * (how many of its slots a process holds at a time; later pairs fall back
 * to the next component) and, where same_node is not NULL, "same_node"
 * (whether it also serves pairs whose processes share a node).
 *
 * @param component     the channel component
 * @param priority      its variable and default
 * @param max_channels  its variable and default
 * @param slot          what one slot serves, for the help ("matched sends")
 * @param same_node     its variable and default; NULL: the component has
 *                      no such parameter
 *
 * @return OMPI_SUCCESS, or OMPI_ERR_OUT_OF_RESOURCE when a help text could
 *         not be written (the variables still hold their defaults).
 *
 * Called from a component's mca_register_component_params, on the thread
 * that opens the framework.
 */
OMPI_DECLSPEC int mca_match_base_register_chan_params(const mca_base_component_t *component,
                                                      int *priority, int priority_default,
                                                      unsigned int *max_channels,
                                                      unsigned int max_channels_default,
                                                      const char *slot, bool *same_node,
                                                      bool same_node_default);

END_C_DECLS

#endif /* MCA_MATCH_BASE_PARAM_H */
