/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

#include "ompi_config.h"

#include "opal/mca/base/base.h"
#include "ompi/constants.h"
#include "ompi/mca/queue/queue.h"
#include "ompi/mca/queue/base/base.h"
#include "ompi/mca/queue/base/queue_stream_capture.h"

/*
 * The following file was created by configure.  It contains extern
 * statements and the definition of an array of pointers to each
 * component's public mca_base_component_t struct.
 */
#include "ompi/mca/queue/base/static-components.h"

static int mca_queue_base_register(mca_base_register_flag_t flags)
{
    (void) flags;
    return ompi_queue_stream_capture_register();
}

static int mca_queue_base_open(mca_base_open_flag_t flags)
{
    int ret;

    ret = ompi_queue_objects_init();
    if (OMPI_SUCCESS != ret) {
        return ret;
    }

    ret = mca_base_framework_components_open(&ompi_queue_base_framework, flags);
    if (OMPI_SUCCESS != ret) {
        goto err_objects;
    }

    ret = mca_queue_base_select();
    if (OMPI_SUCCESS != ret) {
        goto err_components;
    }
    return OMPI_SUCCESS;

err_components:
    (void) mca_base_framework_components_close(&ompi_queue_base_framework, NULL);
err_objects:
    ompi_queue_objects_finalize();
    return ret;
}

static int mca_queue_base_close(void)
{
    /* queues left live still need their module to release them */
    ompi_queue_objects_finalize();
    mca_queue_base_deselect();
    return mca_base_framework_components_close(&ompi_queue_base_framework, NULL);
}

MCA_BASE_FRAMEWORK_DECLARE(ompi, queue, "OMPI queued communication (MPI_Queue)",
                           mca_queue_base_register,
                           mca_queue_base_open, mca_queue_base_close,
                           mca_queue_base_static_components, 0);
