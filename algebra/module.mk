# algebra/module.mk — symbolic expressions, intervals, evaluation, printers (owned by algebra/).
ALGEBRA_SRCS +=
# expressions (expr.h): context and interning, canonical forms, closed forms, evaluation, printers
ALGEBRA_SRCS += algebra/alg_pool.c algebra/expr.c algebra/op_memo.c algebra/node_memo.c algebra/number.c algebra/simplify.c algebra/minmax.c \
                algebra/logic.c algebra/eval.c algebra/sign.c algebra/transform.c algebra/poly.c algebra/sums.c \
                algebra/print.c algebra/print_latex.c algebra/print_json.c algebra/parse_text.c
# numeric side: double intervals (ival_kernel.h), MPFI intervals, the tape, the C printer
ALGEBRA_SRCS += algebra/interval.c algebra/ival_mpfi.c algebra/tape.c algebra/print_c.c
# The tape's point loops are written to vectorise; GCC's -O2 cost model only vectorises loops that
# need no epilogue, so the tape is built at -O3, with no fused multiply-add (the error-free
# transforms of ival_kernel.h need every product rounded on its own). tape.c also clones its
# point loop for AVX2 and AVX-512 (bench/alg_bench: 0.58 s -> 0.19 s for 10^6 points).
$(BUILD)/obj/algebra/tape.o: CFLAGS += -O3 -ffp-contract=off
