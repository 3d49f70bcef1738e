# lang/module.mk — checks, reduction, simulator and the command line (owned by lang/).
LANG_SRCS += lang/cmd_stubs.c
