/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

#ifndef OMPI_MCA_QUEUE_BASE_BASE_H
#define OMPI_MCA_QUEUE_BASE_BASE_H

#include "ompi_config.h"

#include "opal/mca/base/mca_base_framework.h"
#include "ompi/mca/queue/queue.h"

BEGIN_C_DECLS

OMPI_DECLSPEC extern mca_base_framework_t ompi_queue_base_framework;

/** Verbose stream of the framework (queue_base_verbose). */
#define OMPI_QUEUE_BASE_OUTPUT (ompi_queue_base_framework.framework_output)

/** Modules available in this process, highest priority first. */
typedef struct mca_queue_base_available_t {
    int count;
    mca_queue_base_module_t **modules;
} mca_queue_base_available_t;

OMPI_DECLSPEC extern mca_queue_base_available_t mca_queue_base_available;

/** Call every opened component's init; keep the modules it returns. */
int mca_queue_base_select(void);

/** Finalize the components selected by mca_queue_base_select(). */
void mca_queue_base_deselect(void);

/**
 * Name of a queue type for messages: the macro name for the types this
 * implementation defines, NULL for any other value.
 */
OMPI_DECLSPEC const char *mca_queue_base_type_name(int type);

/** Set up and tear down the queue object layer (f2c table, MPI_QUEUE_NULL). */
int ompi_queue_objects_init(void);
void ompi_queue_objects_finalize(void);

END_C_DECLS

#endif /* OMPI_MCA_QUEUE_BASE_BASE_H */
