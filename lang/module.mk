# lang/module.mk — the language's semantics and the command line (owned by lang/): the model
# loader and the interval evaluator live here; each subsystem has a room with its own module.mk:
#   check/    semantic checks of a loaded model (LANGUAGE.md's rules, located errors)
#   sim/      the reference simulator (discrete events, processor sharing, holds)
#   reduce/   the calculus: closed-form lower/upper bounds (REDUCTION.md and docs/reduction.md);
#             its order-aware rules in reduce/order/
#   predict/  evaluation of the reduced bounds over param sweeps, measured runs, plots
#   gen/      `pamc gen`: models from task specifications (GEN.md)
#   fit/      `pamc fit`: consts fitted to measured runs (GSL multifit_nlinear)
#   extract/  `pamc extract`: models from C source (the only code that links libclang)
#   cli/      the command line: option parsing and one file per subcommand
LANG_ROOMS := check sim reduce predict gen fit cli
LANG_SRCS  += lang/eval.c lang/load.c
CPPFLAGS   += $(addprefix -Ilang/,$(LANG_ROOMS))
include $(addprefix lang/,$(addsuffix /module.mk,$(LANG_ROOMS)))
