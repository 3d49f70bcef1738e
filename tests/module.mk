# tests/module.mk — `make test`: unit tests (cmocka, one binary per tests/unit/test_*.c) and
# end-to-end tests (tests/e2e/*.sh), all built and run under ASan, UBSan and LSan.
UNIT_SRCS  := $(wildcard tests/unit/test_*.c)
UNIT_BINS  := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))
TEST_SUPPORT := $(wildcard tests/unit/support_*.c)

$(BUILD)/tests/%: $(BUILD)/obj/tests/unit/%.o $(call obj,$(TEST_SUPPORT)) $(LIBS)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ -lcmocka $(LDLIBS)

.PHONY: check test-build
test-build: $(PAMC) $(CALIBRATE_BINS) $(UNIT_BINS)

# The suite on the current BUILD; `make test` runs it on the sanitizer build.
check: test-build
	@tests/run.sh $(BUILD)

test: deps
	@$(MAKE) --no-print-directory BUILD=build/san SANITIZE=1 OPT=-O1 check
	@$(MAKE) --no-print-directory BUILD=build/san fuzz-smoke
