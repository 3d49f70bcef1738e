# calibrate/module.mk — micro-benchmarks and the machine-file writer (owned by calibrate/).
CALIBRATE_SRCS +=
