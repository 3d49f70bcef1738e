/*
** sim_ps.c — processor-sharing members of a simulation run (LANGUAGE.md §8, `ps(c)`): every
** request present at a member progresses at rate min(1, c / n) when n are present, and ends when
** it has received its work. Exact, by virtual time: V(t) grows at the rate of one request
** (dV/dt = min(1, c / n)); a request arriving when V = v with work w is done when V reaches its
** tag v + w, so the request with the smallest tag ends first, at now + (tag - V) / rate. Whenever
** n changes (an arrival or a departure) V is brought to date and the member's next end is
** recomputed. The members with requests present sit in a heap of their own on their next end
** (the engine takes the earlier of it and the event heap), so the event heap never has to move
** an event. Equal tags end at one instant, in program order.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim_run.h"

typedef struct SimPs {
  SimRes *res;              /* the resource (its capacity c; its waiting statistic) */
  SimThread **present;      /* requests present, a min-heap on (tag, program order) */
  int64_t count;            /* requests present (n) */
  int64_t cap;              /* capacity of present */
  SimTime vtime;            /* service each request present all along has received (V) */
  SimTime updated;          /* when vtime was last brought to date */
  SimTime next_end;         /* when present[0] ends at the current rate (count > 0) */
  int64_t pos;              /* position in the engine's ps_heap, -1 when not in it */
} SimPs;

/* The rate of each of n requests present: min(1, c / n). */
static double ps_rate(const SimPs *ps) {
  return (double)ps->count <= ps->res->capacity ? 1.0 : ps->res->capacity / (double)ps->count;
}

/* V at e->now: the service each request present has received since V's last update. */
static void bring_to_date(Engine *e, SimPs *ps) {
  if (ps->count > 0) {
    double dt = sim_time_diff(e->now, ps->updated);
    if (dt > 0) ps->vtime = sim_time_add(ps->vtime, dt * ps_rate(ps));
  }
  ps->updated = e->now;
}

/* ------------------------------------------------------------------ requests present, a heap */

/* Smaller tag first; equal tags (one instant of virtual time) in program order. */
static int request_before(const SimThread *a, const SimThread *b) {
  int order = sim_time_order(a->tag, b->tag);
  return order ? order < 0 : sim_program_order_before(a, b);
}

static void put(SimPs *ps, int64_t i, SimThread *t) {
  ps->present[i] = t;
  t->ps_pos = i;
}

/* Puts t at position i (a hole) where it belongs. */
static void settle_request(SimPs *ps, int64_t i, SimThread *t) {
  while (i > 0 && request_before(t, ps->present[(i - 1) / 2])) {
    put(ps, i, ps->present[(i - 1) / 2]);
    i = (i - 1) / 2;
  }
  for (;;) {
    int64_t child = 2 * i + 1;
    if (child >= ps->count) break;
    if (child + 1 < ps->count && request_before(ps->present[child + 1], ps->present[child])) child++;
    if (!request_before(ps->present[child], t)) break;
    put(ps, i, ps->present[child]);
    i = child;
  }
  put(ps, i, t);
}

/* ------------------------------------------------------------------ members, a heap on their next end */

/* Earlier end first; one instant: the request that comes first in program order. */
static int member_before(const SimPs *a, const SimPs *b) {
  int order = sim_time_order(a->next_end, b->next_end);
  return order ? order < 0 : sim_program_order_before(a->present[0], b->present[0]);
}

static void place_member(Engine *e, int64_t i, SimPs *ps) {
  e->ps_heap[i] = ps;
  ps->pos = i;
}

static void settle_member(Engine *e, int64_t i, SimPs *ps) {
  while (i > 0 && member_before(ps, e->ps_heap[(i - 1) / 2])) {
    place_member(e, i, e->ps_heap[(i - 1) / 2]);
    i = (i - 1) / 2;
  }
  for (;;) {
    int64_t child = 2 * i + 1;
    if (child >= e->ps_count) break;
    if (child + 1 < e->ps_count && member_before(e->ps_heap[child + 1], e->ps_heap[child])) child++;
    if (!member_before(e->ps_heap[child], ps)) break;
    place_member(e, i, e->ps_heap[child]);
    i = child;
  }
  place_member(e, i, ps);
}

/* Recomputes when ps's first request ends and moves ps in (or out of) the engine's heap. */
static void next_end(Engine *e, SimPs *ps) {
  if (ps->count == 0) {
    if (ps->pos >= 0) {
      int64_t i = ps->pos;
      SimPs *last = e->ps_heap[--e->ps_count];
      ps->pos = -1;
      if (i < e->ps_count) settle_member(e, i, last);
    }
    return;
  }
  const SimThread *first = ps->present[0];
  double left = sim_time_diff(first->tag, ps->vtime);
  ps->next_end = e->now;
  if (left > SIM_TIE_REL * fabs(first->tag.hi)) ps->next_end = sim_time_add(e->now, left / ps_rate(ps));
  if (ps->pos < 0) {
    if (e->ps_count == e->ps_cap) e->ps_heap = sim_grow_array(e->ps_heap, &e->ps_cap, sizeof *e->ps_heap, 0);
    ps->pos = e->ps_count++;
  }
  settle_member(e, ps->pos, ps);
}

/* ------------------------------------------------------------------ arrivals and departures */

void sim_ps_arrive(Engine *e, SimRes *res, SimMember *m, SimThread *t, double work) {
  SimPs *ps = m->ps;
  if (!ps) {
    ps = m->ps = calloc(1, sizeof *ps);
    if (!ps) {
      fputs("pamc: out of memory\n", stderr);
      abort();
    }
    ps->res = res;
    ps->pos = -1;
    ps->updated = e->now;
  }
  bring_to_date(e, ps);
  t->tag = sim_time_add(ps->vtime, work);
  t->duration = work;
  t->requested = e->now;
  if (ps->count == ps->cap) ps->present = sim_grow_array(ps->present, &ps->cap, sizeof *ps->present, 0);
  settle_request(ps, ps->count++, t);
  next_end(e, ps);
}

SimThread *sim_ps_first(const Engine *e, SimTime *when) {
  if (e->ps_count == 0) return NULL;
  *when = e->ps_heap[0]->next_end;
  return e->ps_heap[0]->present[0];
}

SimThread *sim_ps_complete(Engine *e) {
  SimPs *ps = e->ps_heap[0];
  SimThread *t = ps->present[0];
  bring_to_date(e, ps);
  SimThread *last = ps->present[--ps->count];
  if (ps->count > 0) settle_request(ps, 0, last);
  double slowed = sim_time_diff(e->now, t->requested) - t->duration;   /* time lost to sharing */
  if (slowed > SIM_TIE_REL * e->now.hi) ps->res->waiting += slowed;   /* not rounding noise */
  next_end(e, ps);
  return t;
}

void sim_ps_free(SimMember *m) {
  if (!m->ps) return;
  free(m->ps->present);
  free(m->ps);
  m->ps = NULL;
}
