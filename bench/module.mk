# bench/module.mk — `make bench`: benchmarks of pamc itself; each prints ratios measured in one run.
BENCH_TARGETS :=
bench: all $(BENCH_TARGETS)
	@echo "bench: done"
