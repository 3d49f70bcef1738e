# calibrate/module.mk — micro-benchmarks and the machine-file writer (owned by calibrate/).
CALIBRATE_SRCS += calibrate/cal_error.c calibrate/cal_stats.c calibrate/cal_fit.c
CALIBRATE_SRCS += calibrate/bench_kernel.c calibrate/bench_arith.c calibrate/bench_math.c calibrate/bench_flops.c calibrate/bench_threads.c calibrate/bench_omp.c calibrate/bench_memsweep.c calibrate/bench_latency.c calibrate/bench_pagefault.c calibrate/bench_mempar.c calibrate/par_run.c calibrate/bench_memory.c calibrate/bench_message.c
CALIBRATE_SRCS += calibrate/bench_cores.c calibrate/bench_mpi.c calibrate/atomic_file.c calibrate/history.c
CALIBRATE_SRCS += calibrate/machine_file.c calibrate/memory_fns.c calibrate/thread_fns.c calibrate/flops_fns.c calibrate/generic.c calibrate/messages.c calibrate/calibrate.c

# The dense kernel of t_flop_vec is measured as a program built for speed on this machine is
# compiled (bench_flops.c says why): this object alone, and without sanitizer instrumentation
# even in the sanitizer build (it is measured: checked loads would make it 3x slower).
$(BUILD)/obj/calibrate/bench_flops.o: CFLAGS += -O3 -march=native -ffp-contract=fast -fno-sanitize=all

# t_omp_for when the compiler has OpenMP (GCC's libgomp): bench_omp.c is compiled with -fopenmp
# and everything that links libcalibrate links libgomp (-lgomp, not -fopenmp: clang links the fuzz
# targets with the same LDLIBS and finds GCC's libgomp, not an OpenMP of its own); otherwise the
# benchmark is left out.
HAVE_OPENMP := $(shell echo 'int main(void){return 0;}' | $(CC) -fopenmp -x c - -lgomp -o /dev/null 2>/dev/null && echo yes)
ifeq ($(HAVE_OPENMP),yes)
$(BUILD)/obj/calibrate/bench_omp.o: CFLAGS += -fopenmp
LDLIBS += -lgomp
endif

# pamc-mpi-bench (calibrate/mpi_bench.c), the program `pamc calibrate --mpi` starts under mpirun:
# built next to pamc with mpicc when mpicc exists (-O2 always, no sanitizer: it is measured).
MPICC          ?= mpicc
HAVE_MPICC     := $(if $(shell command -v $(MPICC) 2>/dev/null),yes,no)
MPI_BENCH      := $(BUILD)/pamc-mpi-bench
CALIBRATE_BINS := $(if $(filter yes,$(HAVE_MPICC)),$(MPI_BENCH))
$(MPI_BENCH): calibrate/mpi_bench.c
	@mkdir -p $(@D)
	$(MPICC) -std=c11 -Wall -Wextra -Werror -O2 -o $@ $<
