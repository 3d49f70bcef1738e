# lang/module.mk — checks, reduction, simulator and the command line (owned by lang/).
LANG_SRCS += lang/cmd_calibrate.c
LANG_SRCS += lang/eval.c lang/load.c lang/check.c lang/check_cycles.c lang/check_holds.c lang/check_whole.c lang/check_ends.c lang/check_values.c lang/cli.c \
             lang/cmd_check.c
LANG_SRCS += lang/sim.c lang/sim_compile.c lang/sim_eval.c lang/sim_engine.c lang/sim_events.c lang/sim_ps.c lang/sim_estimate.c
LANG_SRCS += lang/cmd_simulate.c
LANG_SRCS += lang/reduce.c lang/reduce_expr.c lang/reduce_demand.c lang/reduce_split.c lang/reduce_check.c lang/reduce_hold.c lang/reduce_ps.c lang/reduce_memo.c lang/reduce_approx.c lang/reduce_order.c \
             lang/cmd_reduce.c
LANG_SRCS += lang/sweep.c
LANG_SRCS += lang/cmd_predict.c lang/predict_measured.c lang/predict.c lang/predict_approx.c lang/predict_check.c lang/predict_plot.c lang/predict_plot_script.c
LANG_SRCS += lang/gen_print.c lang/gen_check.c lang/gen.c lang/cmd_gen.c
LANG_SRCS += lang/cmd_extract.c
LANG_SRCS += lang/fit/runs.c lang/fit/runs_csv.c lang/fit/runs_extrap.c lang/fit/fit_model.c lang/fit/fit_keep.c lang/fit/fit.c \
             lang/fit/fit_report.c lang/fit/fit_format.c lang/cmd_fit.c
