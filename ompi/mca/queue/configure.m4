# -*- shell-script -*-
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#

# MCA_ompi_queue_CONFIG(project_name, framework_name)
# ---------------------------------------------------
# Components are allowed to build only with --with-queue.
AC_DEFUN([MCA_ompi_queue_CONFIG],[
    AC_REQUIRE([OMPI_SETUP_QUEUE])
    # queue/emulated, the tests' emulated stream, is always a loadable
    # component (whatever --enable-mca-dso and --enable-mca-static say),
    # where components can be loaded at all; elsewhere it is not built
    AS_IF([test "$enable_static" = "no" && test "$OPAL_ENABLE_DLOPEN_SUPPORT" != "0"],
          [DSO_queue_emulated=1
           STATIC_queue_emulated=0])
    MCA_CONFIGURE_FRAMEWORK([$1], [$2], [$ompi_want_queue])
])
