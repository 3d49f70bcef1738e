/*
** test_check.c — the semantic checks (lang/check/check.h, lang/program.h) on small models: each bad
** model gives exactly the expected first error, `line:col` and text derived by hand from the
** model; each good model (every example of LANGUAGE.md among them) gives no diagnostic.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "check.h"
#include "program.h"

/* Loads and checks text as "t.pam" with the given -D values; the first error (formatted) goes
** to first, the number of errors is returned. */
static int run_model(const char *text, const ProgramDefine *defines, int define_count, char *first,
                     size_t size, char *all, size_t all_size) {
  DiagList diags;
  diag_init(&diags);
  Program prog;
  ProgramOptions opts = {0};
  opts.defines = defines;
  opts.define_count = define_count;
  ProgramStatus status = program_load_string(&prog, &diags, "t.pam", text, &opts);
  if (status == PROGRAM_OK) check_program(&prog);
  if (first) first[0] = '\0';
  if (all) all[0] = '\0';
  size_t used = 0;
  for (int i = 0; i < diags.count; i++) {
    char line[600];
    diag_format(&diags.items[i], line, sizeof line);
    if (first && !first[0] && diags.items[i].level == DIAG_ERROR) snprintf(first, size, "%s", line);
    if (all && used < all_size) used += (size_t)snprintf(all + used, all_size - used, "%s\n", line);
  }
  int errors = diags.errors;
  program_free(&prog);
  diag_free(&diags);
  return errors;
}

typedef struct BadCase {
  const char *model;      /* the model text */
  const char *expected;   /* its first error, formatted */
} BadCase;

static const BadCase bad_cases[] = {
  /* names: unknown, with the closest known name of the right kind */
  {"param N = 10;\nprocess main { delay(Nn * 1us) }",
   "t.pam:2:22: error: unknown name 'Nn'; did you mean 'N'?"},
  {"process main { delay(zzz) }",
   "t.pam:1:22: error: unknown name 'zzz'"},
  {"process main { seq (index = 1, 3) delay(indx * 1us) }",
   "t.pam:1:41: error: unknown name 'indx'; did you mean 'index'?"},
  {"process work = skip;\nprocess main { wokr }",
   "t.pam:2:16: error: unknown process 'wokr'; did you mean 'work'?"},
  {"process main { foo }",
   "t.pam:1:16: error: unknown process 'foo'"},
  {"resource bus;\nprocess main { use(buss, 1us) }",
   "t.pam:2:20: error: unknown resource 'buss'; did you mean 'bus'?"},
  {"process main { delay(cel(1)) }",
   "t.pam:1:22: error: unknown function 'cel'; did you mean 'ceil'?"},
  /* names of the wrong kind */
  {"param N = 1;\nprocess main { use(N, 1us) }",
   "t.pam:2:20: error: 'N' is a param, not a resource"},
  {"resource cpu[4];\nprocess main { use(cpu, 1us) }",
   "t.pam:2:20: error: 'cpu' is a family of resources: use one member, cpu[i]"},
  {"resource bus;\nprocess main { use(bus[0], 1us) }",
   "t.pam:2:24: error: 'bus' is a single resource, not a family: it takes no index"},
  {"param N = 1;\nprocess main { delay(N(2)) }",
   "t.pam:2:22: error: 'N' is a param, not a function"},
  {"process w = skip;\nprocess main { delay(w) }",
   "t.pam:2:22: error: 'w' is a process, not a value"},
  {"fn f(x) = x;\nprocess main { f(1) }",
   "t.pam:2:16: error: 'f' is a fn, not a process"},
  {"fn min(a) = a;\nprocess main { skip }",
   "t.pam:1:4: error: 'min' is a built-in function; choose another name"},
  {"process w(a, a) = skip;\nprocess main { skip }",
   "t.pam:1:14: error: parameter 'a' is named twice"},
  /* arity */
  {"process w(a) = delay(a);\nprocess main { w(1, 2) }",
   "t.pam:2:16: error: process 'w' takes 1 argument, not 2"},
  {"fn f(x, y) = x + y;\nprocess main { delay(f(1)) }",
   "t.pam:2:22: error: 'f' takes 2 arguments, not 1"},
  {"process main { delay(ceil(1, 2)) }",
   "t.pam:1:22: error: ceil takes 1 argument, not 2"},
  {"process main { delay(sum(1, 2)) }",
   "t.pam:1:22: error: sum takes the form sum(i = a, b, e)"},
  {"process main { delay(avg(i = 1, 3, i)) }",
   "t.pam:1:22: error: 'avg' has no form with an index; only sum, prod, min and max do"},
  /* definitions */
  {"param N = 1;\nparam N = 2;\nprocess main { skip }",
   "t.pam:2:7: error: duplicate definition of 'N'"},
  {"process main { a }\nprocess a { main }",
   "t.pam:2:13: error: recursive process: main -> a -> main"},
  {"process main { main }",
   "t.pam:1:16: error: recursive process: main -> main"},
  {"fn f(x) = g(x);\nfn g(x) = f(x);\nprocess main { delay(f(1)) }",
   "t.pam:2:11: error: recursive function: f -> g -> f"},
  {"const a = b;\nconst b = a;\nprocess main { skip }",
   "t.pam:2:11: error: circular definition: a -> b -> a"},
  {"process mian { skip }",
   "t.pam:1:1: error: no entry process 'main'; did you mean 'mian'?"},
  {"process main(x) = delay(x);",
   "t.pam:1:9: error: entry process 'main' takes parameters; nothing would give them values"},
  /* values at hand */
  {"const t = [2, 1];\nprocess main { delay(t) }",
   "t.pam:1:11: error: interval [2, 1] has its low end above its high end"},
  {"param N = 2;\nprocess main { delay(-N * 1us) }",
   "t.pam:2:22: error: duration is negative (-2e-06 s) for the values at hand"},
  {"resource r;\nconst t = [1us, 2us];\nprocess main { use(r, 1us - t * 2) }",
   "t.pam:3:23: error: duration is negative ([-3e-06, -1e-06] s) for the values at hand"},
  {"resource cpu[4];\nprocess main { use(cpu[4], 1us) }",
   "t.pam:2:24: error: index 4 of 'cpu' is out of range 0 .. 3"},
  {"resource cpu[4];\nprocess main { use(cpu[-1], 1us) }",
   "t.pam:2:24: error: index -1 of 'cpu' is out of range 0 .. 3"},
  {"resource cpu[4];\nprocess main { use(cpu[1.5], 1us) }",
   "t.pam:2:24: error: index of 'cpu' is not an integer (1.5)"},
  {"param P = 4;\nresource cpu[P];\nprocess main { par (p = 0, P) use(cpu[p + P], 1us) }",
   "t.pam:3:39: error: index [4, 8] of 'cpu' is out of range 0 .. 3"},
  {"param P = 4;\nresource cpu[P];\nprocess step(p) = use(cpu[p], 1us);\nprocess main { step(P) }",
   "t.pam:3:27: error: index 4 of 'cpu' is out of range 0 .. 3"},
  /* the last iteration of a loop with known bounds certainly runs */
  {"param N = 3;\nresource cpu[N];\nprocess main { par (p = 0, N) use(cpu[p], 1us) }",
   "t.pam:3:39: error: index 3 of 'cpu' is out of range 0 .. 2 (when p = 3)"},
  {"param P = 4;\nresource cpu[P];\nprocess step(p) = use(cpu[p + 1], 1us);\n"
   "process main { par (p = 0, P - 1) step(p) }",
   "t.pam:3:27: error: index 4 of 'cpu' is out of range 0 .. 3 (when p = 3)"},
  {"process main { seq (i = 0, 4) delay((i - 3) * 1us) }",
   "t.pam:1:37: error: duration is negative (-3e-06 s) for the values at hand (when i = 0)"},
  {"param N = 10;\nprocess main { seq (i = 1, N / 4) delay(1us) }",
   "t.pam:2:28: error: bound of seq is not an integer (2.5)"},
  {"process main { par (i = 0.5, 3) delay(1us) }",
   "t.pam:1:25: error: bound of par is not an integer (0.5)"},
  {"process main { repeat (2.5) delay(1us) }",
   "t.pam:1:24: error: count of repeat is not an integer (2.5)"},
  {"process main { choose (1.5) skip else skip }",
   "t.pam:1:24: error: probability of choose is outside [0, 1] (1.5)"},
  {"param P = 0;\nresource cpu[P];\nprocess main { skip }",
   "t.pam:2:14: error: family size of 'cpu' is not positive (0)"},
  {"param P = 15;\nresource node[P / 2];\nprocess main { skip }",
   "t.pam:2:15: error: family size of 'node' is not an integer (7.5)"},
  {"resource mem = fcfs(0);\nprocess main { skip }",
   "t.pam:1:21: error: multiplicity of 'mem' is not positive (0)"},
  {"param P = 0 in 1 .. 8;\nprocess main { skip }",
   "t.pam:1:11: error: default 0 of 'P' is outside its admissible values (1 .. 8)"},
  {"process main { delay(log(0) * 1us) }",
   "t.pam:1:26: error: log of a non-positive value (0)"},
  {"param N = 2;\nprocess main { if (N > 1) delay(-1us) else skip }",
   "t.pam:2:33: error: duration is negative (-1e-06 s) for the values at hand"},
  {"process main { delay(min(i = 3, 1, i)) }",
   "t.pam:1:22: error: min over an empty range"},
};

static void test_bad_models(void **state) {
  (void)state;
  int failures = 0;
  for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
    char first[600], all[4000];
    int errors = run_model(bad_cases[i].model, NULL, 0, first, sizeof first, all, sizeof all);
    if (errors == 0 || strcmp(first, bad_cases[i].expected)) {
      printf("case %zu:\n%s\n  expected: %s\n  got:      %s\n  all:\n%s", i, bad_cases[i].model,
             bad_cases[i].expected, first, all);
      failures++;
    }
  }
  assert_int_equal(failures, 0);
}

static void test_duplicate_note(void **state) {
  (void)state;
  char all[2000];
  run_model("param N = 1;\nparam N = 2;\nprocess main { skip }", NULL, 0, NULL, 0, all, sizeof all);
  assert_string_equal(all, "t.pam:2:7: error: duplicate definition of 'N'\n"
                           "t.pam:1:7: note: previous definition is here\n");
}

static void test_define_checks(void **state) {
  (void)state;
  char first[600];
  const char *model = "param P = 2 in 1 .. 8;\nparam N = 100;\nconst t;\nprocess main { delay(N * t) }";
  ProgramDefine out_of_range = {"P", "9", "P=9"};
  assert_int_equal(run_model(model, &out_of_range, 1, first, sizeof first, NULL, 0), 1);
  assert_string_equal(first, "pamc: error: -D P=9: value 9 is outside the admissible values of 'P' (1 .. 8)");
  ProgramDefine below = {"N", "0", "N=0"};   /* no `in`: at least min(1, 100) = 1 */
  assert_int_equal(run_model(model, &below, 1, first, sizeof first, NULL, 0), 1);
  assert_string_equal(first, "pamc: error: -D N=0: value 0 is outside the admissible values of 'N' (at least 1)");
  ProgramDefine unknown = {"Q", "1", "Q=1"};
  assert_int_equal(run_model(model, &unknown, 1, first, sizeof first, NULL, 0), 1);
  /* no name near: the model's params are listed */
  assert_string_equal(first, "pamc: error: -D Q=1: no param or const 'Q' (the model's params: P, N)");
  ProgramDefine near = {"NN", "1", "NN=1"};
  assert_int_equal(run_model(model, &near, 1, first, sizeof first, NULL, 0), 1);
  assert_string_equal(first, "pamc: error: -D NN=1: no param or const 'NN'; did you mean 'N'?");
  ProgramDefine process = {"main", "1", "main=1"};
  assert_int_equal(run_model(model, &process, 1, first, sizeof first, NULL, 0), 1);
  assert_string_equal(first, "pamc: error: -D main=1: 'main' is a process, not a param or const");
  /* -D gives the const a negative value: the duration is now certainly negative */
  ProgramDefine negative = {"t", "-2ns", "t=-2ns"};
  assert_int_equal(run_model(model, &negative, 1, first, sizeof first, NULL, 0), 1);
  assert_string_equal(first, "t.pam:4:22: error: duration is negative (-2e-07 s) for the values at hand");
  /* good -D values: a unit, an interval, an override of a default */
  ProgramDefine good[] = {{"P", "8", "P=8"}, {"t", "[1ns, 2ns]", "t=[1ns, 2ns]"}, {"N", "1_000", "N=1_000"}};
  assert_int_equal(run_model(model, good, 3, first, sizeof first, NULL, 0), 0);
}

/* Models that must check clean: the examples of LANGUAGE.md and the edges of "values at hand"
** where an error is possible but not certain. */
static const char *const good_models[] = {
  /* LANGUAGE.md §3, the declarations, with a main that uses them */
  "param N = 1000;            # an input of the model; free symbol in `reduce`; -D N=... sets it\n"
  "param P = 8 in 1 .. 4096;  # with its admissible values (optional)\n"
  "const t_flop = [0.9ns, 1.1ns];   # a constant, usually a machine parameter; may be an interval\n"
  "const latency;             # declared, no value: must come from a machine file or -D\n"
  "const byte_time;\n"
  "fn msg(bytes) = latency + bytes * byte_time;   # numeric function (no recursion)\n"
  "resource bus;              # one FCFS server\n"
  "resource mem = fcfs(2);    # FCFS with 2 servers (multiplicity m, an expression of params/consts)\n"
  "resource cpu[P];           # a family of P independent resources cpu[0] .. cpu[P-1], each fcfs(1)\n"
  "resource node[P/2] = fcfs(2);\n"
  "process compute(n) = delay(n * t_flop);          # process definition, one statement\n"
  "process main { compute(N); use(bus, msg(64)); use(mem, 1us); use(node[P/2 - 1], 1us) }\n",
  /* LANGUAGE.md §4, every statement form */
  "param N = 4;\nparam P = 4;\nresource r;\nresource cpu[P];\nconst e = 1us;\nconst p = 0.25;\n"
  "process s1 = delay(e);\nprocess s2 = use(r, e);\nprocess s3 = skip;\n"
  "process main {\n"
  "  delay(e);\n  use(r, e);\n  use(cpu[1], e);\n  s1; s2; s3;\n  { s1; s2; s3; };\n"
  "  s1 || s2 || s3;\n  seq (i = 1, N) use(cpu[i - 1], e);\n  par (i = 0, P - 1) use(cpu[i], e);\n"
  "  repeat (N) s1;\n  if (N > 2) s1 else s2;\n  if (N > 2) s1;\n  choose (p) s1 else s2;\n"
  "  choose ([0.1, 0.2]) s1;\n  skip;\n  { s1; s2 || s3; s1 };\n  seq (i = 1, N) s1 || s2;\n"
  "  seq (i = 1, N) { s1 || s2 }\n}\n",
  /* LANGUAGE.md §7 */
  "param N = 1_000_000;\nparam P = 16;\nparam iters = 100;\nconst t_point;\nconst latency;\n"
  "const byte_time;\nresource cpu[P];\nresource bus;\nfn msg(bytes) = latency + bytes * byte_time;\n\n"
  "process step(p) {\n  use(cpu[p], ceil(N / P) * t_point);\n  use(bus, msg(8 * 1024))\n}\n\n"
  "process main {\n  repeat (iters) par (p = 0, P - 1) step(p)\n}\n",
  /* LANGUAGE.md §2: numbers, units, intervals, lo/hi/mid/width */
  "const a = 12; const b = 0.5; const c = 1.5e-9; const d = 1_000_000;\n"
  "const e = 2.5us + 3ns + 1ms + 1s; const f = 64KiB + 1MiB + 1GiB + 1B + 1KB + 1MB + 1GB;\n"
  "const g = [1, 2]; const h = lo(g) + hi(g) + mid(g) + width(g);\n"
  "process main { delay((a + b + c + d + f + h) * 1ns + e) }\n",
  /* §5: operators and functions */
  "param N = 10;\nfn f(x, y) = x % y + x ^ 2 - -y;\n"
  "const k = min(1, 2, 3) + max(4, 5) + ceil(1.5) + floor(1.5) + abs(-1) + sqrt(4) + log(2) + log2(8) + exp(0);\n"
  "const s = sum(i = 1, N, i) + prod(i = 1, 3, i) + min(i = 1, 3, i) + max(i = 1, 3, i);\n"
  "const c = (N == 10 and not (N != 10) or N < 1) ? (N <= 1 ? 1 : 2) : (N > 1 ? 3 : N >= 4);\n"
  "process main { delay((f(3, 2) + k + s + c) * 1us) }\n",
  /* EXAMPLES.md-like: nested par, sums over an index */
  "resource r;\nprocess main { par (p = 0, 1) par (q = 0, 1) use(r, 1us) }\n",
  "param N = 10;\nconst t = 1us;\nresource mem = fcfs(4);\n"
  "process main { seq (i = 1, N) delay(i * t); par (i = 1, N) use(mem, i * t) }\n",
  /* values that may be wrong for some values but are not certainly wrong */
  "param P = 4;\nresource cpu[P];\nprocess main { seq (i = 1, 0) use(cpu[i + 10], 1us) }\n",
  "param N = 2;\nprocess main { if (N > 5) delay(-1us) }\n",
  "param N = 3;\nresource cpu[N];\nprocess main { par (p = 0, N - 1) use(cpu[p], 1us) }\n",
  "resource cpu[5];\nprocess main { seq (i = 0, 4) use(cpu[(i - 2) ^ 2], (i + 1) * 1us) }\n",
  "param N = 3;\nresource cpu[N];\nprocess main { seq (i = 0, N) if (i < N) use(cpu[i], 1us) }\n",
  "process main { choose (0) delay(-1us) else skip }\n",
  "process main { repeat (0) delay(-1us) }\n",
  "const t;\nprocess main { delay(t - 1us) }\n",
  "const t = [-1us, 1us];\nprocess main { delay(t) }\n",
  "param P = 4;\nresource cpu[P];\nprocess w(i) = use(cpu[i], 1us);\nprocess main { par (p = 0, P - 1) w(p) }\n",
  "param P = 4;\nconst x;\nresource cpu[P];\nprocess main { use(cpu[x], 1us) }\n",
  "param N = 10;\nprocess main { seq (i = 1, ceil(N / 4)) delay(1us); repeat (floor(N / 4)) skip }\n",
  "param N = 0;\nprocess main { delay(N == 0 ? 1us : 1us / N) }\n",
  "param N = 0;\nprocess main { delay(N != 0 and 1 / N > 2 ? 1us : 2us) }\n",
  "process main { delay(min(1us)) }\n",
  /* a file without processes (a machine file) needs no entry process */
  "const latency = [1us, 2us];\nconst byte_time = 1ns;\nfn send(bytes) = latency + bytes * byte_time;\n"
  "resource cores = fcfs(4);\n",
  /* a loop index shadows a param; an argument shadows a param */
  "param i = 5;\nprocess w(i) = delay(i * 1us);\nprocess main { seq (i = 1, 3) w(i) }\n",
};

static void test_good_models(void **state) {
  (void)state;
  int failures = 0;
  for (size_t i = 0; i < sizeof good_models / sizeof good_models[0]; i++) {
    char all[4000];
    int errors = run_model(good_models[i], NULL, 0, NULL, 0, all, sizeof all);
    if (errors != 0 || all[0]) {
      printf("good model %zu:\n%s\n  got:\n%s", i, good_models[i], all);
      failures++;
    }
  }
  assert_int_equal(failures, 0);
}

/* Resolution fills what the reducer and simulator read. */
static void test_resolution_fields(void **state) {
  (void)state;
  DiagList diags;
  diag_init(&diags);
  Program prog;
  const char *text =
    "param N = 4;\nconst t = 1us;\nresource cpu[N];\nfn f(a, b) = b * t;\n"
    "process w(x) = seq (i = 1, N) use(cpu[x], f(i, x) + sum(j = 1, i, j * t));\n"
    "process main { par (p = 0, N - 1) w(p) }\n";
  assert_int_equal(program_load_string(&prog, &diags, "t.pam", text, NULL), PROGRAM_OK);
  assert_int_equal(check_program(&prog), 0);
  Decl *w = program_lookup(&prog, "w");
  assert_non_null(w);
  assert_int_equal(w->kind, DECL_PROCESS);
  assert_ptr_equal(program_entry(&prog), program_lookup(&prog, "main"));
  Stmt *loop = w->u.process.body;
  assert_int_equal(loop->kind, ST_SEQ);
  Expr *hi = loop->u.loop.hi;
  assert_int_equal(hi->u.name.kind, NAME_PARAM);
  assert_ptr_equal(hi->u.name.decl, program_lookup(&prog, "N"));
  Stmt *use = loop->u.loop.body;
  assert_int_equal(use->kind, ST_USE);
  assert_ptr_equal(use->u.use.decl, program_lookup(&prog, "cpu"));
  assert_int_equal(use->u.use.index->u.name.kind, NAME_ARG);
  assert_int_equal(use->u.use.index->u.name.slot, 0);
  Expr *plus = use->u.use.duration;
  Expr *call = plus->u.binary.a;
  assert_int_equal(call->kind, EX_CALL);
  assert_ptr_equal(call->u.call.decl, program_lookup(&prog, "f"));
  assert_int_equal(call->u.call.builtin, -1);
  assert_int_equal(call->u.call.args.items[0]->u.name.kind, NAME_INDEX);
  assert_int_equal(call->u.call.args.items[0]->u.name.slot, 0);
  assert_int_equal(call->u.call.args.items[1]->u.name.kind, NAME_ARG);
  Expr *sum = plus->u.binary.b;
  assert_int_equal(sum->kind, EX_BIND);
  assert_int_equal(sum->u.bind.hi->u.name.kind, NAME_INDEX);   /* i, outer */
  assert_int_equal(sum->u.bind.hi->u.name.slot, 0);
  Expr *j = sum->u.bind.body->u.binary.a;
  assert_int_equal(j->u.name.kind, NAME_INDEX);                /* j, bound inside i */
  assert_int_equal(j->u.name.slot, 1);
  Expr *t = sum->u.bind.body->u.binary.b;
  assert_int_equal(t->u.name.kind, NAME_CONST);
  Decl *main_decl = program_lookup(&prog, "main");
  Stmt *call_stmt = main_decl->u.process.body;
  if (call_stmt->kind == ST_BLOCK) call_stmt = call_stmt->u.block.items[0];
  assert_int_equal(call_stmt->kind, ST_PAR);
  assert_ptr_equal(call_stmt->u.loop.body->u.call.decl, w);
  program_free(&prog);
  diag_free(&diags);
}

static void test_suggestions(void **state) {
  (void)state;
  assert_int_equal(check_distance("kitten", "sitting"), 3);
  assert_int_equal(check_distance("", "abc"), 3);
  assert_int_equal(check_distance("abc", "abc"), 0);
  const char *names[] = {"latency", "byte_time", "N"};
  assert_string_equal(check_closest("latncy", names, 3), "latency");
  assert_string_equal(check_closest("Nn", names, 3), "N");
  assert_null(check_closest("zzz", names, 3));
  assert_string_equal(check_closest("n", names, 3), "N");   /* case only */
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_bad_models),
    cmocka_unit_test(test_duplicate_note),
    cmocka_unit_test(test_define_checks),
    cmocka_unit_test(test_good_models),
    cmocka_unit_test(test_resolution_fields),
    cmocka_unit_test(test_suggestions),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
