/*
** check_holds.c — the order in which nested holds take resources (LANGUAGE.md §8). Where one
** place holds `a` while it takes `b` and another holds `b` while it takes `a`, the two can wait
** for each other for ever: a cycle in the hold order is reported as an error, each of its edges
** at the hold (or the process call) that takes the next resource.
**
** What "can see" means here: the nodes of the order are single resources (a family member's place
** in the order depends on its index, which is left to the simulator's deadlock report); an edge
** a -> b is a `hold (b)`, or a call of a process that holds b, written inside the body of a
** `hold (a)`, through any number of process calls. A resource held again inside its own hold is a
** cycle of one when it has a single server (the inner hold waits for the outer one's release).
**
** Process calls are followed in post-order with an explicit stack (a chain of 10^5 calls is
** fine); statement nesting is bounded by the parser's nesting limit.
*/
#include "check_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* More single resources than this and the order is not checked (the edge matrix would be large);
** no model we know of comes near. */
#define HOLDS_MAX_NODES 4096

typedef struct HoldEdge {
  int from, to;               /* node indices: `to` is taken while `from` is held */
  SrcLoc where;               /* the hold or call that takes `to` */
} HoldEdge;

/* Where a declaration stands among the nodes or the processes (open addressing on the pointer). */
typedef struct DeclSlot {
  const Decl *decl;           /* NULL: empty slot */
  int index;                  /* node index of a resource, process index of a process */
} DeclSlot;

typedef struct HoldOrder {
  Checker *ck;                /* the checker */
  const Decl **nodes;         /* single resources in force, by node index */
  int node_count;             /* length of nodes */
  int words;                  /* 64-bit words of one node set */
  const Decl **procs;         /* processes in force, by process index */
  int proc_count;             /* length of procs */
  DeclSlot *slots;            /* nodes and processes by declaration */
  size_t slot_mask;           /* slot count - 1 (a power of two) */
  uint64_t *takes;            /* per process: the node set its body takes, callees included */
  int *callees, callee_count, callee_cap; /* process indices called, all processes' lists in a row */
  int *first_callee;          /* per process + 1: where its list starts in callees */
  uint64_t *seen;             /* node_count x node_count bits: edge already recorded */
  HoldEdge *edges;            /* the edges recorded, first place of each */
  int edge_count, edge_cap;   /* length and capacity of edges */
} HoldOrder;

/* ------------------------------------------------------------------ lookups */

static size_t slot_hash(const HoldOrder *ho, const Decl *decl) {
  uintptr_t key = (uintptr_t)decl;
  key ^= key >> 17;
  key *= (uintptr_t)0x9E3779B97F4A7C15u;
  return (size_t)(key ^ (key >> 29)) & ho->slot_mask;
}

static void slot_put(HoldOrder *ho, const Decl *decl, int index) {
  size_t at = slot_hash(ho, decl);
  while (ho->slots[at].decl) at = (at + 1) & ho->slot_mask;
  ho->slots[at] = (DeclSlot){decl, index};
}

/* The node or process index of decl, -1 when it is neither. */
static int slot_get(const HoldOrder *ho, const Decl *decl) {
  if (!decl) return -1;
  for (size_t at = slot_hash(ho, decl); ho->slots[at].decl; at = (at + 1) & ho->slot_mask)
    if (ho->slots[at].decl == decl) return ho->slots[at].index;
  return -1;
}

/* The node of a hold's resource; -1 for a family member (or an unresolved name). */
static int node_of(const HoldOrder *ho, const Stmt *hold) {
  const Decl *res = hold->u.use.decl;
  if (!res || res->kind != DECL_RESOURCE || res->u.resource.count) return -1;
  return slot_get(ho, res);
}

static int proc_of(const HoldOrder *ho, const Stmt *call) {
  const Decl *proc = call->u.call.decl;
  return proc && proc->kind == DECL_PROCESS ? slot_get(ho, proc) : -1;
}

static uint64_t *takes_of(HoldOrder *ho, int proc) {
  return ho->takes + (size_t)proc * (size_t)ho->words;
}

static void set_add(uint64_t *set, int node) { set[node / 64] |= UINT64_C(1) << (node % 64); }
static int set_has(const uint64_t *set, int node) { return (set[node / 64] >> (node % 64)) & 1; }

/* ------------------------------------------------------------------ what a process takes */

static void add_callee(HoldOrder *ho, int proc) {
  if (ho->callee_count == ho->callee_cap) {
    ho->callee_cap = ho->callee_cap ? 2 * ho->callee_cap : 64;
    ho->callees = realloc(ho->callees, (size_t)ho->callee_cap * sizeof *ho->callees);
    if (!ho->callees) abort();
  }
  ho->callees[ho->callee_count++] = proc;
}

/* Adds to set the single resources s holds itself, and lists the processes it calls. */
static void direct_takes(HoldOrder *ho, const Stmt *s, uint64_t *set) {
  if (!s) return;
  switch (s->kind) {
    case ST_HOLD: {
      int node = node_of(ho, s);
      if (node >= 0) set_add(set, node);
      direct_takes(ho, s->u.use.body, set);
      return;
    }
    case ST_CALL: {
      int callee = proc_of(ho, s);
      if (callee >= 0) add_callee(ho, callee);
      return;
    }
    case ST_BLOCK:
    case ST_PARALLEL:
      for (int i = 0; i < s->u.block.count; i++) direct_takes(ho, s->u.block.items[i], set);
      return;
    case ST_SEQ:
    case ST_PAR:
      direct_takes(ho, s->u.loop.body, set);
      return;
    case ST_REPEAT:
      direct_takes(ho, s->u.repeat.body, set);
      return;
    case ST_IF:
    case ST_CHOOSE:
      direct_takes(ho, s->u.branch.then, set);
      direct_takes(ho, s->u.branch.otherwise, set);
      return;
    case ST_SKIP:
    case ST_DELAY:
    case ST_USE:
      return;
  }
}

/* Each process's set, callees' sets included. The call graph has no cycle (check_cycles ran
** first): a depth-first post-order with an explicit stack (a chain of 10^5 calls is fine) adds
** every callee's finished set into its caller's. */
static void compute_takes(HoldOrder *ho) {
  int n = ho->proc_count;
  ho->first_callee = malloc((size_t)(n + 1) * sizeof *ho->first_callee);
  if (!ho->first_callee) abort();
  for (int p = 0; p < n; p++) {
    ho->first_callee[p] = ho->callee_count;
    direct_takes(ho, ho->procs[p]->u.process.body, takes_of(ho, p));
  }
  ho->first_callee[n] = ho->callee_count;
  unsigned char *state = calloc((size_t)n, 1);   /* 0 unseen, 1 on the path, 2 done */
  int *path = malloc((size_t)n * sizeof *path);
  int *next = malloc((size_t)n * sizeof *next);  /* per path entry: next callee to visit */
  if (!state || !path || !next) abort();
  for (int root = 0; root < n; root++) {
    if (state[root]) continue;
    int depth = 0;
    path[depth] = root; next[depth] = ho->first_callee[root]; state[root] = 1; depth++;
    while (depth > 0) {
      int proc = path[depth - 1];
      if (next[depth - 1] < ho->first_callee[proc + 1]) {
        int callee = ho->callees[next[depth - 1]++];
        if (state[callee] == 0 && depth < n) {
          state[callee] = 1;
          path[depth] = callee; next[depth] = ho->first_callee[callee]; depth++;
        }
        continue;
      }
      uint64_t *set = takes_of(ho, proc);   /* every callee is done: add theirs */
      for (int i = ho->first_callee[proc]; i < ho->first_callee[proc + 1]; i++) {
        const uint64_t *theirs = takes_of(ho, ho->callees[i]);
        for (int w = 0; w < ho->words; w++) set[w] |= theirs[w];
      }
      state[proc] = 2;
      depth--;
    }
  }
  free(state); free(path); free(next);
}

/* ------------------------------------------------------------------ edges */

static void add_edge(HoldOrder *ho, int from, int to, SrcLoc where) {
  size_t bit = (size_t)from * (size_t)ho->node_count + (size_t)to;
  if ((ho->seen[bit / 64] >> (bit % 64)) & 1) return;
  ho->seen[bit / 64] |= UINT64_C(1) << (bit % 64);
  if (ho->edge_count == ho->edge_cap) {
    ho->edge_cap = ho->edge_cap ? 2 * ho->edge_cap : 16;
    ho->edges = realloc(ho->edges, (size_t)ho->edge_cap * sizeof *ho->edges);
    if (!ho->edges) abort();
  }
  ho->edges[ho->edge_count++] = (HoldEdge){from, to, where};
}

/* Edges of the holds written in s, with held[0 .. held_count) held around it. */
static void collect_edges(HoldOrder *ho, const Stmt *s, int *held, int held_count) {
  if (!s) return;
  switch (s->kind) {
    case ST_HOLD: {
      int node = node_of(ho, s);
      if (node >= 0)
        for (int i = 0; i < held_count; i++) add_edge(ho, held[i], node, s->loc);
      if (node >= 0 && held_count < ho->node_count) held[held_count++] = node;
      collect_edges(ho, s->u.use.body, held, held_count);
      return;
    }
    case ST_CALL: {
      int callee = held_count ? proc_of(ho, s) : -1;
      if (callee < 0) return;
      const uint64_t *theirs = takes_of(ho, callee);
      for (int node = 0; node < ho->node_count; node++)
        if (set_has(theirs, node))
          for (int i = 0; i < held_count; i++) add_edge(ho, held[i], node, s->loc);
      return;
    }
    case ST_BLOCK:
    case ST_PARALLEL:
      for (int i = 0; i < s->u.block.count; i++) collect_edges(ho, s->u.block.items[i], held, held_count);
      return;
    case ST_SEQ:
    case ST_PAR:
      collect_edges(ho, s->u.loop.body, held, held_count);
      return;
    case ST_REPEAT:
      collect_edges(ho, s->u.repeat.body, held, held_count);
      return;
    case ST_IF:
    case ST_CHOOSE:
      collect_edges(ho, s->u.branch.then, held, held_count);
      collect_edges(ho, s->u.branch.otherwise, held, held_count);
      return;
    case ST_SKIP:
    case ST_DELAY:
    case ST_USE:
      return;
  }
}

/* ------------------------------------------------------------------ cycles */

/* A resource held inside its own hold is a cycle only when one server cannot serve both. */
static int single_server(const Decl *res) {
  const Expr *m = res->u.resource.servers;
  return !m || (m->kind == EX_NUM && m->u.num.value == 1);
}

static void report(HoldOrder *ho, const int *cycle, int length) {
  const HoldEdge *first = &ho->edges[cycle[0]];
  const char *a = ho->nodes[first->from]->name.name, *b = ho->nodes[first->to]->name.name;
  if (length == 1) {
    check_error_once(ho->ck, first->where,
                     "hold of '%s' inside a hold of '%s': its one server is held, so this waits for ever", b, a);
    return;
  }
  if (length == 2)
    check_error_once(ho->ck, first->where,
                     "hold order cycle: '%s' is taken here while '%s' is held, and elsewhere the other way "
                     "round: holders of both can wait for each other for ever (deadlock)", b, a);
  else
    check_error_once(ho->ck, first->where,
                     "hold order cycle: '%s' is taken here while '%s' is held, closing a cycle of %d "
                     "resources (notes below): their holders can wait for each other for ever (deadlock)",
                     b, a, length);
  for (int i = 1; i < length; i++) {
    const HoldEdge *e = &ho->edges[cycle[i]];
    diag_report(ho->ck->diags, DIAG_NOTE, e->where, "'%s' is taken here while '%s' is held",
                ho->nodes[e->to]->name.name, ho->nodes[e->from]->name.name);
  }
}

/* Depth-first search over the edges with an explicit stack; reports the first cycle found. */
static void find_cycle(HoldOrder *ho) {
  int n = ho->node_count;
  for (int i = 0; i < ho->edge_count; i++) {
    const HoldEdge *e = &ho->edges[i];
    if (e->from == e->to && single_server(ho->nodes[e->from])) {
      int one[1] = {i};
      report(ho, one, 1);
      return;
    }
  }
  unsigned char *state = calloc((size_t)n, 1);   /* 0 unseen, 1 on the path, 2 done */
  int *path_edge = malloc((size_t)(n + 1) * sizeof *path_edge);   /* edge taken into path[k] */
  int *path = malloc((size_t)(n + 1) * sizeof *path);
  int *next = calloc((size_t)(n + 1), sizeof *next);              /* next edge to try at path[k] */
  if (!state || !path_edge || !path || !next) abort();
  for (int root = 0; root < n; root++) {
    if (state[root]) continue;
    int depth = 0;
    path[0] = root; next[0] = 0; state[root] = 1;
    depth = 1;
    while (depth > 0) {
      int at = path[depth - 1], moved = 0;
      while (next[depth - 1] < ho->edge_count) {
        int i = next[depth - 1]++;
        const HoldEdge *e = &ho->edges[i];
        if (e->from != at || e->from == e->to) continue;
        if (state[e->to] == 1) {   /* back edge: the cycle is the path from e->to, then e */
          int start = depth - 1;
          while (path[start] != e->to) start--;
          int cycle[HOLDS_MAX_NODES], length = 0;
          cycle[length++] = i;
          for (int k = start + 1; k < depth; k++) cycle[length++] = path_edge[k];
          report(ho, cycle, length);
          goto out;
        }
        if (state[e->to] == 0) {
          state[e->to] = 1;
          path[depth] = e->to; path_edge[depth] = i; next[depth] = 0;
          depth++;
          moved = 1;
          break;
        }
      }
      if (!moved) {
        state[at] = 2;
        depth--;
      }
    }
  }
out:
  free(state); free(path_edge); free(path); free(next);
}

void check_holds(Checker *ck) {
  Program *prog = ck->prog;
  HoldOrder ho;
  memset(&ho, 0, sizeof ho);
  ho.ck = ck;
  for (int i = 0; i < prog->decl_count; i++) {
    const Decl *d = prog->decls[i];
    if (!check_in_force(ck, d)) continue;
    if (d->kind == DECL_RESOURCE && !d->u.resource.count) ho.node_count++;
    if (d->kind == DECL_PROCESS) ho.proc_count++;
  }
  if (ho.node_count == 0 || ho.proc_count == 0 || ho.node_count > HOLDS_MAX_NODES) return;
  size_t slots = 16;
  while (slots < 2 * (size_t)(ho.node_count + ho.proc_count)) slots *= 2;
  ho.slot_mask = slots - 1;
  ho.slots = calloc(slots, sizeof *ho.slots);
  ho.nodes = malloc((size_t)ho.node_count * sizeof *ho.nodes);
  ho.procs = malloc((size_t)ho.proc_count * sizeof *ho.procs);
  if (!ho.slots || !ho.nodes || !ho.procs) abort();
  int nodes = 0, procs = 0;
  for (int i = 0; i < prog->decl_count; i++) {
    const Decl *d = prog->decls[i];
    if (!check_in_force(ck, d)) continue;
    if (d->kind == DECL_RESOURCE && !d->u.resource.count) {
      slot_put(&ho, d, nodes);
      ho.nodes[nodes++] = d;
    }
    if (d->kind == DECL_PROCESS) {
      slot_put(&ho, d, procs);
      ho.procs[procs++] = d;
    }
  }
  ho.words = (ho.node_count + 63) / 64;
  ho.takes = calloc((size_t)ho.proc_count * (size_t)ho.words, sizeof *ho.takes);
  size_t bits = (size_t)ho.node_count * (size_t)ho.node_count;
  ho.seen = calloc((bits + 63) / 64, sizeof *ho.seen);
  int *held = malloc((size_t)ho.node_count * sizeof *held);
  if (!ho.takes || !ho.seen || !held) abort();
  compute_takes(&ho);
  for (int p = 0; p < ho.proc_count; p++) collect_edges(&ho, ho.procs[p]->u.process.body, held, 0);
  if (ho.edge_count) find_cycle(&ho);
  free(held); free(ho.seen); free(ho.takes); free(ho.edges); free(ho.callees);
  free(ho.first_callee); free(ho.slots); free(ho.nodes); free(ho.procs);
}
