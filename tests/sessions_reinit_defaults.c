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
 * MPI_Session_init after MPI_Session_finalize, with an MCA variable of
 * opal/common/ucx left at its default: over pml/ucx the device list
 * (pml_ucx_devices) is taken out of the environment mpirun gives, so that
 * the second cycle registers it again from its default.  Each cycle asks
 * for the world's process set and checks its size.  Nothing of the fork is
 * used.  Stock 5.0.7 kept a pointer to the string the MCA variable system
 * freed at the last finalize, and the next pml/ucx selection read it
 * (patch 0026).
 */

#include "common/qtest.h"

#define NCYCLES 3

int main(int argc, char **argv)
{
    const char *pml = getenv("OMPI_MCA_pml");
    int world_size = -1;

    (void) argc;
    (void) argv;

    qt_arm_watchdog();
    if (NULL != pml && 0 == strcmp(pml, "ucx")) {
        /* both spellings: the component's synonym and the variable */
        unsetenv("OMPI_MCA_pml_ucx_devices");
        unsetenv("OMPI_MCA_opal_common_ucx_devices");
    }
    for (int cycle = 0; cycle < NCYCLES; ++cycle) {
        static char name[64];
        MPI_Session session = MPI_SESSION_NULL;
        MPI_Group group = MPI_GROUP_NULL;
        int size;

        if (0 != qt_session_init(cycle, &session)) {
            return 1;
        }
        qt_session_world(session, cycle, 1, &world_size, &size, &group);
        if (MPI_GROUP_NULL != group) {
            QT_OK(MPI_Group_free(&group));
        }

        snprintf(name, sizeof(name), "MPI_Session_finalize, cycle %d", cycle);
        QT_STEP(name);
        QT_OK(MPI_Session_finalize(&session));
    }

    if (0 == qt_rank) {
        printf("%s: %d failure(s) on this rank\n", 0 == qt_failures ? "OK" : "FAILED",
               qt_failures);
    }
    return 0 == qt_failures ? 0 : 1;
}
