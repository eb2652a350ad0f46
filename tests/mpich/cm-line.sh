#!/bin/bash
#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# The gate's second line, sourced by check-mpich.sh and
# make-stock-failures.sh: the point-to-point and partitioned cases again on
# pml cm over mtl ofi with libfabric's tcp provider, the path of libfabric
# networks, so that cm programs that never use the new API behave as on
# stock.  Stock's failures on that line: tests/mpich/stock-failures-cm.txt
# (5.0.7), stock-failures-cm-5.0.10.txt (5.0.10).

# shellcheck disable=SC2034
MPICH_CM_TRANSPORT="--mca pml cm --mca mtl ofi --mca opal_common_ofi_provider_include tcp"
MPICH_CM_PATTERNS=("pt2pt/*" "part/*")
MPICH_CM_STOCK_PATTERNS=("pt2pt/*")
MPICH_CM_STOCK=tests/mpich/stock-failures-cm$OMPI_BASE_SUFFIX.txt
