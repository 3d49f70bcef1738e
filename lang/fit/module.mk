# lang/fit/module.mk — `pamc fit`: consts fitted to measured runs (owned by lang/fit/).
LANG_SRCS += lang/fit/runs.c lang/fit/runs_csv.c lang/fit/runs_extrap.c lang/fit/fit_model.c \
             lang/fit/fit_keep.c lang/fit/fit.c lang/fit/fit_report.c
