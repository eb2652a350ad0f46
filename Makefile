#
# Copyright (c) 2026      The Open MPI queue fork developers.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Build driver for the Open MPI queued-communication fork.
#   make          build and install Open MPI 5.0.7 + our overlay into ./install
#                 (OMPI_BASE=5.0.10: on Open MPI 5.0.10, into ./install-5.0.10
#                 with its tree in ./build-5.0.10; every target follows it)
#   make demo     build, then run the ring example on 4 ranks
#   make demo-graphs  build, then run the MPIX graphs listings and use cases (examples/graphs)
#   make check    build if needed, then run every test, and some again with
#                 our C files built with AddressSanitizer and UBSan
#                 ("N passed, N failed")
#   make check-quick  one launch of every test program (ob1, 2 ranks, the
#                 default channel) and the quick script checks, for the
#                 edit loop; tests/run-tests.sh --plan prints what make
#                 check runs
#   make check-mpich  MPICH's test subset on the installed fork (ob1; its
#                 pt2pt/ and part/ cases again on pml cm over libfabric's
#                 tcp); fails only on cases that pass on stock Open MPI
#                 5.0.7, and on any failing part/ case (tests/mpich/)
#   make check-asan  the fork built with AddressSanitizer and UBSan into
#                 build-asan/ and install-asan/, then every test on it; the
#                 reports sorted into ours and stock's (tests/asan/)
#   make check-tsan  the cases that run our code on several threads, with
#                 our files built with ThreadSanitizer (tests/tsan/)
#   make dist     the release tarball dist/openmpi-BASE-queue-X.Y.Z.tar.bz2
#                 and its .sha256 (X.Y.Z: config/ompi_queue_version.m4)
#   make check-dist  make dist, then build that tarball as a site would and
#                 run from it (tests/dist/; 15-25 min, before each release)
#   make clean    remove the build tree, the install and test binaries
#   make distclean  also the cached upstream tarball and dist/

# the defaults of PREFIX follow the base (contrib/queue/common.sh)
ifdef PREFIX
export PREFIX
endif
ifdef OMPI_BASE
export OMPI_BASE
endif
NP ?= 4

.PHONY: all build demo demo-graphs check check-quick test check-mpich check-asan check-tsan dist check-dist clean distclean

all: build

build:
	bash contrib/queue/build.sh

demo: build
	bash examples/run-demo.sh $(NP)

demo-graphs: build
	bash examples/graphs/run.sh all 2

check test:
	bash tests/run-tests.sh

check-quick:
	bash tests/run-tests.sh --tier quick

check-mpich:
	bash tests/mpich/check-mpich.sh

check-asan:
	bash tests/asan/check-asan.sh

check-tsan:
	bash tests/tsan/check-tsan.sh

dist:
	bash contrib/queue/dist.sh

check-dist: dist
	bash tests/dist/check-dist.sh

clean:
	rm -rf build install tests/bin examples/bin bench/bin build-asan install-asan tests/bin-asan \
	    build-5.0.10 install-5.0.10 tests/bin-5.0.10 bench/bin-5.0.10 build-asan-5.0.10 install-asan-5.0.10 tests/bin-asan-5.0.10

distclean: clean
	rm -rf .cache dist
