# lang/check/module.mk — semantic checks of a loaded model (owned by lang/check/).
LANG_SRCS += lang/check/check.c lang/check/check_cycles.c lang/check/check_holds.c \
             lang/check/check_whole.c lang/check/check_ends.c lang/check/check_values.c
