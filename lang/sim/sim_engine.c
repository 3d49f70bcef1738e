/*
** sim_engine.c — the event loop of one simulation run (LANGUAGE.md §6, §8): threads as explicit
** state machines over compiled statements (a frame stack each), the event heap (sim_events.c)
** and the processor-sharing members (sim_ps.c), FCFS resources with multiplicity, one queue per
** member, holds and hand-offs, and the deadlock report. Times are exact sums of durations
** (SimTime), and times within SIM_TIE_REL of each other are one instant, so ties do not depend on
** how the durations rounded to binary.
**
** A thread is a running branch: the entry process, or one branch of `||` / one index of `par`.
** It runs until it starts an activity that takes time (or waits in a queue, or waits for its
** children to join); then it has at most one event in the heap. So memory grows with the threads
** alive at once, never with the number of activities. Children are started in branch order
** (increasing index for par), each run until it blocks before the next is started; events of one
** instant are handled in program order (depth first over the fork tree), then in the order they
** were scheduled: requests made at one instant queue in program order.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim_run.h"

/* Events between two looks at the wall clock (for progress reports): a look costs ~20 ns. */
#define ENGINE_CLOCK_EVERY 65536
/* Threads allocated between two looks at the run's resident memory (a look costs a few us). */
#define ENGINE_MEMORY_EVERY 4096
/* A family's member table starts with this many slots and doubles at half full. */
#define ENGINE_MEMBERS_START 16

typedef enum Step { STEP_BLOCKED, STEP_DONE, STEP_ERROR } Step;

/* ------------------------------------------------------------------ threads */

static SimThread *thread_new(Engine *e, SimThread *parent) {
  SimThread *t = e->free_threads;
  if (t) {
    e->free_threads = t->next;
  } else {
    t = calloc(1, sizeof *t);
    if (!t) {
      fputs("pamc: out of memory\n", stderr);
      abort();
    }
    if (e->thread_count == e->thread_cap)
      e->all_threads = sim_grow_array(e->all_threads, &e->thread_cap, sizeof *e->all_threads, 0);
    e->all_threads[e->thread_count++] = t;
  }
  t->depth = 0;
  t->base = 0;
  t->top = 0;
  t->parent = parent;
  t->fork_depth = parent ? parent->fork_depth + 1 : 0;
  t->branch = 0;
  t->join_left = 0;
  t->next = NULL;
  t->holding_res = NULL;
  t->waiting = NULL;
  return t;
}

static void thread_release(Engine *e, SimThread *t) {
  t->next = e->free_threads;
  e->free_threads = t;
}

static Frame *push_frame(SimThread *t, FrameKind kind, const SimStmt *stmt) {
  if (t->depth == t->frame_cap) {
    int64_t cap = t->frame_cap;
    t->frames = sim_grow_array(t->frames, &cap, sizeof *t->frames, 0);
    t->frame_cap = (int)cap;
  }
  Frame *f = &t->frames[t->depth++];
  f->kind = kind;
  f->stmt = stmt;
  f->pos = 0;
  f->end = 0;
  f->saved_base = -1;
  return f;
}

/* Makes room for count more values; returns the index of the first. */
static int reserve_values(SimThread *t, int count) {
  if (t->top + count > t->val_cap) {
    int64_t cap = t->val_cap;
    t->vals = sim_grow_array(t->vals, &cap, sizeof *t->vals, t->top + count);
    t->val_cap = (int)cap;
  }
  int first = t->top;
  t->top += count;
  return first;
}

/* ------------------------------------------------------------------ resources */

static SimMember *member_of(SimRes *res, int64_t index) {
  if (!res->family) return &res->single;
  if (res->table_used * 2 >= res->table_size) {
    int64_t size = res->table_size ? res->table_size * 2 : ENGINE_MEMBERS_START;
    SimMember *table = malloc((size_t)size * sizeof *table);
    if (!table) {
      fputs("pamc: out of memory\n", stderr);
      abort();
    }
    for (int64_t i = 0; i < size; i++) table[i].index = -1;
    for (int64_t i = 0; i < res->table_size; i++) {
      if (res->table[i].index < 0) continue;
      uint64_t h = ((uint64_t)res->table[i].index * 0x9e3779b97f4a7c15ULL) & (uint64_t)(size - 1);
      while (table[h].index >= 0) h = (h + 1) & (uint64_t)(size - 1);
      table[h] = res->table[i];
      /* queued threads point to nothing in the member: moving it is safe */
    }
    free(res->table);
    res->table = table;
    res->table_size = size;
  }
  uint64_t mask = (uint64_t)(res->table_size - 1);
  uint64_t h = ((uint64_t)index * 0x9e3779b97f4a7c15ULL) & mask;
  while (res->table[h].index >= 0 && res->table[h].index != index) h = (h + 1) & mask;
  SimMember *m = &res->table[h];
  if (m->index < 0) {
    memset(m, 0, sizeof *m);
    m->index = index;
    res->table_used++;
  }
  return m;
}

/* Frees one server of the member at e->now and hands it to the first waiting request, which
** starts handoff seconds later (LANGUAGE.md §8; the server stays taken meanwhile): a use then runs
** for its duration, a hold enters its body. */
static void release(Engine *e, SimRes *res, int64_t index) {
  SimMember *m = member_of(res, index);
  SimThread *next = m->head;
  if (!next) {
    m->busy--;
    return;
  }
  m->head = next->next;
  if (!m->head) m->tail = NULL;
  next->next = NULL;
  SimTime start = sim_time_add(e->now, res->handoff);
  res->waiting += sim_time_diff(start, next->requested);
  res->requests += 1;
  if (next->waiting->kind == SS_HOLD) {   /* its FR_HOLD frame is on top: busy time at release */
    next->frames[next->depth - 1].since = e->now;
    next->waiting = NULL;
    sim_schedule(e, next, start);
    return;
  }
  next->waiting = NULL;
  res->busy_time += res->handoff + next->duration;
  m->busy_time += res->handoff + next->duration;
  next->holding_res = res;
  next->holding_index = index;
  sim_schedule(e, next, sim_time_add(start, next->duration));
}

/* Puts t at the end of member m's queue, waiting for statement s (a use of duration seconds, or a
** hold). */
static void enqueue(Engine *e, SimMember *m, SimThread *t, const SimStmt *s, double duration) {
  t->duration = duration;
  t->requested = e->now;
  t->waiting = s;
  t->next = NULL;
  if (m->tail) m->tail->next = t;
  else m->head = t;
  m->tail = t;
}

/* The end of hold (r) S at e->now: the server's busy time, then it goes to the next request. */
static void release_hold(Engine *e, const Frame *f) {
  SimRes *res = f->stmt->res;
  double held = sim_time_diff(e->now, f->since);
  res->busy_time += held;
  member_of(res, f->end)->busy_time += held;
  release(e, res, f->end);
}

/* ------------------------------------------------------------------ statements */

static double *frame_values(SimThread *t) { return t->vals + t->base; }

static int eval_at(Engine *e, SimThread *t, const SimExpr *x, double *out) {
  return sim_eval(&e->ev, x, frame_values(t), out);
}

static int eval_whole(Engine *e, SimThread *t, const SimExpr *x, const char *what, double *out) {
  if (eval_at(e, t, x, out)) return -1;
  if (!isfinite(*out) || floor(*out) != *out || fabs(*out) > 9.0e15)
    return sim_fail(e->err, x->src->loc, "%s is not an integer (%g)", what, *out);
  return 0;
}

static int eval_duration(Engine *e, SimThread *t, const SimExpr *x, double *out) {
  if (eval_at(e, t, x, out)) return -1;
  if (!(*out >= 0) || !isfinite(*out))
    return sim_fail(e->err, x->src->loc, "%s duration (%g)", *out < 0 ? "negative" : "invalid", *out);
  return 0;
}

static void thread_run(Engine *e, SimThread *t);

/* bytes as "%.1f MB" below a GB, else "%.2f GB", in buf. */
static const char *memory_text(double bytes, char *buf, size_t size) {
  if (bytes < 1e9) snprintf(buf, size, "%.1f MB", bytes / 1e6);
  else snprintf(buf, size, "%.2f GB", bytes / 1e9);
  return buf;
}

/* After a fork of par or || statement s: once every ENGINE_MEMORY_EVERY threads allocated, the
** run's resident memory against its limit. 0, or -1 (and the run failed) when it is past. */
static int memory_check(Engine *e, const SimStmt *s) {
  if (e->memory_limit <= 0 || e->thread_count < e->next_memory_look) return 0;
  e->next_memory_look = e->thread_count + ENGINE_MEMORY_EVERY;
  double resident = sim_memory_resident();
  if (resident <= e->memory_limit) return 0;
  char used[32], limit[32];
  e->failed = 1;
  return sim_fail(e->err, s->src->loc, "the branches started here take more memory than the "
                  "simulation may use: %s with %lld branches alive at once, past the limit of %s "
                  "(the memory available when the run started, or --max-memory); give smaller params "
                  "with -D, or predict instead (pamc predict does not run the branches)",
                  memory_text(resident, used, sizeof used), (long long)e->thread_count,
                  memory_text(e->memory_limit, limit, sizeof limit));
}

/* Starts a child of t that runs body with a copy of t's current value block (index value
** stored at slot when slot >= 0), and runs it until it blocks. */
static void fork_child(Engine *e, SimThread *t, const SimStmt *body, int64_t branch, int slot,
                       double index) {
  SimThread *child = thread_new(e, t);
  child->branch = branch;
  int count = t->top - t->base;
  reserve_values(child, count);
  if (count) memcpy(child->vals, t->vals + t->base, (size_t)count * sizeof *child->vals);
  if (slot >= 0) child->vals[slot] = index;
  push_frame(child, FR_ONCE, body);
  thread_run(e, child);
}

/* Enters statement s in thread t at e->now. Returns STEP_DONE when s has nothing left to wait
** for (it ended, or it pushed frames that advance() continues), STEP_BLOCKED when t waits. */
/* The member a use or hold names (index evaluated in t's frame). 0, or -1 with the error. */
static inline int member_index(Engine *e, SimThread *t, const SimStmt *s, int64_t *index) {
  double x;
  *index = 0;
  if (!s->index) return 0;
  if (eval_whole(e, t, s->index, "a member index", &x)) return -1;
  if (x < 0 || x >= (double)s->res->size)
    return sim_fail(e->err, s->index->src->loc, "index %g out of range: %s has members 0 .. %lld",
                    x, s->res->decl->name.name, (long long)s->res->size - 1);
  *index = (int64_t)x;
  return 0;
}

/* hold (r) S: takes a server of r now or queues for one (FCFS, like use); S runs in t holding it
** (FR_HOLD releases it when S ends). */
static Step enter_hold(Engine *e, SimThread *t, const SimStmt *s) {
  int64_t index;
  if (member_index(e, t, s, &index)) return STEP_ERROR;
  SimMember *m = member_of(s->res, index);
  Frame *f = push_frame(t, FR_HOLD, s);
  f->end = index;
  f->since = e->now;
  if (m->busy < s->res->servers) {
    m->busy++;
    s->res->requests += 1;
    return STEP_DONE;
  }
  enqueue(e, m, t, s, 0);
  return STEP_BLOCKED;
}

static Step enter(Engine *e, SimThread *t, const SimStmt *s) {
  double x, y;
  switch (s->kind) {
    case SS_SKIP:
      return STEP_DONE;
    case SS_DELAY:
      if (eval_duration(e, t, s->a, &x)) return STEP_ERROR;
      if (x == 0) return STEP_DONE;
      sim_schedule(e, t, sim_time_add(e->now, x));
      return STEP_BLOCKED;
    case SS_USE: {
      SimRes *res = s->res;
      int64_t index;
      if (member_index(e, t, s, &index)) return STEP_ERROR;
      if (eval_duration(e, t, s->a, &y)) return STEP_ERROR;
      SimMember *m = member_of(res, index);
      if (res->ps) {   /* processor sharing: served at once, at the shared rate */
        res->busy_time += y;
        res->requests += 1;
        m->busy_time += y;
        if (y == 0) return STEP_DONE;
        sim_ps_arrive(e, res, m, t, y);
        return STEP_BLOCKED;
      }
      if (m->busy < res->servers) {
        res->busy_time += y;
        res->requests += 1;
        m->busy_time += y;
        if (y == 0) return STEP_DONE;
        m->busy++;
        t->holding_res = res;
        t->holding_index = index;
        sim_schedule(e, t, sim_time_add(e->now, y));
        return STEP_BLOCKED;
      }
      enqueue(e, m, t, s, y);
      return STEP_BLOCKED;
    }
    case SS_HOLD:
      return enter_hold(e, t, s);
    case SS_CALL: {
      const SimProc *proc = s->proc;
      int first = reserve_values(t, proc->value_count);
      double *caller = t->vals + t->base, *callee = t->vals + first;
      for (int i = 0; i < s->count; i++)
        if (sim_eval(&e->ev, s->args[i], caller, &callee[i])) return STEP_ERROR;
      Frame *f = push_frame(t, FR_ONCE, proc->body);
      f->saved_base = t->base;
      t->base = first;
      return STEP_DONE;
    }
    case SS_BLOCK:
      push_frame(t, FR_BLOCK, s);
      return STEP_DONE;
    case SS_PARALLEL:
    case SS_PAR: {
      int64_t lo = 0, hi = s->count - 1;
      if (s->kind == SS_PAR) {
        if (eval_whole(e, t, s->a, "a loop bound", &x) || eval_whole(e, t, s->b, "a loop bound", &y))
          return STEP_ERROR;
        lo = (int64_t)x;
        hi = (int64_t)y;
      }
      if (hi < lo) return STEP_DONE;
      t->join_left = hi - lo + 2;   /* +1 while forking: no child resumes t before the end */
      for (int64_t i = lo; i <= hi && !e->failed; i++) {
        if (s->kind == SS_PAR) fork_child(e, t, s->body, i - lo, s->slot, (double)i);
        else fork_child(e, t, s->items[i], i, -1, 0);
        if (!e->failed) memory_check(e, s);
      }
      if (e->failed) return STEP_ERROR;
      return --t->join_left == 0 ? STEP_DONE : STEP_BLOCKED;
    }
    case SS_SEQ: {
      if (eval_whole(e, t, s->a, "a loop bound", &x) || eval_whole(e, t, s->b, "a loop bound", &y))
        return STEP_ERROR;
      if (y < x) return STEP_DONE;
      Frame *f = push_frame(t, FR_SEQ, s);
      f->pos = (int64_t)x;
      f->end = (int64_t)y;
      return STEP_DONE;
    }
    case SS_REPEAT: {
      if (eval_whole(e, t, s->a, "a repeat count", &x)) return STEP_ERROR;
      if (x < 1) return STEP_DONE;
      Frame *f = push_frame(t, FR_REPEAT, s);
      f->end = (int64_t)x;
      return STEP_DONE;
    }
    case SS_IF:
      if (eval_at(e, t, s->a, &x)) return STEP_ERROR;
      if (x != 0) return enter(e, t, s->body);
      return s->otherwise ? enter(e, t, s->otherwise) : STEP_DONE;
    case SS_CHOOSE:
      if (eval_at(e, t, s->a, &x)) return STEP_ERROR;
      if (!(x >= 0 && x <= 1))
        return sim_fail(e->err, s->a->src->loc, "probability %g is not between 0 and 1", x), STEP_ERROR;
      if (sim_rng_unit(e->rng) < x) return enter(e, t, s->body);
      return s->otherwise ? enter(e, t, s->otherwise) : STEP_DONE;
  }
  return STEP_ERROR;
}

/* Runs t from its frames until it blocks or has no frames left. */
static Step advance(Engine *e, SimThread *t) {
  while (t->depth > 0) {
    Frame *f = &t->frames[t->depth - 1];
    const SimStmt *next = NULL;
    switch (f->kind) {
      case FR_ONCE:
        if (!f->pos) {
          f->pos = 1;
          next = f->stmt;
        }
        break;
      case FR_BLOCK:
        if (f->pos < f->stmt->count) next = f->stmt->items[f->pos++];
        break;
      case FR_SEQ:
        if (f->pos <= f->end) {
          t->vals[t->base + f->stmt->slot] = (double)f->pos++;
          next = f->stmt->body;
        }
        break;
      case FR_REPEAT:
        if (f->pos < f->end) {
          f->pos++;
          next = f->stmt->body;
        }
        break;
      case FR_HOLD:
        if (!f->pos) {
          f->pos = 1;
          next = f->stmt->body;
        }
        break;
    }
    if (!next) {
      if (f->kind == FR_HOLD) release_hold(e, f);
      if (f->saved_base >= 0) {   /* end of a process call: drop its values */
        t->top = t->base;
        t->base = f->saved_base;
      }
      t->depth--;
      continue;
    }
    Step step = enter(e, t, next);
    if (step != STEP_DONE) return step;
  }
  return STEP_DONE;
}

/* Runs t until it blocks; when it ends, its parent continues if it was the last child. */
static void thread_run(Engine *e, SimThread *t) {
  while (t) {
    Step step = advance(e, t);
    if (step == STEP_ERROR) {
      e->failed = 1;
      return;
    }
    if (step == STEP_BLOCKED) return;
    SimThread *parent = t->parent;
    thread_release(e, t);
    if (!parent) {
      e->makespan = e->now.hi;
      return;
    }
    t = --parent->join_left == 0 ? parent : NULL;
  }
}

/* ------------------------------------------------------------------ the run */

static double seconds_since(const struct timespec *start) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)(now.tv_sec - start->tv_sec) + 1e-9 * (double)(now.tv_nsec - start->tv_nsec);
}

static void engine_free(Engine *e) {
  for (int64_t i = 0; i < e->thread_count; i++) {
    free(e->all_threads[i]->frames);
    free(e->all_threads[i]->vals);
    free(e->all_threads[i]);
  }
  free(e->all_threads);
  free(e->heap);
  free(e->ps_heap);
  for (int i = 0; i < e->program->resource_count; i++) {
    SimRes *res = e->program->resources[i];
    sim_ps_free(&res->single);
    for (int64_t j = 0; j < res->table_size; j++)
      if (res->table[j].index >= 0) sim_ps_free(&res->table[j]);
    free(res->table);
    res->table = NULL;
  }
}

/* ------------------------------------------------------------------ deadlock */

/* Writes resource res (member index of a family) as "'r'" or "'r[3]'" at buf[n...]; returns n. */
static int put_member(char *buf, int n, int size, const char *sep, const SimRes *res, int64_t index) {
  if (n < 0 || n >= size) return n;
  if (res->family)
    return n + snprintf(buf + n, (size_t)(size - n), "%s'%s[%lld]'", sep, res->decl->name.name, (long long)index);
  return n + snprintf(buf + n, (size_t)(size - n), "%s'%s'", sep, res->decl->name.name);
}

/* Adds a note on the request t waiting at member index of res: what it waits for and what its
** thread holds. */
static void note_waiter(SimError *err, const SimRes *res, int64_t index, const SimThread *t) {
  SimNote *note = &err->notes[err->note_count++];
  int size = (int)sizeof note->message;
  note->loc = t->waiting->src->loc;
  int n = snprintf(note->message, (size_t)size, "%s", t->waiting->kind == SS_HOLD ? "hold of" : "use of");
  n = put_member(note->message, n, size, " ", res, index);
  if (n < size) n += snprintf(note->message + n, (size_t)(size - n), " waits");
  const char *sep = " while holding ";
  for (int i = 0; i < t->depth; i++) {
    const Frame *f = &t->frames[i];
    if (f->kind != FR_HOLD || f->pos == 0) continue;   /* pos 0: the hold still waiting */
    n = put_member(note->message, n, size, sep, f->stmt->res, f->end);
    sep = ", ";
  }
}

/* The run stopped with requests waiting and nothing running (LANGUAGE.md §8): the error names the
** resources, at the first waiting statement, with a note per waiting statement. Returns -1. */
static int report_deadlock(Engine *e) {
  char names[SIM_MESSAGE_SIZE / 2] = "";
  int waiting = 0, len = 0;
  const SimThread *first = NULL;
  SimError *err = e->err;
  SimError scratch;   /* the notes, gathered before the error is known */
  scratch.note_count = 0;
  for (int i = 0; i < e->program->resource_count; i++) {
    const SimRes *res = e->program->resources[i];
    int64_t slots = res->family ? res->table_size : 1;
    int named = 0;
    for (int64_t j = 0; j < slots; j++) {
      const SimMember *m = res->family ? &res->table[j] : &res->single;
      if (res->family && m->index < 0) continue;
      for (const SimThread *t = m->head; t; t = t->next) {
        waiting++;
        if (!first) first = t;
        if (scratch.note_count < SIM_MAX_NOTES) note_waiter(&scratch, res, m->index, t);
        if (!named && len < (int)sizeof names - 1) {
          len += snprintf(names + len, sizeof names - (size_t)len, "%s'%s'", len ? ", " : "", res->decl->name.name);
          named = 1;
        }
      }
    }
  }
  if (!first)
    return sim_fail(err, e->program->entry->decl->loc, "the entry process never ended (internal error)");
  sim_fail(err, first->waiting->src->loc, "deadlock: %d request%s wait%s for %s, which nothing will "
           "release (every other thread has ended or waits)%s", waiting, waiting == 1 ? "" : "s",
           waiting == 1 ? "s" : "", names, waiting > SIM_MAX_NOTES ? "; the first ones below" : "");
  for (int i = 0; i < scratch.note_count; i++) err->notes[i] = scratch.notes[i];
  err->note_count = scratch.note_count;
  return -1;
}

int sim_engine_run(SimProgram *program, SimRng *rng, const SimOptions *opts, int run_index,
                   SimRunResult *result, SimError *err) {
  Engine e;
  memset(&e, 0, sizeof e);
  e.program = program;
  e.rng = rng;
  e.err = err;
  e.ev.err = err;
  e.makespan = -1;
  e.opts = opts;
  e.run_index = run_index;
  e.next_report = SIM_PROGRESS_SECONDS;
  e.memory_limit = opts ? opts->memory_limit : 0;
  if (e.memory_limit == 0) {   /* what the machine has available now, beside what the run has */
    double available = sim_memory_available(), resident = sim_memory_resident();
    e.memory_limit = available > 0 && resident > 0 ? resident + 0.9 * available : -1;
  }
  e.next_memory_look = ENGINE_MEMORY_EVERY;
  clock_gettime(CLOCK_MONOTONIC, &e.started);
  for (int i = 0; i < program->resource_count; i++) {
    SimRes *res = program->resources[i];
    memset(&res->single, 0, sizeof res->single);
    res->table = NULL;
    res->table_size = res->table_used = 0;
    res->waiting = res->busy_time = res->requests = 0;
  }
  int status = 0;
  SimThread *root = thread_new(&e, NULL);
  reserve_values(root, program->entry->value_count);
  push_frame(root, FR_ONCE, program->entry->body);
  thread_run(&e, root);
  while (!e.failed && (e.heap_count > 0 || e.ps_count > 0)) {
    SimTime ps_time;
    SimThread *t = e.ps_count > 0 ? sim_ps_first(&e, &ps_time) : NULL;
    if (t && (e.heap_count == 0 || !sim_event_before_thread(&e.heap[0], ps_time, t))) {
      e.now = ps_time;   /* a processor-sharing request ends first */
      sim_ps_complete(&e);
    } else {
      Event ev = sim_pop_event(&e);
      e.now = ev.time;
      t = ev.thread;
      if (t->holding_res) {
        SimRes *res = t->holding_res;
        t->holding_res = NULL;
        release(&e, res, t->holding_index);
      }
    }
    e.events++;
    thread_run(&e, t);
    if ((e.events & (ENGINE_CLOCK_EVERY - 1)) == 0 && opts && (opts->progress_fn || opts->wall_limit > 0)) {
      double elapsed = seconds_since(&e.started);
      if (opts->wall_limit > 0 && elapsed > opts->wall_limit) {
        status = sim_fail(err, program->entry->decl->loc, "stopped after %.3g s of wall-clock time "
                          "(limit) and %llu events", elapsed, (unsigned long long)e.events);
        e.failed = 1;
        break;
      }
      if (opts->progress_fn && elapsed >= e.next_report) {
        SimProgress progress = {run_index, opts->runs, e.events, e.now.hi, elapsed};
        opts->progress_fn(opts->progress_ctx, &progress);
        e.next_report = elapsed + SIM_PROGRESS_SECONDS;
      }
    }
  }
  /* busiest member, for the report (before the tables go) */
  if (e.failed) status = -1;
  else if (e.makespan < 0)
    status = report_deadlock(&e);
  result->makespan = e.makespan;
  result->events = e.events;
  for (int i = 0; i < program->resource_count; i++) {
    SimRes *res = program->resources[i];
    double most = res->single.busy_time;
    int64_t used = res->single.busy_time > 0 || res->requests > 0;
    if (res->family) {
      most = 0;
      used = 0;
      for (int64_t j = 0; j < res->table_size; j++)
        if (res->table[j].index >= 0) {
          used++;
          if (res->table[j].busy_time > most) most = res->table[j].busy_time;
        }
    }
    res->busiest = most;
    res->members_used = used;
  }
  engine_free(&e);
  return status;
}
