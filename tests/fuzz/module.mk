# tests/fuzz/module.mk — `make fuzz SECONDS=N`: libFuzzer on the front end (parse_string), seeded
# with the models of tests/models/ok, built with clang under ASan and UBSan in its own directory.
FUZZ_CC      := clang
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_FLAGS   := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_BIN     := $(FUZZ_DIR)/fuzz_frontend
FUZZ_CORPUS  := $(FUZZ_DIR)/corpus
# The model front end without the specification one (spec_parse.c needs its own scanner and grammar).
FUZZ_PARSER  := $(filter-out parser/spec_parse.c,$(PARSER_SRCS))
FUZZ_SOURCES := tests/fuzz/fuzz_frontend.c $(FUZZ_PARSER)
SECONDS      ?= 60

# The generated scanner and parser are compiled again by clang, with the fuzzer's instrumentation.
$(FUZZ_BIN): $(FUZZ_SOURCES) $(PARSER_GEN_DIR)/grammar.c $(PARSER_GEN_DIR)/lexer.c $(PARSER_GEN_DIR)/grammar.h $(PARSER_GEN_DIR)/lexer.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_FLAGS) -o $@ $(FUZZ_SOURCES) $(PARSER_GEN_DIR)/grammar.c $(PARSER_GEN_DIR)/lexer.c -lm

fuzz: $(FUZZ_BIN)
	@mkdir -p $(FUZZ_CORPUS)
	cp tests/models/ok/*.pam tests/models/ok/*.mach $(FUZZ_CORPUS)/
	cd $(FUZZ_DIR) && ./fuzz_frontend -max_total_time=$(SECONDS) -max_len=4096 -timeout=10 -dict=$(abspath tests/fuzz/pam.dict) \
	  -artifact_prefix=$(abspath $(FUZZ_DIR))/ corpus

# The loader and checker on top of the parser: `make fuzz-check SECONDS=N`.
FUZZ_CHECK_BIN     := $(FUZZ_DIR)/fuzz_check
FUZZ_CHECK_SOURCES := tests/fuzz/fuzz_check.c $(FUZZ_PARSER) $(filter lang/load.c lang/check/%.c lang/eval.c,$(LANG_SRCS)) algebra/interval.c

$(FUZZ_CHECK_BIN): $(FUZZ_CHECK_SOURCES) $(PARSER_GEN_DIR)/grammar.c $(PARSER_GEN_DIR)/lexer.c $(PARSER_GEN_DIR)/grammar.h $(PARSER_GEN_DIR)/lexer.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_FLAGS) -o $@ $(FUZZ_CHECK_SOURCES) $(PARSER_GEN_DIR)/grammar.c $(PARSER_GEN_DIR)/lexer.c -lm

fuzz-check: $(FUZZ_CHECK_BIN)
	@mkdir -p $(FUZZ_DIR)/corpus-check
	cp tests/models/ok/*.pam tests/models/check/*.pam models/*.pam $(FUZZ_DIR)/corpus-check/
	cd $(FUZZ_DIR) && ./fuzz_check -max_total_time=$(SECONDS) -max_len=4096 -timeout=10 -dict=$(abspath tests/fuzz/pam.dict) \
	  -artifact_prefix=$(abspath $(FUZZ_DIR))/check- corpus-check

# The specification front end of `pamc gen` (GEN.md): `make fuzz-spec SECONDS=N`. spec_parse.c
# and parse.c share helpers, so it links both scanners and grammars.
FUZZ_SPEC_BIN := $(FUZZ_DIR)/fuzz_spec
FUZZ_SPEC_GEN := $(PARSER_GEN_DIR)/grammar.c $(PARSER_GEN_DIR)/lexer.c $(PARSER_GEN_DIR)/spec_grammar.c $(PARSER_GEN_DIR)/spec_lexer.c

$(FUZZ_SPEC_BIN): tests/fuzz/fuzz_spec.c $(PARSER_SRCS) $(FUZZ_SPEC_GEN) $(PARSER_GEN_DIR)/grammar.h $(PARSER_GEN_DIR)/lexer.h $(PARSER_GEN_DIR)/spec_grammar.h $(PARSER_GEN_DIR)/spec_lexer.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_FLAGS) -o $@ tests/fuzz/fuzz_spec.c $(PARSER_SRCS) $(FUZZ_SPEC_GEN) -lm

FUZZ_SPEC_SEEDS := models/gen/*.spec tests/models/gen/*.spec $(wildcard tests/models/gen_ok/*.spec)

fuzz-spec: $(FUZZ_SPEC_BIN)
	@mkdir -p $(FUZZ_DIR)/corpus-spec
	cp $(FUZZ_SPEC_SEEDS) $(FUZZ_DIR)/corpus-spec/
	cd $(FUZZ_DIR) && ./fuzz_spec -max_total_time=$(SECONDS) -max_len=4096 -timeout=10 \
	  -artifact_prefix=$(abspath $(FUZZ_DIR))/spec- corpus-spec

# `pamc gen` as a whole (fuzz_gen.c): a spec against the primes cost library, and the model
# written must check. `make fuzz-gen SECONDS=N`. Links the library code of lang/ (no commands).
FUZZ_GEN_BIN     := $(FUZZ_DIR)/fuzz_gen
FUZZ_GEN_LIBRARY := $(abspath models/gen/primes_costs.pam)
FUZZ_GEN_SOURCES := tests/fuzz/fuzz_gen.c $(PARSER_SRCS) $(filter-out lang/cli/% $(EXTRACT_SRCS),$(LANG_SRCS)) \
                    $(ALGEBRA_SRCS) $(CALIBRATE_SRCS)

$(FUZZ_GEN_BIN): $(FUZZ_GEN_SOURCES) $(FUZZ_SPEC_GEN) $(PARSER_GEN_DIR)/grammar.h $(PARSER_GEN_DIR)/lexer.h $(PARSER_GEN_DIR)/spec_grammar.h $(PARSER_GEN_DIR)/spec_lexer.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) -DFUZZ_GEN_LIBRARY='"$(FUZZ_GEN_LIBRARY)"' $(FUZZ_FLAGS) -o $@ $(FUZZ_GEN_SOURCES) $(FUZZ_SPEC_GEN) $(LDLIBS)

FUZZ_GEN_SEEDS := models/gen/primes*.spec tests/models/gen/*.spec $(wildcard tests/models/gen_ok/*.spec)

fuzz-gen: $(FUZZ_GEN_BIN)
	@mkdir -p $(FUZZ_DIR)/corpus-gen
	cp $(FUZZ_GEN_SEEDS) $(FUZZ_DIR)/corpus-gen/
	cd $(FUZZ_DIR) && ./fuzz_gen -max_total_time=$(SECONDS) -max_len=4096 -timeout=10 \
	  -artifact_prefix=$(abspath $(FUZZ_DIR))/gen- corpus-gen

# The calculus (fuzz_reduce.c): check + reduce + predict at two points of each free param on every
# model. `make fuzz-reduce SECONDS=N`. Links the library code of lang/ (no commands).
FUZZ_REDUCE_BIN     := $(FUZZ_DIR)/fuzz_reduce
FUZZ_LIBRARY_SRCS   := $(PARSER_SRCS) $(filter-out lang/cli/% lang/extract/%,$(LANG_SRCS)) $(ALGEBRA_SRCS) $(CALIBRATE_SRCS)

$(FUZZ_REDUCE_BIN): tests/fuzz/fuzz_reduce.c $(FUZZ_LIBRARY_SRCS) $(FUZZ_SPEC_GEN) $(PARSER_GEN_DIR)/grammar.h $(PARSER_GEN_DIR)/lexer.h $(PARSER_GEN_DIR)/spec_grammar.h $(PARSER_GEN_DIR)/spec_lexer.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_FLAGS) -o $@ tests/fuzz/fuzz_reduce.c $(FUZZ_LIBRARY_SRCS) $(FUZZ_SPEC_GEN) $(LDLIBS)

FUZZ_REDUCE_SEEDS := tests/models/ok/*.pam models/*.pam tests/models/reduce/*.pam tests/models/predict/*.pam tests/models/iv/*.pam

fuzz-reduce: $(FUZZ_REDUCE_BIN)
	@mkdir -p $(FUZZ_DIR)/corpus-reduce
	cp $(FUZZ_REDUCE_SEEDS) $(FUZZ_DIR)/corpus-reduce/
	cd $(FUZZ_DIR) && ./fuzz_reduce -max_total_time=$(SECONDS) -max_len=4096 -timeout=10 -dict=$(abspath tests/fuzz/pam.dict) \
	  -artifact_prefix=$(abspath $(FUZZ_DIR))/reduce- corpus-reduce

# What users give besides a model (fuzz_inputs.c): machine files, --history files and -D values,
# chosen by the first byte. `make fuzz-inputs SECONDS=N`. Seeds: the machine files of models/ and
# tests/ (prefixed 0), tests/fuzz/inputs (histories prefixed 1, -D values prefixed 2).
FUZZ_INPUTS_BIN := $(FUZZ_DIR)/fuzz_inputs

$(FUZZ_INPUTS_BIN): tests/fuzz/fuzz_inputs.c $(FUZZ_LIBRARY_SRCS) $(FUZZ_SPEC_GEN) $(PARSER_GEN_DIR)/grammar.h $(PARSER_GEN_DIR)/lexer.h $(PARSER_GEN_DIR)/spec_grammar.h $(PARSER_GEN_DIR)/spec_lexer.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_FLAGS) -o $@ tests/fuzz/fuzz_inputs.c $(FUZZ_LIBRARY_SRCS) $(FUZZ_SPEC_GEN) $(LDLIBS)

# fuzz-inputs-seeds DIR: the seeds into DIR
define fuzz-inputs-seeds
	rm -rf $(1) && mkdir -p $(1) && cp tests/fuzz/inputs/* $(1)/ && \
	for f in models/*.mach tests/models/*/*.mach; do { printf 0; cat $$f; } > $(1)/mach_$$(basename $$f); done
endef

fuzz-inputs: $(FUZZ_INPUTS_BIN)
	@[ -d $(FUZZ_DIR)/corpus-inputs ] || { $(call fuzz-inputs-seeds,$(FUZZ_DIR)/corpus-inputs); }
	cd $(FUZZ_DIR) && ./fuzz_inputs -max_total_time=$(SECONDS) -max_len=4096 -timeout=10 \
	  -artifact_prefix=$(abspath $(FUZZ_DIR))/inputs- corpus-inputs

# `make test` runs this: the fuzz targets build and run their seeds and more (10,000 inputs each, 2,000 for
# fuzz-reduce and fuzz-inputs, which do more per input), so that a change to the front end's sources cannot break `make fuzz` unseen. Skipped, with a note,
# where clang cannot link libFuzzer.
.PHONY: fuzz-smoke fuzz-check fuzz-spec fuzz-gen fuzz-reduce fuzz-inputs
fuzz-smoke:
	@if printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' \
	    | $(FUZZ_CC) -fsanitize=fuzzer -x c - -o /dev/null 2>/dev/null; then \
	  $(MAKE) --no-print-directory -s $(FUZZ_BIN) $(FUZZ_CHECK_BIN) $(FUZZ_SPEC_BIN) $(FUZZ_GEN_BIN) $(FUZZ_REDUCE_BIN) $(FUZZ_INPUTS_BIN) >/dev/null && \
	  rm -rf $(FUZZ_DIR)/smoke && mkdir -p $(FUZZ_DIR)/smoke && \
	  cp tests/models/ok/*.pam tests/models/check/*.pam models/*.pam $(FUZZ_DIR)/smoke/ && \
	  $(FUZZ_BIN) -runs=10000 -max_len=4096 -seed=1 $(FUZZ_DIR)/smoke >$(FUZZ_DIR)/smoke.log 2>&1 && \
	  $(FUZZ_CHECK_BIN) -runs=10000 -max_len=4096 -seed=1 $(FUZZ_DIR)/smoke >>$(FUZZ_DIR)/smoke.log 2>&1 && \
	  rm -rf $(FUZZ_DIR)/smoke-spec && mkdir -p $(FUZZ_DIR)/smoke-spec && cp $(FUZZ_SPEC_SEEDS) $(FUZZ_DIR)/smoke-spec/ && \
	  $(FUZZ_SPEC_BIN) -runs=10000 -max_len=4096 -seed=1 $(FUZZ_DIR)/smoke-spec >>$(FUZZ_DIR)/smoke.log 2>&1 && \
	  rm -rf $(FUZZ_DIR)/smoke-gen && mkdir -p $(FUZZ_DIR)/smoke-gen && cp $(FUZZ_GEN_SEEDS) $(FUZZ_DIR)/smoke-gen/ && \
	  $(FUZZ_GEN_BIN) -runs=10000 -max_len=4096 -seed=1 $(FUZZ_DIR)/smoke-gen >>$(FUZZ_DIR)/smoke.log 2>&1 && \
	  rm -rf $(FUZZ_DIR)/smoke-reduce && mkdir -p $(FUZZ_DIR)/smoke-reduce && cp $(FUZZ_REDUCE_SEEDS) $(FUZZ_DIR)/smoke-reduce/ && \
	  $(FUZZ_REDUCE_BIN) -runs=2000 -max_len=4096 -seed=1 -timeout=10 $(FUZZ_DIR)/smoke-reduce >>$(FUZZ_DIR)/smoke.log 2>&1 && \
	  $(call fuzz-inputs-seeds,$(FUZZ_DIR)/smoke-inputs) && \
	  $(FUZZ_INPUTS_BIN) -runs=2000 -max_len=4096 -seed=1 -timeout=10 $(FUZZ_DIR)/smoke-inputs >>$(FUZZ_DIR)/smoke.log 2>&1 && \
	  echo "ok   fuzz targets build and run (make fuzz, fuzz-check, fuzz-spec, fuzz-gen, fuzz-reduce, fuzz-inputs)" || \
	  { tail -n 20 $(FUZZ_DIR)/smoke.log; echo "FAIL fuzz targets"; exit 1; }; \
	else echo "note: clang cannot link libFuzzer here; fuzz targets not built"; fi
