# lang/cli/module.mk — the command line (owned by lang/cli/): common options and one file per
# subcommand; main.c is PAMC_MAIN (the Makefile links it into build/pamc only).
LANG_SRCS += lang/cli/cli.c lang/cli/cmd_check.c lang/cli/cmd_simulate.c lang/cli/cmd_reduce.c \
             lang/cli/cmd_predict.c lang/cli/predict_refine.c lang/cli/predict_pace.c \
             lang/cli/cmd_gen.c lang/cli/cmd_extract.c lang/cli/cmd_fit.c lang/cli/fit_format.c \
             lang/cli/cmd_calibrate.c
