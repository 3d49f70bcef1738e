# lang/reduce/module.mk — the calculus: reduction to closed-form bounds (owned by lang/reduce/).
LANG_SRCS += lang/reduce/reduce.c lang/reduce/reduce_expr.c lang/reduce/reduce_demand.c \
             lang/reduce/reduce_split.c lang/reduce/reduce_check.c lang/reduce/reduce_hold.c \
             lang/reduce/reduce_ps.c lang/reduce/reduce_memo.c lang/reduce/reduce_approx.c \
             lang/reduce/reduce_order.c lang/reduce/reduce_fork.c lang/reduce/reduce_drift.c \
             lang/reduce/reduce_ps_order.c lang/reduce/reduce_ps_batch.c lang/reduce/reduce_stage.c \
             lang/reduce/reduce_grid.c lang/reduce/reduce_lock.c lang/reduce/reduce_release.c lang/reduce/reduce_rounds.c lang/reduce/reduce_budget.c lang/reduce/reduce_a2a.c lang/reduce/reduce_grid_ahead.c lang/reduce/reduce_fcfs_batch.c lang/reduce/reduce_line.c lang/reduce/reduce_wait.c \
             lang/reduce/reduce_nest.c lang/reduce/reduce_points.c lang/reduce/reduce_member.c \
             lang/reduce/reduce_except.c lang/reduce/reduce_shift.c
