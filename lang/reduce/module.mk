# lang/reduce/module.mk — the calculus: reduction to closed-form bounds (owned by lang/reduce/).
# The order-aware rules (bounds that see in what order a par's requests reach a resource) have a
# room of their own, lang/reduce/order/; the summaries, demand, member maps, ps and holds live here.
LANG_SRCS += lang/reduce/reduce.c lang/reduce/reduce_expr.c lang/reduce/reduce_demand.c \
             lang/reduce/reduce_split.c lang/reduce/reduce_check.c lang/reduce/reduce_hold.c \
             lang/reduce/reduce_ps.c lang/reduce/reduce_memo.c lang/reduce/reduce_approx.c \
             lang/reduce/reduce_nest.c lang/reduce/reduce_points.c lang/reduce/reduce_bits.c \
             lang/reduce/reduce_member.c lang/reduce/reduce_except.c lang/reduce/reduce_count.c \
             lang/reduce/reduce_lower.c lang/reduce/reduce_ends.c lang/reduce/reduce_own.c \
             lang/reduce/reduce_first.c
CPPFLAGS  += -Ilang/reduce/order
include lang/reduce/order/module.mk
