/*
** test_reduce_map.c — the reduction's member maps that are one-to-one or k-to-one within a step of a
** par (lang/reduce/order/reduce_order.c: powers read apart in the digits rule, a ring over the blocks of
** a dealt map), on small models whose schedule is worked out by hand in the comments and whose
** bounds are derived by hand from docs/reduction.md.
*/
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

#include "reduce_case.h"

/* A butterfly over P ranks: L = ceil(log2(P)) steps, in step k every rank works d = 2us, then
** sends t = 1us to its partner p xor 2^k, written as `send` (a statement on p and k). */
static void butterfly_text(char *text, size_t size, const char *send) {
  snprintf(text, size,
           "param P = 8 in 1 .. 1000; const d = 2us; const t = 1us;\n"
           "resource nic[P];\n"
           "process main { seq (k = 0, ceil(log2(P)) - 1) par (p = 0, P - 1) { delay(d); %s } }\n",
           send);
}

/* ceil(log2(P)) for P >= 1. */
static int levels(int P) {
  int l = 0;
  while ((1 << l) < P) l++;
  return l;
}

/* The partner p xor 2^k, as the sides of an `if` (the upper one guarded at the edge when P is no
** power of two), as the `?:` under a guard, the test written the other way round, or on the bit
** k of p (floor(p / 2^k) % 2, compared with 0 or 1). Schedule: in
** step k member q gets a request only from its partner (the lower half of a block of 2^(k + 1)
** sends up by 2^k, the upper half down: the two halves of each block swap), so no request waits
** and each step takes d + t = 3us; at least rank 0 sends (2^k < P). sim = lo = hi = 3 L us (the
** family as one resource gave hi = L (d + P t), the paired sites not read as one-to-one). */
static void test_butterfly_forms(void **state) {
  (void)state;
  static const char *const sends[] = {
    "if (p % 2 ^ (k + 1) < 2 ^ k) { if (p + 2 ^ k < P) use(nic[p + 2 ^ k], t) } else use(nic[p - 2 ^ k], t)",
    "if (p % 2 ^ (k + 1) >= 2 ^ k) use(nic[p - 2 ^ k], t) else { if (p + 2 ^ k <= P - 1) use(nic[p + 2 ^ k], t) }",
    "if ((p % 2 ^ (k + 1) < 2 ^ k ? p + 2 ^ k : p - 2 ^ k) < P) use(nic[p % 2 ^ (k + 1) < 2 ^ k ? p + 2 ^ k : p - 2 ^ k], t)",
    "if (floor(p / 2 ^ k) % 2 == 0) { if (p + 2 ^ k < P) use(nic[p + 2 ^ k], t) } else use(nic[p - 2 ^ k], t)",
    "if (floor(p / 2 ^ k) % 2 != 0) use(nic[p - 2 ^ k], t) else { if (p + 2 ^ k < P) use(nic[p + 2 ^ k], t) }",
    "if (1 > floor(p / 2 ^ k) % 2) { if (p + 2 ^ k < P) use(nic[p + 2 ^ k], t) } else use(nic[p - 2 ^ k], t)",
  };
  const char *names[] = {"P"};
  static const int ps[] = {1, 2, 3, 5, 8, 13, 64};
  char text[1024];
  for (size_t f = 0; f < sizeof sends / sizeof sends[0]; f++)
    for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++) {
      butterfly_text(text, sizeof text, sends[f]);
      double P = ps[k], T = 3e-6 * levels(ps[k]);
      redtest_expect(text, 1, names, &P, T, T, T);
    }
}

/* The same with P a power of two and no guard, the `?:` and the `if` (sides that differ only in
** the member, merged): 3 L us again. */
static void test_butterfly_unguarded(void **state) {
  (void)state;
  const char *text =
    "param L = 3 in 0 .. 12; const d = 2us; const t = 1us;\n"
    "resource nic[2 ^ L];\n"
    "process main { seq (k = 0, L - 1) par (p = 0, 2 ^ L - 1) {\n"
    "  delay(d); use(nic[p % 2 ^ (k + 1) < 2 ^ k ? p + 2 ^ k : p - 2 ^ k], t);\n"
    "  if (p % 2 ^ (k + 1) < 2 ^ k) use(nic[p + 2 ^ k], t) else use(nic[p - 2 ^ k], t) } }\n";
  const char *names[] = {"L"};
  for (int l = 0; l <= 6; l++) {
    double L = l, T = 4e-6 * l;
    redtest_expect(text, 1, names, &L, T, T, T);
  }
}

/* A map that looks alike but names a member twice: p % 2^(k + 1) < 2^k ? p + 2^k : p - 2^k + 1.
** At P = 4: step 0 sends p = 0, 1, 2, 3 to 1, 1, 3, 3 (two requests each: 2 + 2 = 4us), step 1 to
** 2, 3, 1, 2 (member 2 twice: 4us): sim = 8us, which the bounds must hold (one-to-one would
** claim hi = 6us). The windows of the two pieces, [2^k, 2^(k + 1) - 1] and [1, 2^k], meet. */
static void test_butterfly_not_one_to_one(void **state) {
  (void)state;
  char text[1024];
  butterfly_text(text, sizeof text,
                 "use(nic[p % 2 ^ (k + 1) < 2 ^ k ? p + 2 ^ k : p - 2 ^ k + 1], t)");
  const char *names[] = {"P"};
  double P = 4, lo, hi;
  redtest_eval(text, 1, names, &P, &lo, &hi);
  assert_true(lo <= 8e-6 * (1 + REDTEST_REL_TOL) && hi >= 8e-6 * (1 - REDTEST_REL_TOL));
}

/* P ranks 4 to a node of fcfs(4) cores: each computes c = 10us on its node, then sends m = 1us to
** the nic of a node given by `map` (of the node floor(p / 4) and M = ceil(P / 4) nodes). Schedule
** for a one-to-one map of the nodes: no rank waits for a core (a node hosts at most 4); the
** ranks of one node reach their nic together at c, one node's worth per nic, served one after
** another: sim = c + min(P, 4) m (the fullest node). lo: the stage's fullest member gets the
** first block's min(P, 4) requests, all after the least head c; hi: the tandem line with one
** stage of at most 4 requests per member. Both c + min(P, 4) m (before: lo = c + m, hi = c + P m,
** the nic family as one resource). */
static void test_ring_of_nodes(void **state) {
  (void)state;
  static const char *const maps[] = {
    "(floor(p / 4) + 1) % ceil(P / 4)", "(floor(p / 4) + ceil(P / 4) - 1) % ceil(P / 4)",
    "(ceil(P / 4) - 1 - floor(p / 4)) % ceil(P / 4)", "(floor(p / 4) + 2) % ceil(P / 4)",
    "ceil(P / 4) - 1 - floor(p / 4)", "floor(p / 4) > 0 ? floor(p / 4) - 1 : ceil(P / 4) - 1",
  };
  const char *names[] = {"P"};
  static const int ps[] = {1, 2, 3, 4, 5, 7, 8, 9, 64, 1000};
  char text[1024];
  for (size_t f = 0; f < sizeof maps / sizeof maps[0]; f++)
    for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++) {
      snprintf(text, sizeof text,
               "param P = 8 in 1 .. 10000; const c = 10us; const m = 1us;\n"
               "resource node[ceil(P / 4)] = fcfs(4); resource nic[ceil(P / 4)];\n"
               "process main { par (p = 0, P - 1) { use(node[floor(p / 4)], c); use(nic[%s], m) } }\n",
               maps[f]);
      double P = ps[k], T = 10e-6 + (ps[k] < 4 ? ps[k] : 4) * 1e-6;
      redtest_expect(text, 1, names, &P, T, T, T);
    }
}

/* A ring too short for the blocks: nic[(floor(p / 4) + 1) % 2] over P = 16 ranks (4 blocks) sends
** blocks 0 and 2 to nic[1], 1 and 3 to nic[0]: 8 requests each at c, sim = c + 8 m = 18us, which
** the bounds must hold (the ring over the blocks needs 2 >= 4: it does not hold; read as one it
** would claim hi = 14us). At P = 8 (2 blocks) it holds: 14us exactly. */
static void test_ring_of_nodes_too_short(void **state) {
  (void)state;
  const char *text =
    "param P = 8 in 1 .. 10000; const c = 10us; const m = 1us;\n"
    "resource node[ceil(P / 4)] = fcfs(4); resource nic[2];\n"
    "process main { par (p = 0, P - 1) { use(node[floor(p / 4)], c); use(nic[(floor(p / 4) + 1) % 2], m) } }\n";
  const char *names[] = {"P"};
  double P = 16, lo, hi;
  redtest_eval(text, 1, names, &P, &lo, &hi);
  assert_true(lo <= 18e-6 * (1 + REDTEST_REL_TOL) && hi >= 18e-6 * (1 - REDTEST_REL_TOL));
  P = 8;
  redtest_expect(text, 1, names, &P, 14e-6, 14e-6, 14e-6);
}

/* The ring of nodes written with a test at the last node, `if (floor(p / 4) == ceil(P / 4) - 1)
** use(nic[0], m) else use(nic[floor(p / 4) + 1], m)`: the sides differ only in the member, so the
** use is on `floor(p / 4) == ceil(P / 4) - 1 ? 0 : floor(p / 4) + 1`, one-to-one in the block
** (pieces {0}, [1, b] and [b + 2, ...] with b = ceil(P / 4) - 1): the same schedule as above, 3
** rounds of c + min(P, 4) m. A test that sends two blocks to one nic, `floor(p / 4) > 0 ?
** floor(p / 4) - 1 : 1` at P = 16 (blocks 0 and 2 both to nic[1]): 8 requests there, sim = c + 8m
** = 18us, inside the bounds. */
static void test_ring_of_nodes_if(void **state) {
  (void)state;
  const char *text =
    "param P = 8 in 1 .. 10000; const c = 10us; const m = 1us;\n"
    "resource node[ceil(P / 4)] = fcfs(4); resource nic[ceil(P / 4)];\n"
    "process main { repeat (3) par (p = 0, P - 1) { use(node[floor(p / 4)], c);\n"
    "  if (floor(p / 4) == ceil(P / 4) - 1) use(nic[0], m) else use(nic[floor(p / 4) + 1], m) } }\n";
  const char *names[] = {"P"};
  static const int ps[] = {1, 3, 4, 5, 9, 100};
  for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++) {
    double P = ps[k], T = 3 * (10e-6 + (ps[k] < 4 ? ps[k] : 4) * 1e-6);
    redtest_expect(text, 1, names, &P, T, T, T);
  }
  const char *two =
    "param P = 8 in 1 .. 10000; const c = 10us; const m = 1us;\n"
    "resource node[ceil(P / 4)] = fcfs(4); resource nic[ceil(P / 4)];\n"
    "process main { par (p = 0, P - 1) { use(node[floor(p / 4)], c);\n"
    "  use(nic[floor(p / 4) > 0 ? floor(p / 4) - 1 : 1], m) } }\n";
  double P = 16, lo, hi;
  redtest_eval(two, 1, names, &P, &lo, &hi);
  assert_true(lo <= 18e-6 * (1 + REDTEST_REL_TOL) && hi >= 18e-6 * (1 - REDTEST_REL_TOL));
}

/* Recursive halving on P = 2^L ranks, the partner computed inside a helper process from its
** arguments: in step k the distance is H = P / 2^(k + 1) (written as that quotient, as
** 2^(L - k - 1), or by a seq k = 1..L as 2^(L - k)), rank p works d = 2us and sends t = 1us to
** p + H when floor(p / H) % 2 == 0, else to p - H. Schedule: the lower half of each block of 2H
** sends up by H and the upper half down, so member q gets one request per step (from q xor H),
** at d: no request waits, each step takes d + t = 3us. sim = lo = hi = 3 L us (before: H read as
** no integer (a power with a negative exponent, 2^(-1) * 2^(L - k)), the family as one resource,
** hi = L (d + P t)). */
static void test_halving_helper(void **state) {
  (void)state;
  static const char *const dists[] = {"P / 2 ^ (k + 1)", "2 ^ (L - k - 1)", "2 ^ L / 2 ^ (k + 1)"};
  const char *names[] = {"L"};
  char text[1024];
  for (size_t f = 0; f < sizeof dists / sizeof dists[0]; f++)
    for (int l = 0; l <= 7; l++) {
      snprintf(text, sizeof text,
               "param L = 3 in 0 .. 12; const P = 2 ^ L; const d = 2us; const t = 1us;\n"
               "resource nic[P];\n"
               "process rnd(p, k) { delay(d);\n"
               "  if (floor(p / (%s)) %% 2 == 0) use(nic[p + %s], t) else use(nic[p - %s], t) }\n"
               "process main { seq (k = 0, L - 1) par (p = 0, P - 1) rnd(p, k) }\n",
               dists[f], dists[f], dists[f]);
      double L = l, T = 3e-6 * l;
      redtest_expect(text, 1, names, &L, T, T, T);
    }
  const char *from_one =
    "param L = 3 in 0 .. 12; const d = 2us; const t = 1us;\n"
    "resource nic[2 ^ L];\n"
    "process rnd(p, k) { delay(d);\n"
    "  if (floor(p / 2 ^ (L - k)) % 2 == 1) use(nic[p - 2 ^ (L - k)], t) else use(nic[p + 2 ^ (L - k)], t) }\n"
    "process main { seq (k = 1, L) par (p = 0, 2 ^ L - 1) rnd(p, k) }\n";
  for (int l = 0; l <= 7; l++) {
    double L = l, T = 3e-6 * l;
    redtest_expect(from_one, 1, names, &L, T, T, T);
  }
}

/* The same with a partner that names a member twice, p - H + 1 below: at L = 2 step 0 (H = 2)
** sends p = 0, 1, 2, 3 to 2, 3, 1, 2: two requests at member 2, 2 + 1 + 1 = 4us; step 1 (H = 1)
** sends to 1, 1, 3, 3: 4us again; sim = 8us, which the bounds must hold (read as one-to-one they
** would claim hi = 6us). */
static void test_halving_twice(void **state) {
  (void)state;
  const char *text =
    "param L = 2 in 0 .. 12; const P = 2 ^ L; const d = 2us; const t = 1us;\n"
    "resource nic[P];\n"
    "process rnd(p, k) { delay(d);\n"
    "  if (floor(p / (P / 2 ^ (k + 1))) % 2 == 0) use(nic[p + P / 2 ^ (k + 1)], t)\n"
    "  else use(nic[p - P / 2 ^ (k + 1) + 1], t) }\n"
    "process main { seq (k = 0, L - 1) par (p = 0, P - 1) rnd(p, k) }\n";
  const char *names[] = {"L"};
  double L = 2, lo, hi;
  redtest_eval(text, 1, names, &L, &lo, &hi);
  assert_true(lo <= 8e-6 * (1 + REDTEST_REL_TOL) && hi >= 8e-6 * (1 - REDTEST_REL_TOL));
}

/* gcd of two positive integers (the tests' own count, independent of the reduction's). */
static int gcd(int a, int b) { return b ? gcd(b, a % b) : a; }

/* P ranks each work d = 2us, then send t = 5us to nic[(a p + 1) % P]: p and p' share a member
** exactly when P divides a (p - p'), so each member of the image gets g = gcd(a, P) requests at
** d, served one after another: sim = d + g t. lo (the fullest member's g requests after the least
** head) and hi (the tandem line with one stage of g requests per member) are both d + g t (before:
** hi = d + P t, the family as one resource, and lo = d + t). */
static void test_affine_map(void **state) {
  (void)state;
  static const int slopes[] = {2, 3, -2, 6};
  static const int ps[] = {1, 2, 3, 4, 5, 6, 7, 9, 12, 100};
  const char *names[] = {"P"};
  char text[1024];
  for (size_t a = 0; a < sizeof slopes / sizeof slopes[0]; a++)
    for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++) {
      snprintf(text, sizeof text,
               "param P = 8 in 1 .. 10000; const d = 2us; const t = 5us;\n"
               "resource nic[P];\n"
               "process main { par (p = 0, P - 1) { delay(d); use(nic[(%d * p + 1) %% P], t) } }\n",
               slopes[a]);
      int g = gcd(slopes[a] < 0 ? -slopes[a] : slopes[a], ps[k]);
      double P = ps[k], T = 2e-6 + g * 5e-6;
      redtest_expect(text, 1, names, &P, T, T, T);
    }
}

/* Round k = 1..P-1 of a multiplicative exchange, port[(p * k) % P], t = 2us: gcd(k, P) requests
** per member of the image at the start of the round, so round k takes gcd(k, P) t and sim = t
** * sum_k gcd(k, P): 24us at P = 8 (gcds 1, 2, 1, 4, 1, 2, 1), 18us at P = 6, 12us at P = 7. hi
** is that sum (before: P t per round); lo holds below it. */
static void test_affine_rounds(void **state) {
  (void)state;
  const char *text =
    "param P = 8 in 1 .. 10000; const t = 2us;\n"
    "resource port[P];\n"
    "process main { seq (k = 1, P - 1) par (p = 0, P - 1) use(port[(p * k) % P], t) }\n";
  const char *names[] = {"P"};
  static const int ps[] = {1, 2, 6, 7, 8, 12};
  for (size_t j = 0; j < sizeof ps / sizeof ps[0]; j++) {
    int sum = 0;
    for (int k = 1; k < ps[j]; k++) sum += gcd(k, ps[j]);
    double P = ps[j], sim = 2e-6 * sum, lo, hi;
    redtest_eval(text, 1, names, &P, &lo, &hi);
    redtest_near(hi, sim);
    assert_true(lo <= sim * (1 + REDTEST_REL_TOL));
  }
}

/* All-to-all in the pairwise order on 8 ranks, written with numbers (as `pamc predict -D L=3`
** sees it): round k = 1..7, rank p works d = 2us, then sends t = 1us to nic[xr(p, k)], xr a fn
** that sums the bits of p xor k. For each k, p -> p xor k is a bijection of 0..7: one request per
** member per round, none waits, 7 (d + t) = 21us (before: hi = 7 (d + 8 t) = 70us, the family as
** one resource). The same with bor, the bitwise or, is not one-to-one: round k sends
** 2^popcount(k) ranks to each member of the image, all at d, so sim = 7 d + t (2 + 2 + 4 + 2 + 4
** + 4 + 8) = 40us, which the bounds must hold. */
static void test_xor_by_points(void **state) {
  (void)state;
  const char *xor_text =
    "const d = 2us; const t = 1us;\n"
    "fn xr(a, b) = sum(i = 0, 2, 2 ^ i * ((floor(a / 2 ^ i) + floor(b / 2 ^ i)) % 2));\n"
    "resource nic[8];\n"
    "process main { seq (k = 1, 7) par (p = 0, 7) { delay(d); use(nic[xr(p, k)], t) } }\n";
  redtest_expect(xor_text, 0, NULL, NULL, 21e-6, 21e-6, 21e-6);
  const char *or_text =
    "const d = 2us; const t = 1us;\n"
    "fn bor(a, b) = sum(i = 0, 2, 2 ^ i * min(1, floor(a / 2 ^ i) % 2 + floor(b / 2 ^ i) % 2));\n"
    "resource nic[8];\n"
    "process main { seq (k = 1, 7) par (p = 0, 7) { delay(d); use(nic[bor(p, k)], t) } }\n";
  double lo, hi;
  redtest_eval(or_text, 0, NULL, NULL, &lo, &hi);
  assert_true(lo <= 40e-6 * (1 + REDTEST_REL_TOL) && hi >= 40e-6 * (1 - REDTEST_REL_TOL));
}

/* Rank p sends t = 3us to (p + k) % P for k = 1 .. 1 + p % 3 (a loop whose range follows the
** rank, the member following both). For each k the map is one-to-one in p, and k takes 3 values
** over all ranks, so a member has at most 3 clients over the whole run: a request finds at most
** 2 others ahead, waits at most 2t, and the longest rank (3 sends) ends by 3 (t + 2t) = 27us: hi
** for P >= 5, where the family as one resource gives the demand 3us * sum_p (1 + p % 3) >= 27us
** (5997us at P = 1000). Schedule: member q's requests come from q - 1 at 0, q - 2 at t, q - 3 at
** 2t (its k-th request at (k - 1) t), all apart: sim = lo = the longest rank, 3t = 9us. */
static void test_looped_member(void **state) {
  (void)state;
  const char *text =
    "param P = 8 in 1 .. 10000; const t = 3us;\n"
    "resource nic[P];\n"
    "process main { par (p = 0, P - 1) seq (k = 1, 1 + p % 3) use(nic[(p + k) % P], t) }\n";
  const char *names[] = {"P"};
  static const int ps[] = {5, 8, 100, 1000};
  for (size_t j = 0; j < sizeof ps / sizeof ps[0]; j++) {
    double P = ps[j];
    redtest_expect(text, 1, names, &P, 9e-6, 9e-6, 27e-6);
  }
}

/* Every branch uses one member, core[0], three times: the member's demand 3 N t is the par's time
** (one server, never idle while a request waits, nothing else in the branches). The bounded
** clients' bound (each use waits for every other branch's three, 9 N t - 6 t) used to replace the
** family's bound instead of taking the smaller: hi was 9 N t (audit 6's m01 at P = 1, where
** core[k % P] is core[0]: hi/sim 3). */
static void test_one_member_for_all(void **state) {
  (void)state;
  const char *text =
    "param N = 10 in 1 .. 100000; const t = 1us;\n"
    "resource core[4];\n"
    "process main { par (k = 0, N - 1) { use(core[0], t); use(core[0], t); use(core[0], t) } }\n";
  const char *names[] = {"N"};
  static const int ns[] = {1, 2, 10, 100};
  for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++) {
    double N = ns[j];
    redtest_expect(text, 1, names, &N, 3 * N * 1e-6, 3 * N * 1e-6, 3 * N * 1e-6);
  }
}

/* Work dealt round robin on a family whose size is a param, `cpu[i % P]`, two uses each: the
** pigeonhole puts ceil(n / P) branches on one member, 2 t ceil(n / P) of work (n = 5, 6, P = 4:
** 4 us, the simulated time). The fullest member's count needed the family's size to be a number,
** so lo was the family's load, 2 t n / P (3 us at n = 6; audit 6 dist's v09a, est -25%). */
static void test_dealt_on_param_family(void **state) {
  (void)state;
  const char *text =
    "param n = 6; param P = 4; const t = 1us;\n"
    "resource cpu[P];\n"
    "process main { par (i = 0, n - 1) seq (c = 1, 2) use(cpu[i % P], t) }\n";
  const char *names[] = {"n", "P"};
  static const double cases[][2] = {{5, 4}, {6, 4}, {9, 4}, {7, 3}};
  for (size_t j = 0; j < sizeof cases / sizeof cases[0]; j++) {
    double want = 2e-6 * ceil(cases[j][0] / cases[j][1]);
    redtest_expect_lo(text, 2, names, cases[j], want, want);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_looped_member),
    cmocka_unit_test(test_xor_by_points),
    cmocka_unit_test(test_affine_map),
    cmocka_unit_test(test_affine_rounds),
    cmocka_unit_test(test_halving_helper),
    cmocka_unit_test(test_halving_twice),
    cmocka_unit_test(test_butterfly_forms),
    cmocka_unit_test(test_butterfly_unguarded),
    cmocka_unit_test(test_butterfly_not_one_to_one),
    cmocka_unit_test(test_ring_of_nodes),
    cmocka_unit_test(test_ring_of_nodes_too_short),
    cmocka_unit_test(test_ring_of_nodes_if),
    cmocka_unit_test(test_one_member_for_all),
    cmocka_unit_test(test_dealt_on_param_family),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
