# tests/prop/module.mk — property tests of the reduction (REDUCTION.md): random models whose
# reduced bounds are held against the simulator. The unit test tests/unit/test_property.c links
# the generator and driver; `make proptest N=20000 [SEED=1]` runs N cases in the normal build and
# saves shrunk counterexamples in tests/regress/open/<seed>.pam.
PROP_SRCS := tests/prop/genmodel.c tests/prop/propcheck.c tests/prop/propdrive.c
PROPTEST  := $(BUILD)/proptest

# The bounds are checked once lang/ builds the reduction (reduce_program); until then only load,
# check and simulate run. Rebuilt when lang/reduce/module.mk changes.
PROP_HAVE_REDUCE := $(if $(filter lang/reduce/%.c,$(LANG_SRCS)),-DPROP_HAVE_REDUCE)
$(BUILD)/obj/tests/prop/propcheck.o: CPPFLAGS += $(PROP_HAVE_REDUCE)
$(BUILD)/obj/tests/prop/propcheck.o: lang/reduce/module.mk

# The unit test binary links the generator and driver before the libraries they use (this rule
# replaces the pattern rule $(BUILD)/tests/% of tests/module.mk for this one test).
$(BUILD)/tests/test_property: $(BUILD)/obj/tests/unit/test_property.o $(call obj,$(PROP_SRCS)) \
                              $(call obj,$(TEST_SUPPORT)) $(LIBS)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ -lcmocka $(LDLIBS)

$(PROPTEST): $(call obj,tests/prop/proptest_main.c $(PROP_SRCS)) $(LIBS)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

.PHONY: proptest
proptest: $(PROPTEST)
	@mkdir -p tests/regress/open
	$(PROPTEST) $(or $(N),1000) $(or $(SEED),1) tests/regress/open
