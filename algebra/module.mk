# algebra/module.mk — symbolic expressions, intervals, evaluation, printers (owned by algebra/).
ALGEBRA_SRCS +=
# expressions (expr.h): context and interning, canonical forms, closed forms, evaluation, printers
ALGEBRA_SRCS += algebra/alg_pool.c algebra/expr.c algebra/number.c algebra/simplify.c algebra/minmax.c \
                algebra/logic.c algebra/eval.c algebra/sign.c algebra/transform.c algebra/poly.c algebra/sums.c \
                algebra/print.c algebra/print_latex.c algebra/print_json.c algebra/parse_text.c
# numeric side: double intervals (ival_kernel.h), MPFI intervals, the tape, the C printer
ALGEBRA_SRCS += algebra/interval.c algebra/ival_mpfi.c algebra/tape.c algebra/print_c.c
