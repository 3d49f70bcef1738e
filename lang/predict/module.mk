# lang/predict/module.mk — evaluation of bounds over sweeps, measured runs and plots (owned by
# lang/predict/).
LANG_SRCS += lang/predict/sweep.c lang/predict/predict.c lang/predict/predict_approx.c \
             lang/predict/predict_check.c lang/predict/predict_measured.c \
             lang/predict/predict_plot.c lang/predict/predict_plot_script.c
