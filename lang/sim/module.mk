# lang/sim/module.mk — the reference simulator (owned by lang/sim/).
LANG_SRCS += lang/sim/sim.c lang/sim/sim_compile.c lang/sim/sim_eval.c lang/sim/sim_engine.c \
             lang/sim/sim_events.c lang/sim/sim_ps.c lang/sim/sim_estimate.c \
             lang/sim/sim_memory.c
