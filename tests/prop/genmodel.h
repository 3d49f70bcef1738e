/*
** genmodel.h — seeded random models for the property tests (REDUCTION.md: the reduced bounds
** against the simulator). A model is a small tree in a fixed pool of nodes (so a shrinker can copy
** it and edit it) and is written out as model text (so every case can be saved as a .pam file).
*/
#ifndef PAMC_GENMODEL_H
#define PAMC_GENMODEL_H

#include <stdint.h>

/* Nodes of one model: enough for nesting depth GEN_MAX_DEPTH with small fan-out. */
#define GEN_MAX_NODES 96
/* Nesting depth of statements (loops, blocks): keeps simulation and reduction fast. */
#define GEN_MAX_DEPTH 4
/* Children of a block or `||` chain. */
#define GEN_MAX_KIDS 3
/* Resources, consts of a model (the brief: up to 5 resources). */
#define GEN_MAX_RES 5
#define GEN_MAX_CONSTS 3
/* Members of every family: every index expression the generator writes is in 0 .. size-1
   (loop indices run in 0 .. GEN_MAX_BOUND, moduli and constants stay below the size). */
#define GEN_FAMILY_SIZE 6
/* Largest loop bound (index values 0 .. GEN_MAX_BOUND): simulation stays small. */
#define GEN_MAX_BOUND 3

typedef enum GenKind {
  GEN_SKIP, GEN_DELAY, GEN_USE, GEN_BLOCK, GEN_PARALLEL, GEN_SEQ, GEN_PAR, GEN_REPEAT, GEN_IF,
  GEN_HOLD,     /* hold (r) kids[0] (LANGUAGE.md §8): r, member as for GEN_USE */
  GEN_CALL      /* p<id>(): a process of its own whose body is kids[0] (callee -1), or a call of
                   the process another GEN_CALL node defines (callee: that node) */
} GenKind;

/* A duration: coef_c * consts[c] + coef_i * index * consts[ci] + lit_us microseconds; every part
   optional, every coefficient nonnegative, so the duration is nonnegative. */
typedef struct GenDur {
  int c;        /* const id or -1 */
  int coef_c;   /* its integer coefficient (>= 1) */
  int var;      /* depth of an enclosing loop index, or -1 */
  int ci;       /* const id multiplying the index (or -1: the index times 1us) */
  int lit_us;   /* literal microseconds (>= 0) */
  int mod;      /* > 0: the index part is (index % mod) instead of the index */
  int var2;     /* > 0 with mod: ((index + i<var2 - 1>) % mod), the colour of a checkerboard;
                   < 0: ((floor(index / 2) + index % 2) % mod), the same on a 2 x 2 grid numbered
                   row by row */
  int share;    /* > 0: the whole duration times a share of S tasks dealt by the index at depth
                   share_var (gen_put_dur): 1 floor(S / P) + (i < S % P ? 1 : 0), the first
                   S % P one more; 2 floor(S / P) + (i >= P - S % P ? 1 : 0), the last ones;
                   3 max(0, min(2, S - 2 i)), blocks of 2 with a short or empty last one;
                   4 max(0, min(ceil(S / P), S - i ceil(S / P))), blocks of ceil(S / P);
                   5 floor(S / P) + ((i + P - j) % P < S % P ? 1 : 0), j the index at depth
                   share_step: the block of rank (i - j) % P passed on in step j of a ring */
  int share_var;  /* the index depth of the share */
  int share_n;    /* S */
  int share_step; /* share 5: the index depth of the ring's step */
  int pick;     /* > 0 (with mod): the index part is (index % mod == pick - 1 ? 2 : 1) */
} GenDur;

/* How a family member is chosen. */
typedef enum GenMember {
  GEN_MEMBER_VAR, GEN_MEMBER_CONST, GEN_MEMBER_MOD, GEN_MEMBER_BLOCK,
  GEN_MEMBER_RING,      /* (i + c) % P: a neighbour on a ring of P (c = member_off) */
  GEN_MEMBER_RING_BACK, /* (i + P - 1) % P: the other neighbour */
  GEN_MEMBER_SHIFT,     /* (i + j) % P: round j of an all-to-all (j: index depth member_off) */
  GEN_MEMBER_SHIFT_BACK, /* (i + 2 * P - j) % P: the rounds the other way round (j < 2 P) */
  GEN_MEMBER_PIECES,    /* the ring written piecewise or read as digits, members dealt round
                           robin, a ring shift with one exception (member_val: the form,
                           gen_put_member; some one-to-one, some not) */
  GEN_MEMBER_RING_FULL, /* (i + c) % GEN_FAMILY_SIZE: a neighbour on a ring of all the members */
  GEN_MEMBER_GRID,      /* i * 2 + j on a 3 x 2 grid (i: member_var, j: member_off; member_val:
                           0 itself, 1 ((i + 1) % 3) * 2 + j, 2 i * 2 + (j + 1) % 2, 3 i + j) */
  GEN_MEMBER_RECT,      /* on the W x H grid of rect_h, par (i = 0, W - 1) par (j = 0, H - 1)
                           (i: member_var, j: member_off; member_val: 0 ((i + 1) % W) * H + j, 1
                           i * H + (j + 1) % H, 2 ((i + W - 1) % W) * H + j, 3 i + j); with
                           member_off < 0, over a par (i = 0, 3): 4 floor(i / H) * H + (i % H + 1) %
                           H, the row shift read as digits of the const H */
  GEN_MEMBER_FLAT,      /* a 2 x 2 grid numbered row by row, i in 0 .. 3 (member_val: 0 itself,
                           1 (i + 2) % 4, the cell below, 2 floor(i / 2) * 2 + (i % 2 + 1) % 2,
                           the cell to the right) */
  GEN_MEMBER_LINE,      /* i + c (c = member_off, -2 .. 2): a neighbour on a line without wrap,
                           under an `if` that keeps it in the family (GEN_COND_FROM, _BELOW); with
                           member_val 2, 2 * i + c (c 0 .. 2) under `if (i < k)`: a column */
  GEN_MEMBER_NEST,      /* in nested pars (gen_idiom_nested; a: index depth member_var, over
                           0 .. P - 1, b: depth member_off; member_val: 0 (a + 1) % P, 1
                           (a + b) % P, 2 (a + b + 1) % P, 3 (a + P - 1) % P, one-to-one in a
                           onto all P members; 4 (a + 1) % 2 (not when P > 2), 5 b % P (not
                           one-to-one in a), 6 (a == 0 ? 1 % P : (a + 1) % P) (a member named
                           twice in a)) */
  GEN_MEMBER_XOR,       /* the partner i xor 2^j of a butterfly (i: member_var, j: index depth
                           member_off; member_val: 0 i + 2^j, 1 i - 2^j, 2 the `?:` on
                           i % 2^(j + 1) < 2^j, 3 the same on <= (the lower half one wider:
                           still one-to-one), 4 the `?:` with i - 2^j + 1 below (names a member
                           twice), 5 i - 2^j + 1, 6 the `?:` on floor(i / 2^j) % 2 == 0) */
  GEN_MEMBER_AFFINE,    /* (a * i + c) % P (i: member_var; a = member_val 2 or 3, c =
                           member_off: one-to-one only when gcd(a, P) = 1), or with member_val 0
                           (i * j) % P, j the index at depth member_off (round j of a
                           multiplicative all-to-all: gcd(j, P) branches per member) */
  GEN_MEMBER_XORFN,     /* xr(i, j) % P, xr a `fn` summing the bits of i xor j (one-to-one in
                           i when P is a power of two), or with member_val 1 bor(i, j) % P, the
                           bitwise or (not one-to-one); j the index at depth member_off */
  GEN_MEMBER_PIPE,      /* rank i's stage j of a flat family (gen_idiom_pipe; i: member_var, j:
                           depth member_off, R ranks and K stages: pipe_r, pipe_k; member_val:
                           0 i * K + j, 1 j * R + i, 2 (i * K + j + 1) % 6 (one-to-one in (i, j));
                           3 i + j, 4 i * (K - 1) + j (stages shared); 5 ((i + 1) % R) * K, the
                           next rank's first stage; 6 (i + 1) % R; 7 i) */
  GEN_MEMBER_BUCKET,    /* (i + j) % K (gen_idiom_buckets; i: member_var, j: depth member_off,
                           K = member_val): one-to-one at each round while the branches are <= K */
  GEN_MEMBER_CUBE       /* in three nested pars over an A x B x C box of the six members (gen_idiom_
                           cube; i: depth member_var, j and k the next two; B, C: pipe_r, pipe_k,
                           A = 6 / (B C)); x = (i * B + j) * C + k; member_val: 0 x, 1 .. 3 the
                           neighbour + 1 in i, j, k with wrap, 4 .. 5 the neighbour - 1 in i, j,
                           all one-to-one; 6 i + j + k, 7 (x + 1) % 6 (one-to-one), 8 (i * B + j)
                           * C (not when C > 1), 9 (x + 1) % 5 (not) */
} GenMember;

/* Condition of an `if` on an enclosing index: var == v, var < v, var % k == v. */
/* Conditions of `if` on an index: i == c, i < c, i % K == c, c <= i <= c2 (and), i == P - 1,
   not (i < c) or i % K == c2. */
typedef enum GenCond {
  GEN_COND_EQ, GEN_COND_LT, GEN_COND_MOD, GEN_COND_RANGE, GEN_COND_LAST, GEN_COND_OR, GEN_COND_COUNT,
  /* the guards of a line's sends (gen_idiom_line only): i >= c, i < P - c */
  GEN_COND_FROM, GEN_COND_BELOW,
  /* a send after a block of work (gen_par_repeat only): i > c and i * ceil(N / P) < N */
  GEN_COND_BLOCK,
  /* a butterfly's (gen_idiom_butterfly only; j the index at depth cond_mod): the lower half of
     the block, i % 2^(j + 1) < 2^j (cond_val 1: <=; 2: floor(i / 2^j) % 2 == 0); the partner
     above in range, i + 2^j < P;
     the partner of form cond_val (GEN_MEMBER_XOR) < P */
  GEN_COND_HALF, GEN_COND_UP, GEN_COND_PARTNER,
  /* a stage some items skip (gen_idiom_skip only): not (j == c and i % K == c2), j the index at
     depth cond_var2 (a pipeline's stage), i at cond_var */
  GEN_COND_SKIP
} GenCond;

typedef struct GenNode {
  GenKind kind;             /* what statement */
  int kids[GEN_MAX_KIDS];   /* child node ids (-1 unused): block/||: all; loops: [0]; if: [0],[1] */
  int nkids;                /* children of a block or || chain */
  int var;                  /* loops: depth of the index they bind (name i<depth>) */
  int lo, hi;               /* loop bounds (repeat: count in hi) */
  int hi_param;             /* 1: upper bound written `P - 1` (P's default is hi + 1); 2 (seq):
                               `1 + i<count_var> % 3`, a count of rounds by the rank; 3 (a seq of
                               all-to-all rounds): `2 * P - 1`, twice round; 4: `W - 1`, 5:
                               `H - 1` (the consts of GenModel.rect_h) */
  int res;                  /* use, hold: resource id */
  GenMember member;         /* use or hold of a family: how the member is chosen */
  int member_var;           /* GEN_MEMBER_VAR / MOD: index depth */
  int member_val;           /* GEN_MEMBER_CONST: member; MOD: modulus K; BLOCK: block size B */
  int member_off;           /* GEN_MEMBER_MOD: offset c in (i + c) % K (0: plain i % K);
                               GEN_MEMBER_BLOCK: 0 floor(i / B), 1 floor((i + 1) / B),
                               2 floor(i * 2 / 3) (blocks of 1.5), 3 floor(i / ceil(P / 2)),
                               the ring over the blocks: 4 (floor(i / B) + 1) % ceil(P / B),
                               5 (floor(i / B) + ceil(P / B) - 1) % ceil(P / B), 6
                               (ceil(P / B) - 1 - floor(i / B)) % ceil(P / B), 7 (floor(i / B) + 1)
                               % 2 (too short a ring when there are more than 2 blocks), 8
                               ceil(P / B) - 1 - floor(i / B) (the blocks in reverse order), 9
                               floor(i / B) > 0 ? floor(i / B) - 1 : ceil(P / B) - 1, 10 the same
                               with 1 % ceil(P / B) for the last (two blocks at member 1) */
  GenDur dur;               /* delay/use duration */
  GenCond cond;             /* if: kind of condition */
  int cond_var;             /* if: index depth */
  int cond_val, cond_mod;   /* if: compared value, modulus */
  int cond_val2;            /* if: second value (RANGE: upper end; OR: residue) */
  int cond_var2;            /* if GEN_COND_SKIP: the stage index depth */
  int callee;               /* GEN_CALL: -1 defines the process, else the defining node's id */
  int count_form;           /* repeat: 0 the count hi; else a count by the index at depth
                               count_var (gen_put_stmt): 1 floor(hi / P) + (i < hi % P ? 1 : 0),
                               2 i % 2 + hi, 3 min(i, hi), 4 (hi <= i ? 2 : 0),
                               5 (i - 1 < hi ? 1 : 0) + floor(hi / 2),
                               6 the block max(0, min(hi, (i + 1) B) - i B), B = ceil(hi / P) */
  int count_var;            /* repeat with count_form: the index depth it reads */
  int dist;                 /* a butterfly's use or `if` (GEN_MEMBER_XOR, GEN_COND_HALF, _UP,
                               _PARTNER): how the distance H of step j is written: 0 2 ^ j; the
                               halving order H = 2^(T - j), T = dist_top: 1 2 ^ (T - j), 2 the
                               quotient 2 ^ (T + 1) / 2 ^ (j + 1) (as P / 2^(k + 1) on P = 2^L) */
  int dist_top;             /* T (the last step of the seq) */
  int pipe_r, pipe_k;       /* GEN_MEMBER_PIPE: the ranks R and the stages K of the family;
                               GEN_MEMBER_CUBE: the box's sizes B and C */
  int call_vars;            /* GEN_CALL defining a process: > 0 when it takes the enclosing
                               indices i0 .. i<call_vars - 1> as its arguments, named so (a
                               helper process on the rank and the step: `process p(i0, i1)`) */
} GenNode;

typedef struct GenResource {
  int family;               /* 1: `r<k>[GEN_FAMILY_SIZE]` */
  int servers;              /* multiplicity 1..4 (fcfs) */
  int ps_tenths;            /* > 0: `ps(c)` with c = ps_tenths / 10 (LANGUAGE.md §8); 0: fcfs */
  int handoff_ns;           /* fcfs: > 0 writes `handoff(h ns)` */
  int dropped;              /* 1: not written (shrinker) */
} GenResource;

typedef struct GenConst {
  int lo_ns, hi_ns;         /* interval [lo, hi] in ns (lo == hi: a plain number) */
  int typ_ns;               /* > 0: a typical value `typ m` (ns, in [lo, hi]); 0: none */
  int dropped;              /* 1: not written (shrinker) */
} GenConst;

typedef struct GenModel {
  GenNode nodes[GEN_MAX_NODES]; /* the pool */
  int node_count;               /* nodes in use */
  int root;                     /* body of main */
  GenResource res[GEN_MAX_RES]; /* resources r0 .. */
  int res_count;                /* length of res */
  GenConst consts[GEN_MAX_CONSTS]; /* consts t0 .. */
  int const_count;              /* length of consts */
  int param_default;            /* default of `param P` (in 1 .. GEN_MAX_BOUND + 1) */
  int rect_h;                   /* 0, or H of `const H = rect_h; const W = (P + 6 - P) / H;`:
                                   a W x H grid whose sizes are consts, W derived (GEN_MEMBER_RECT) */
} GenModel;

/* Fills m with the model of seed. */
void gen_model(GenModel *m, uint64_t seed);
/* Writes m as model text, with header (may be NULL) as comment lines first. Returns a malloc'd
   string (caller frees). */
char *gen_model_text(const GenModel *m, const char *header);

#endif
