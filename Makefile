# Makefile — builds pamc, runs its tests (also under ASan/UBSan/LSan), benchmarks and demo.
# Each folder adds its sources in its own module.mk; this file holds the rules they share.

BUILD    ?= build
.DEFAULT_GOAL := all
CC       ?= cc
OPT      ?= -O2
SANITIZE ?=
WARN     := -std=c11 -Wall -Wextra -Werror
CPPFLAGS := -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -I. -Iparser -Ialgebra -Icalibrate -Ilang -I$(BUILD)/gen
SANFLAGS := -fsanitize=address -fsanitize=undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
CFLAGS   := $(WARN) $(OPT) -g $(if $(SANITIZE),$(SANFLAGS))
LDFLAGS  := $(if $(SANITIZE),$(SANFLAGS))
LDLIBS   := -lmpfi -lmpfr -lgmp -lgsl -lgslcblas -lm -lpthread
VERSION  := 0.1.0

# Debian packages that build, tests, benchmarks and the demo need.
DEBS := gcc make flex bison libgsl-dev libmpfr-dev libmpfi-dev libgmp-dev libcmocka-dev \
        gnuplot-nox openmpi-bin libopenmpi-dev clang libclang-dev

PARSER_SRCS    :=
PARSER_GEN     :=
ALGEBRA_SRCS   :=
CALIBRATE_SRCS :=
LANG_SRCS      :=
PAMC_MAIN      := lang/cli/main.c

include parser/module.mk
include algebra/module.mk
include calibrate/module.mk
include lang/module.mk
include lang/extract/module.mk

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))

PARSER_LIB    := $(BUILD)/libparser.a
ALGEBRA_LIB   := $(BUILD)/libalgebra.a
CALIBRATE_LIB := $(BUILD)/libcalibrate.a
LANG_LIB      := $(BUILD)/liblang.a
# Link order: users before what they use.
LIBS := $(LANG_LIB) $(CALIBRATE_LIB) $(ALGEBRA_LIB) $(PARSER_LIB)
PAMC := $(BUILD)/pamc

.PHONY: all deps test demo bench clean fuzz
all: $(PAMC) pamc $(CALIBRATE_BINS)

pamc: $(PAMC)
	@ln -sf $(PAMC) pamc

$(PAMC): $(call obj,$(PAMC_MAIN)) $(LIBS)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) $(EXTRACT_LDLIBS)

$(PARSER_LIB): $(call obj,$(PARSER_SRCS)) $(PARSER_GEN)
$(ALGEBRA_LIB): $(call obj,$(ALGEBRA_SRCS))
$(CALIBRATE_LIB): $(call obj,$(CALIBRATE_SRCS))
$(LANG_LIB): $(call obj,$(LANG_SRCS))
$(BUILD)/%.a:
	@mkdir -p $(@D)
	rm -f $@
	$(if $(filter %.o,$^),ar rcs $@ $(filter %.o,$^),ar rcs $@)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

include tests/module.mk
include tests/fuzz/module.mk
include tests/prop/module.mk
include bench/module.mk

deps:
	@missing=""; for p in $(DEBS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	  $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing >/dev/null; \
	fi
	@# Only `make fuzz` needs libFuzzer's runtime, whose package name carries clang's major version
	@# (Debian 12: libclang-rt-14-dev): installed once clang is, and a note, not a failure, without it.
	@fuzz="libclang-rt-$$(clang --version 2>/dev/null | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -n 1)-dev"; \
	if ! dpkg-query -W -f='$${Status}' "$$fuzz" 2>/dev/null | grep -q 'install ok installed'; then \
	  sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	  DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq "$$fuzz" >/dev/null 2>&1 \
	    || echo "note: $$fuzz (libFuzzer, for make fuzz) could not be installed; the rest does not need it"; \
	fi

clean:
	rm -rf build pamc

# make install PREFIX=... [DESTDIR=...]: the binary (and pamc-mpi-bench when built), the man page,
# bash completion, the bundled models (with their libraries and specs) under share/pamc, and the
# user's documentation under share/doc/pamc. make uninstall removes exactly these.
PREFIX   ?= /usr/local
DESTDIR  ?=
BINDIR   := $(DESTDIR)$(PREFIX)/bin
MANDIR   := $(DESTDIR)$(PREFIX)/share/man/man1
COMPDIR  := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
SHAREDIR := $(DESTDIR)$(PREFIX)/share/pamc
DOCDIR   := $(DESTDIR)$(PREFIX)/share/doc/pamc
INSTALL_DOCS := docs/manual.md docs/language.md docs/reduction.md docs/demo.png
.PHONY: install uninstall
install: all
	install -d $(BINDIR) $(MANDIR) $(COMPDIR) $(SHAREDIR) $(DOCDIR)
	install -m 755 $(PAMC) $(BINDIR)/pamc
	$(if $(CALIBRATE_BINS),install -m 755 $(CALIBRATE_BINS) $(BINDIR)/)
	install -m 644 docs/pamc.1 $(MANDIR)/pamc.1
	install -m 644 docs/pamc.bash $(COMPDIR)/pamc
	cd models && find . -type d -exec install -d "$(SHAREDIR)/models/{}" \; \
	  && find . -type f -exec install -m 644 "{}" "$(SHAREDIR)/models/{}" \;
	install -m 644 $(INSTALL_DOCS) $(DOCDIR)/
uninstall:
	rm -f $(BINDIR)/pamc $(BINDIR)/pamc-mpi-bench $(MANDIR)/pamc.1 $(COMPDIR)/pamc
	rm -rf $(SHAREDIR) $(DOCDIR)

# The main job on a bundled example: the time range of the LANGUAGE.md example (halo.pam: N, P,
# iters have defaults; the constants come from the machine file) for P = 1, 2, 4, ..., 1024.
DEMO_MODEL   := models/halo.pam
DEMO_MACHINE := models/machine.mach
DEMO_SWEEP   := P=1..1024:*2
# It also draws the sweep into $(DEMO_PLOT) (docs/demo.png is this plot, looked at when it landed).
DEMO_PLOT    := $(BUILD)/demo.png
demo: deps
	@$(MAKE) --no-print-directory all
	./pamc predict $(DEMO_MODEL) -m $(DEMO_MACHINE) -D $(DEMO_SWEEP) --plot $(DEMO_PLOT)
	@echo "plot: $(DEMO_PLOT)"
