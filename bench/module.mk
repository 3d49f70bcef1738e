# bench/module.mk — `make bench`: benchmarks of pamc itself; each prints ratios measured in one run.
BENCH_TARGETS :=

# algebra: tape vs compiled C (bench/alg_bench.c)
ALG_BENCH := $(BUILD)/bench/alg_bench
$(ALG_BENCH): $(call obj,bench/alg_bench.c) $(LIBS)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
.PHONY: bench-alg
bench-alg: $(ALG_BENCH)
	$(ALG_BENCH)
BENCH_TARGETS += bench-alg

# simulator: events per second, and 10^5 processes of 100 activities (bench/sim_bench.c)
SIM_BENCH := $(BUILD)/bench/sim_bench
$(SIM_BENCH): $(call obj,bench/sim_bench.c) $(LIBS)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
.PHONY: bench-sim
bench-sim: $(SIM_BENCH)
	$(SIM_BENCH)
BENCH_TARGETS += bench-sim

# predict: points per second of a 10^6-point sweep, tapes alone and with checks (bench/predict_bench.c)
PREDICT_BENCH := $(BUILD)/bench/predict_bench
$(PREDICT_BENCH): $(call obj,bench/predict_bench.c) $(LIBS)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
.PHONY: bench-predict
bench-predict: $(PREDICT_BENCH)
	$(PREDICT_BENCH)
BENCH_TARGETS += bench-predict

# reduce: time per statement of generated models, and the same model at P = 2 .. 10^9 (bench/reduce_bench.c)
REDUCE_BENCH := $(BUILD)/bench/reduce_bench
$(REDUCE_BENCH): $(call obj,bench/reduce_bench.c) $(LIBS)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
.PHONY: bench-reduce
bench-reduce: $(REDUCE_BENCH)
	$(REDUCE_BENCH)
BENCH_TARGETS += bench-reduce

# tightness sim/T_lo, T_hi/sim and the wall time simulate/pamc per example model (bench/tight_bench.c)
TIGHT_BENCH := $(BUILD)/bench/tight_bench
$(TIGHT_BENCH): $(call obj,bench/tight_bench.c) $(LIBS)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
.PHONY: bench-tight
bench-tight: $(TIGHT_BENCH)
	$(TIGHT_BENCH)
BENCH_TARGETS += bench-tight

bench: all $(BENCH_TARGETS)
	@echo "bench: done"
