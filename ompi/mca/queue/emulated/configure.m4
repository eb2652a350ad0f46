# -*- shell-script -*-
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#

# MCA_ompi_queue_emulated_CONFIG([action-if-can-compile],
#                                [action-if-cant-compile])
# ------------------------------------------------
# The emulated stream is for the tests only: a loadable component
# (Makefile.am leaves it out of the install, and the queue framework's
# configure.m4 asks for it as a DSO), so that libmpi never holds it and a
# program loads it only from a component path that names it.  Where
# components cannot be loaded (static libraries, dlopen disabled) it is
# not built.
AC_DEFUN([MCA_ompi_queue_emulated_CONFIG],[
    AC_CONFIG_FILES([ompi/mca/queue/emulated/Makefile])
    OPAL_VAR_SCOPE_PUSH([queue_emulated_mode])
    MCA_COMPONENT_COMPILE_MODE([ompi], [queue], [emulated], [queue_emulated_mode])
    AS_IF([test "$queue_emulated_mode" = "dso"], [$1], [$2])
    OPAL_VAR_SCOPE_POP
])
