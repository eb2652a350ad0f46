# -*- shell-script -*-
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#

# MCA_ompi_match_CONFIG(project_name, framework_name)
# ---------------------------------------------------
# Components are allowed to build only with --with-queue.  The base reads
# no PML's requests (each PML describes its own: pml_describe).
AC_DEFUN([MCA_ompi_match_CONFIG],[
    AC_REQUIRE([OMPI_SETUP_QUEUE])
    MCA_CONFIGURE_FRAMEWORK([$1], [$2], [$ompi_want_queue])
])
