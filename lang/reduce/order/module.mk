# lang/reduce/order/module.mk — the order-aware rules of the calculus (owned by lang/reduce/order/):
# the walk of a par's body with its index symbolic (reduce_order.c, reduce_order.h) and the rules
# built on it: stages, lines, grids, locks, release dates, rounds, all-to-all, ps in a par, forks.
# They include reduce_internal.h from lang/reduce/ (on the include path as a room of lang/).
LANG_SRCS += $(addprefix lang/reduce/order/reduce_, \
               order.c fork.c drift.c ps_order.c ps_batch.c stage.c grid.c grid_ahead.c lock.c lock_busy.c \
               release.c rounds.c budget.c a2a.c fcfs_batch.c fcfs_list.c fcfs_loop.c line.c wait.c shift.c \
               skip.c inorder.c holdline.c drain.c spaced.c twice.c)
