# lang/gen/module.mk — `pamc gen`: models from task specifications (owned by lang/gen/).
LANG_SRCS += lang/gen/gen_print.c lang/gen/gen_check.c lang/gen/gen.c
