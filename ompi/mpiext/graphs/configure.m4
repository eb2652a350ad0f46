# -*- shell-script -*-
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#

# The MPIX graphs and streams extension: built with --with-queue (its
# executor lives in the queue framework's base).  Its init/fini hooks
# register the MPIX_ERR_STREAM_FAILED class and stop its progress callback.
m4_define([OMPI_MPIEXT_graphs_NEED_INIT], [1])

AC_DEFUN([OMPI_MPIEXT_graphs_CONFIG],[
    AC_REQUIRE([OMPI_SETUP_QUEUE])
    AC_CONFIG_FILES([ompi/mpiext/graphs/Makefile])
    AC_CONFIG_FILES([ompi/mpiext/graphs/c/Makefile])
    AC_CONFIG_FILES([ompi/mpiext/graphs/c/profile/Makefile])

    AS_IF([test "$ompi_want_queue" = "1"],
          [$1],
          [$2])
])dnl
