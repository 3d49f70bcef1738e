/*
** sim_run.h — the state of one simulation run that the engine's parts share: threads (frame
** stacks), the event heap (sim_events.c), processor-sharing members (sim_ps.c) and the engine
** itself (sim_engine.c). Internal to the simulator.
*/
#ifndef PAMC_SIM_RUN_H
#define PAMC_SIM_RUN_H

#include <time.h>

#include "sim_internal.h"

typedef enum FrameKind {
  FR_ONCE,      /* a process body or a forked branch: enter `body` once; may own a value block */
  FR_BLOCK,     /* { ... }: pos is the next item */
  FR_SEQ,       /* seq: pos is the next index, end the last */
  FR_REPEAT,    /* repeat: pos counts done, end the count */
  FR_HOLD       /* hold (r) S: pos 0 before S, 1 while S runs; end is the member held */
} FrameKind;

typedef struct Frame {
  FrameKind kind;           /* what the frame steps through */
  const SimStmt *stmt;      /* FR_ONCE: the statement to enter; else the compound statement */
  int64_t pos, end;         /* see FrameKind */
  int saved_base;           /* FR_ONCE that owns a value block: the caller's base; else -1 */
  SimTime since;            /* FR_HOLD: when the server was granted (busy time at release) */
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
  double duration;          /* the pending use's duration (queued, or work of a ps request) */
  SimTime requested;        /* when the pending request was made */
  const SimStmt *waiting;   /* the use or hold it queues for (deadlock report), NULL when served */
  int64_t ps_pos;           /* index in its ps member's heap of requests present */
  SimTime tag;              /* ps: the member's virtual time at which the request is done */
} SimThread;

typedef struct Event {
  SimTime time;             /* when */
  uint64_t seq;             /* among events of one instant and program order: order of scheduling */
  SimThread *thread;        /* whose activity ends */
  SimThread *parent;        /* thread->parent, copied: siblings compare without touching threads */
  int64_t branch;           /* thread->branch, copied */
} Event;

typedef struct Engine {
  SimProgram *program;      /* what runs */
  SimRng *rng;              /* choose() draws */
  SimError *err;            /* the first error */
  SimEval ev;               /* expression evaluation state */
  SimTime now;              /* simulated time */
  Event *heap;              /* pending events, binary min-heap on (time, program order, seq) */
  int64_t heap_count;       /* events in heap */
  int64_t heap_cap;         /* capacity of heap */
  uint64_t seq;             /* next sequence number */
  uint64_t events;          /* events handled */
  SimThread *free_threads;  /* recycled threads (their buffers kept) */
  SimThread **all_threads;  /* every thread allocated, to free at the end */
  int64_t thread_count;     /* length of all_threads */
  int64_t thread_cap;       /* capacity of all_threads */
  struct SimPs **ps_heap;   /* ps members with requests present, a min-heap on their next end */
  int64_t ps_count;         /* members in ps_heap */
  int64_t ps_cap;           /* capacity of ps_heap */
  int failed;               /* an error stopped the run */
  double memory_limit;      /* resident bytes the run may reach, <= 0: no limit (sim_memory.c) */
  int64_t next_memory_look; /* thread_count at which the resident memory is looked at next */
  double makespan;          /* end of the entry process, -1 before */
  /* progress */
  const SimOptions *opts;   /* progress callback */
  int run_index;            /* for progress reports */
  struct timespec started;  /* wall clock at start */
  double next_report;       /* elapsed seconds of the next progress report */
} Engine;

/* Grows a malloc'd array to hold at least least items (doubling); aborts when memory is out. */
void *sim_grow_array(void *items, int64_t *cap, size_t size, int64_t least);

/* ------------------------------------------------------------------ memory (sim_memory.c) */

/* Bytes of memory the machine has available now (MemAvailable), -1 when it cannot be told. */
double sim_memory_available(void);
/* Bytes of this process's resident memory, -1 when it cannot be told. */
double sim_memory_resident(void);

/* ------------------------------------------------------------------ events (sim_events.c) */

/* 1 when thread a comes before thread b in program order (both have an event or wait). */
int sim_program_order_before(const SimThread *a, const SimThread *b);
/* Gives t (which has none) its event at time. */
void sim_schedule(Engine *e, SimThread *t, SimTime time);
/* Removes and returns the first event (the heap is not empty). */
Event sim_pop_event(Engine *e);
/* 1 when event ev comes before thread t's activity ending at time (time, then program order). */
int sim_event_before_thread(const Event *ev, SimTime time, const SimThread *t);

/* ------------------------------------------------------------------ processor sharing (sim_ps.c) */

/* Request t of work seconds arrives at member m of ps resource res at e->now. */
void sim_ps_arrive(Engine *e, SimRes *res, SimMember *m, SimThread *t, double work);
/* The request that ends first over all ps members, and when (*when); NULL when none is present. */
SimThread *sim_ps_first(const Engine *e, SimTime *when);
/* Ends that request at e->now (set to its time by the caller): it leaves, the others' rates and
** ends are recomputed. Returns its thread. */
SimThread *sim_ps_complete(Engine *e);
/* Frees what member m's processor holds (end of the run). */
void sim_ps_free(SimMember *m);

#endif
