# algebra/module.mk — symbolic expressions, intervals, evaluation, printers (owned by algebra/).
ALGEBRA_SRCS +=
