# bench/module.mk — `make bench`: benchmarks of pamc itself; each prints ratios measured in one run.
# Each bench is one program bench/NAME.c linked against pamc's libraries, run by `make bench-WHAT`.
BENCH_TARGETS :=

# $(call bench_program,NAME,WHAT): builds $(BUILD)/bench/NAME from bench/NAME.c; bench-WHAT runs it.
define bench_program
$(BUILD)/bench/$(1): $(call obj,bench/$(1).c) $(LIBS)
	@mkdir -p $$(@D)
	$$(CC) $$(LDFLAGS) -o $$@ $$^ $$(LDLIBS)
.PHONY: bench-$(2)
bench-$(2): $(BUILD)/bench/$(1)
	$(BUILD)/bench/$(1)
BENCH_TARGETS += bench-$(2)
endef

# algebra: tape vs compiled C
$(eval $(call bench_program,alg_bench,alg))
# simulator: events per second, and 10^5 processes of 100 activities
$(eval $(call bench_program,sim_bench,sim))
# predict: points per second of a 10^6-point sweep, tapes alone and with checks
$(eval $(call bench_program,predict_bench,predict))
# reduce: time per statement of generated models, and the same model at P = 2 .. 10^9
$(eval $(call bench_program,reduce_bench,reduce))
# tightness sim/T_lo, T_hi/sim and the wall time simulate/pamc per example model
$(eval $(call bench_program,tight_bench,tight))
# fit: one fit of 4 consts on 100 runs (median of 21)
$(eval $(call bench_program,fit_bench,fit))

# extract: `pamc extract` on a generated 2,000-line C file (target: under a second)
.PHONY: bench-extract
bench-extract: $(PAMC)
	PAMC=$(PAMC) bench/extract_bench.sh
BENCH_TARGETS += bench-extract

# audits 5 and 6: predict every stored point of the independent user models against its stored
# exact simulation (bench/audit5/README.md); exits 1 on an unsound row
.PHONY: bench-audit
bench-audit: $(PAMC)
	python3 bench/audit5/measure.py $(PAMC)
BENCH_TARGETS += bench-audit

bench: all $(BENCH_TARGETS)
	@echo "bench: done"
include bench/validate/module.mk
