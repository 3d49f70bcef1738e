/*
** sim_events.c — the event heap of a simulation run (sim_run.h): a binary min-heap on (time,
** program order, sequence number) in which every thread has at most one event and knows where it
** for its activity; processor-sharing completions live in a heap of their own (sim_ps.c), and
** the engine takes the earlier of the two firsts.
*/
#include <stdio.h>
#include <stdlib.h>

#include "sim_run.h"

void *sim_grow_array(void *items, int64_t *cap, size_t size, int64_t least) {
  int64_t bigger = *cap ? *cap * 2 : 4;
  while (bigger < least) bigger *= 2;
  void *more = realloc(items, (size_t)bigger * size);
  if (!more) {
    fputs("pamc: out of memory\n", stderr);
    abort();
  }
  *cap = bigger;
  return more;
}

/* Depth first over the fork tree, the branches of a fork in order. Threads with events or in a
** queue are leaves of that tree (a parent waits at its join without an event), so two of them are
** never one above the other. */
int sim_program_order_before(const SimThread *a, const SimThread *b) {
  int64_t branch_a = -1, branch_b = -1;
  while (a->fork_depth > b->fork_depth) { branch_a = a->branch; a = a->parent; }
  while (b->fork_depth > a->fork_depth) { branch_b = b->branch; b = b->parent; }
  while (a != b) {
    branch_a = a->branch;
    branch_b = b->branch;
    a = a->parent;
    b = b->parent;
  }
  return branch_a < branch_b;
}

/* Events of one instant run in program order (LANGUAGE.md §6: requests made at the same instant
** queue in program order), then in the order they were scheduled. The slow part, apart: */
static inline int earlier_at_one_instant(const Event *a, const Event *b) {
  if (a->parent == b->parent && a->branch != b->branch) return a->branch < b->branch;
  if (a->thread != b->thread) {
    if (sim_program_order_before(a->thread, b->thread)) return 1;
    if (sim_program_order_before(b->thread, a->thread)) return 0;
  }
  return a->seq < b->seq;
}

static inline int earlier(const Event *a, const Event *b) {
  int order = sim_time_order(a->time, b->time);
  return order ? order < 0 : earlier_at_one_instant(a, b);
}

void sim_schedule(Engine *e, SimThread *t, SimTime time) {
  if (e->heap_count == e->heap_cap) e->heap = sim_grow_array(e->heap, &e->heap_cap, sizeof *e->heap, 0);
  Event ev = {time, e->seq++, t, t->parent, t->branch};
  int64_t i = e->heap_count++;
  while (i > 0) {
    int64_t parent = (i - 1) / 2;
    if (!earlier(&ev, &e->heap[parent])) break;
    e->heap[i] = e->heap[parent];
    i = parent;
  }
  e->heap[i] = ev;
}

Event sim_pop_event(Engine *e) {
  Event first = e->heap[0];
  Event last = e->heap[--e->heap_count];
  int64_t i = 0, n = e->heap_count;
  for (;;) {
    int64_t child = 2 * i + 1;
    if (child >= n) break;
    if (child + 1 < n && earlier(&e->heap[child + 1], &e->heap[child])) child++;
    if (!earlier(&e->heap[child], &last)) break;
    e->heap[i] = e->heap[child];
    i = child;
  }
  if (n > 0) e->heap[i] = last;
  return first;
}

int sim_event_before_thread(const Event *ev, SimTime time, const SimThread *t) {
  int order = sim_time_order(ev->time, time);
  if (order) return order < 0;
  return ev->thread != t && sim_program_order_before(ev->thread, t);
}
