# calibrate/module.mk — micro-benchmarks and the machine-file writer (owned by calibrate/).
CALIBRATE_SRCS += calibrate/cal_error.c calibrate/cal_stats.c calibrate/cal_fit.c
CALIBRATE_SRCS += calibrate/bench_arith.c calibrate/bench_memory.c calibrate/bench_message.c
CALIBRATE_SRCS += calibrate/bench_cores.c calibrate/atomic_file.c calibrate/history.c
CALIBRATE_SRCS += calibrate/machine_file.c calibrate/calibrate.c
