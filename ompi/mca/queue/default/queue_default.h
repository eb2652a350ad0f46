/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

#ifndef MCA_QUEUE_DEFAULT_H
#define MCA_QUEUE_DEFAULT_H

#include "ompi_config.h"

#include "ompi/mca/queue/queue.h"

BEGIN_C_DECLS

OMPI_DECLSPEC extern mca_queue_base_component_t mca_queue_default_component;

extern int mca_queue_default_priority;
extern mca_queue_base_module_t mca_queue_default_module;

END_C_DECLS

#endif /* MCA_QUEUE_DEFAULT_H */
