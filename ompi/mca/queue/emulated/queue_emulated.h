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
 * queue/emulated: the stream engine on the emulated stream
 * (queue_emulated_stream.h), so that the tests exercise every path of the
 * engine where no GPU is.  Built as a shared object that is never
 * installed; a test loads it by putting its build directory on
 * mca_base_component_path.  Loaded, it comes before the GPU components:
 *  - MPIX_QUEUE_TYPE_CUDA_STREAM and MPIX_QUEUE_TYPE_HIP_STREAM queues run
 *    on the program's emulated stream (external points to the handle
 *    mca_queue_emulated_stream_create gave), with the progress thread as
 *    the GPU components need it;
 *  - MPI_QUEUE_TYPE_DEFAULT queues run on an emulated stream of their own,
 *    the program driving the host side through its calls.
 */

#ifndef MCA_QUEUE_EMULATED_H
#define MCA_QUEUE_EMULATED_H

#include "ompi_config.h"

#include "ompi/mca/queue/queue.h"

BEGIN_C_DECLS

OMPI_DECLSPEC extern mca_queue_base_component_t mca_queue_emulated_component;

extern int mca_queue_emulated_priority;
extern mca_queue_base_module_t mca_queue_emulated_module;

END_C_DECLS

#endif /* MCA_QUEUE_EMULATED_H */
