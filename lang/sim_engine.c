/*
** sim_engine.c — the event loop of one simulation run (LANGUAGE.md §6): threads as explicit state
** machines over compiled statements (a frame stack each), a binary heap of events keyed by
** (time, program order, sequence number), FCFS resources with multiplicity and one queue per
** member. Times are exact sums of durations (SimTime), and times within SIM_TIE_REL of each other
** are one instant, so ties do not depend on how the durations rounded to binary.
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

#include "sim_internal.h"

/* Events between two looks at the wall clock (for progress reports): a look costs ~20 ns. */
#define ENGINE_CLOCK_EVERY 65536
/* Arrays of a thread (frames, values) and of the engine start this small and double: 10^5 threads
** alive at once each hold a few frames and values. */
#define ENGINE_FIRST_CAPACITY 4
/* A family's member table starts with this many slots and doubles at half full. */
#define ENGINE_MEMBERS_START 16

typedef enum FrameKind {
  FR_ONCE,      /* a process body or a forked branch: enter `body` once; may own a value block */
  FR_BLOCK,     /* { ... }: pos is the next item */
  FR_SEQ,       /* seq: pos is the next index, end the last */
  FR_REPEAT     /* repeat: pos counts done, end the count */
} FrameKind;

typedef struct Frame {
  FrameKind kind;           /* what the frame steps through */
  const SimStmt *stmt;      /* FR_ONCE: the statement to enter; else the compound statement */
  int64_t pos, end;         /* see FrameKind */
  int saved_base;           /* FR_ONCE that owns a value block: the caller's base; else -1 */
} Frame;

typedef struct SimThread {
  Frame *frames;            /* frame stack */
  int depth;                /* frames in use */
  int frame_cap;            /* capacity of frames */
  double *vals;             /* value stack: blocks of [args..., indices...] per process call */
  int base;                 /* start of the current block */
  int top;                  /* end of the used values */
  int val_cap;              /* capacity of vals */
  struct SimThread *parent; /* the thread that waits for this one to join, NULL for the entry */
  int fork_depth;           /* forks between the entry thread and this one (entry: 0) */
  int64_t branch;           /* position among the children of its fork (program order) */
  int64_t join_left;        /* children not yet ended (+1 while forking) */
  struct SimThread *next;   /* next in a resource queue, or in the free list */
  SimRes *holding_res;      /* the resource served during the current activity, NULL for delay */
  int64_t holding_index;    /* its member (members move when a family's table grows) */
  double duration;          /* the pending use's duration (while queued) */
  SimTime requested;        /* when the pending use was requested */
} SimThread;

typedef struct Event {
  SimTime time;             /* when */
  uint64_t seq;             /* among events of one instant and program order: order of scheduling */
  SimThread *thread;        /* whose activity ends */
  SimThread *parent;        /* thread->parent, copied: siblings compare without touching threads */
  int64_t branch;           /* thread->branch, copied */
} Event;

typedef enum Step { STEP_BLOCKED, STEP_DONE, STEP_ERROR } Step;

typedef struct Engine {
  SimProgram *program;      /* what runs */
  SimRng *rng;              /* choose() draws */
  SimError *err;            /* the first error */
  SimEval ev;               /* expression evaluation state */
  SimTime now;              /* simulated time */
  Event *heap;              /* pending events, binary min-heap on (time, seq) */
  int64_t heap_count;       /* events in heap */
  int64_t heap_cap;         /* capacity of heap */
  uint64_t seq;             /* next sequence number */
  uint64_t events;          /* events handled */
  SimThread *free_threads;  /* recycled threads (their buffers kept) */
  SimThread **all_threads;  /* every thread allocated, to free at the end */
  int64_t thread_count;     /* length of all_threads */
  int64_t thread_cap;       /* capacity of all_threads */
  int failed;               /* an error stopped the run */
  double makespan;          /* end of the entry process, -1 before */
  /* progress */
  const SimOptions *opts;   /* progress callback */
  int run_index;            /* for progress reports */
  struct timespec started;  /* wall clock at start */
  double next_report;       /* elapsed seconds of the next progress report */
} Engine;

static void *grow_array(void *items, int64_t *cap, size_t size, int64_t least) {
  int64_t bigger = *cap ? *cap * 2 : ENGINE_FIRST_CAPACITY;
  while (bigger < least) bigger *= 2;
  void *more = realloc(items, (size_t)bigger * size);
  if (!more) {
    fputs("pamc: out of memory\n", stderr);
    abort();
  }
  *cap = bigger;
  return more;
}

/* ------------------------------------------------------------------ event heap */

/* 1 when thread a comes before thread b in program order: depth first over the fork tree, the
** branches of a fork in order. Threads with events are leaves of that tree (a parent waits at
** its join without an event), so two of them are never one above the other. */
static int program_order_before(const SimThread *a, const SimThread *b) {
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
** queue in program order), then in the order they were scheduled. */
static int earlier(const Event *a, const Event *b) {
  if (!sim_time_same(a->time, b->time)) return sim_time_before(a->time, b->time);
  if (a->parent == b->parent && a->branch != b->branch) return a->branch < b->branch;
  if (a->thread != b->thread) {
    if (program_order_before(a->thread, b->thread)) return 1;
    if (program_order_before(b->thread, a->thread)) return 0;
  }
  return a->seq < b->seq;
}

static void schedule(Engine *e, SimThread *t, SimTime time) {
  if (e->heap_count == e->heap_cap) e->heap = grow_array(e->heap, &e->heap_cap, sizeof *e->heap, 0);
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

static Event pop_event(Engine *e) {
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
      e->all_threads = grow_array(e->all_threads, &e->thread_cap, sizeof *e->all_threads, 0);
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
  return t;
}

static void thread_release(Engine *e, SimThread *t) {
  t->next = e->free_threads;
  e->free_threads = t;
}

static Frame *push_frame(SimThread *t, FrameKind kind, const SimStmt *stmt) {
  if (t->depth == t->frame_cap) {
    int64_t cap = t->frame_cap;
    t->frames = grow_array(t->frames, &cap, sizeof *t->frames, 0);
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
    t->vals = grow_array(t->vals, &cap, sizeof *t->vals, t->top + count);
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

/* Frees one server of the member at e->now and hands it to the first waiting request. */
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
  res->waiting += sim_time_diff(e->now, next->requested);
  res->busy_time += next->duration;
  res->requests += 1;
  m->busy_time += next->duration;
  next->holding_res = res;
  next->holding_index = index;
  schedule(e, next, sim_time_add(e->now, next->duration));
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
static Step enter(Engine *e, SimThread *t, const SimStmt *s) {
  double x, y;
  switch (s->kind) {
    case SS_SKIP:
      return STEP_DONE;
    case SS_DELAY:
      if (eval_duration(e, t, s->a, &x)) return STEP_ERROR;
      if (x == 0) return STEP_DONE;
      schedule(e, t, sim_time_add(e->now, x));
      return STEP_BLOCKED;
    case SS_USE: {
      SimRes *res = s->res;
      int64_t index = 0;
      if (s->index) {
        if (eval_whole(e, t, s->index, "a member index", &x)) return STEP_ERROR;
        if (x < 0 || x >= (double)res->size)
          return sim_fail(e->err, s->index->src->loc, "index %g out of range: %s has members 0 .. %lld",
                          x, res->decl->name.name, (long long)res->size - 1), STEP_ERROR;
        index = (int64_t)x;
      }
      if (eval_duration(e, t, s->a, &y)) return STEP_ERROR;
      SimMember *m = member_of(res, index);
      if (m->busy < res->servers) {
        res->busy_time += y;
        res->requests += 1;
        m->busy_time += y;
        if (y == 0) return STEP_DONE;
        m->busy++;
        t->holding_res = res;
        t->holding_index = index;
        schedule(e, t, sim_time_add(e->now, y));
        return STEP_BLOCKED;
      }
      t->duration = y;
      t->requested = e->now;
      t->next = NULL;
      if (m->tail) m->tail->next = t;
      else m->head = t;
      m->tail = t;
      return STEP_BLOCKED;
    }
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
    }
    if (!next) {
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
  for (int i = 0; i < e->program->resource_count; i++) {
    free(e->program->resources[i]->table);
    e->program->resources[i]->table = NULL;
  }
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
  while (!e.failed && e.heap_count > 0) {
    Event ev = pop_event(&e);
    e.now = ev.time;
    e.events++;
    SimThread *t = ev.thread;
    if (t->holding_res) {
      SimRes *res = t->holding_res;
      t->holding_res = NULL;
      release(&e, res, t->holding_index);
    }
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
    status = sim_fail(err, program->entry->decl->loc, "the entry process never ended (internal error)");
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
