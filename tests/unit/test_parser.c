/*
** test_parser.c — the grammar (parser/grammar.y through parse_string): the tree of every
** declaration, statement and expression form checked through ast_dump, the precedence rules of
** LANGUAGE.md §4-§5, locations, syntax error messages with their line:col, error recovery and
** the error cap, and the models of tests/models/ok parsing without errors.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glob.h>
#include <cmocka.h>

#include "ast_dump.h"
#include "parse.h"

/* The dump of a source that must parse without errors. */
static char *dump_of(const char *text) {
  Arena arena;
  DiagList diags;
  arena_init(&arena);
  diag_init(&diags);
  Module *module = parse_string(&arena, &diags, "t.pam", text, strlen(text));
  assert_non_null(module);
  if (diags.count) {
    char line[512];
    diag_format(&diags.items[0], line, sizeof line);
    fail_msg("unexpected error: %s", line);
  }
  char *out = NULL;
  size_t size = 0;
  FILE *stream = open_memstream(&out, &size);
  ast_dump_module(module, stream);
  fclose(stream);
  diag_free(&diags);
  arena_free(&arena);
  return out;
}

static void check_dump(const char *text, const char *expected) {
  char *got = dump_of(text);
  assert_string_equal(got, expected);
  free(got);
}

/* The dump of a single expression, through `const x = expr;`. */
static void check_expr(const char *expr, const char *expected) {
  char text[512], want[512];
  snprintf(text, sizeof text, "const x = %s;", expr);
  snprintf(want, sizeof want, "(const x %s)\n", expected);
  check_dump(text, want);
}

/* The dump of a process body, through `process p { body }`. */
static void check_block(const char *body, const char *expected) {
  char text[512], want[512];
  snprintf(text, sizeof text, "process p { %s }", body);
  snprintf(want, sizeof want, "(process p () (block %s))\n", expected);
  check_dump(text, want);
}

/* The syntax errors of text, formatted, one a line. */
static char *errors_of(const char *text, int *count) {
  Arena arena;
  DiagList diags;
  arena_init(&arena);
  diag_init(&diags);
  Module *module = parse_string(&arena, &diags, "t.pam", text, strlen(text));
  assert_non_null(module);
  char *out = NULL;
  size_t size = 0;
  FILE *stream = open_memstream(&out, &size);
  for (int i = 0; i < diags.count; i++) {
    char line[512];
    diag_format(&diags.items[i], line, sizeof line);
    fprintf(stream, "%s\n", line);
  }
  fclose(stream);
  if (count) *count = diags.errors;
  diag_free(&diags);
  arena_free(&arena);
  return out;
}

/* text must give exactly one error, this one ("line:col: message"). */
static void check_error(const char *text, const char *expected) {
  int count = 0;
  char *got = errors_of(text, &count);
  char want[512];
  snprintf(want, sizeof want, "t.pam:%s\n", expected);
  assert_string_equal(got, want);
  assert_int_equal(count, 1);
  free(got);
}

/* ------------------------------------------------------------------ declarations */

static void test_declarations(void **state) {
  (void)state;
  check_dump("import \"lib/m.mach\";", "(import \"lib/m.mach\")\n");
  check_dump("param N;", "(param N)\n");
  check_dump("param N = 1000;", "(param N 1000)\n");
  check_dump("param P = 8 in 1 .. 4096;", "(param P 8 (in 1 4096))\n");
  check_dump("param Q in 2 .. N * 2;", "(param Q (in 2 (* N 2)))\n");
  check_dump("const latency;", "(const latency)\n");
  check_dump("const t = [0.9ns, 1.1ns];", "(const t (interval 0.9ns 1.1ns))\n");
  check_dump("fn msg(bytes) = latency + bytes * byte_time;",
             "(fn msg (bytes) (+ latency (* bytes byte_time)))\n");
  check_dump("fn two(a, b) = a;  fn none() = 1;", "(fn two (a b) a)\n(fn none () 1)\n");
  check_dump("resource bus;", "(resource bus)\n");
  check_dump("resource mem = fcfs(2);", "(resource mem (fcfs 2))\n");
  check_dump("resource cpu[P];", "(resource cpu [P])\n");
  check_dump("resource node[P/2] = fcfs(2);", "(resource node [(/ P 2)] (fcfs 2))\n");
}

static void test_process_forms(void **state) {
  (void)state;
  check_dump("process compute(n) = delay(n * t);", "(process compute (n) (delay (* n t)))\n");
  check_dump("process p(x, y) = q;", "(process p (x y) (call q))\n");
  check_dump("process main { a }", "(process main () (block (call a)))\n");
  check_dump("process main() { a; }", "(process main () (block (call a)))\n");
  check_dump("process w(x) { }", "(process w (x) (block))\n");
  check_dump("process p = a || b;", "(process p () (parallel (call a) (call b)))\n");
  check_dump("process p = { a; b };", "(process p () (block (call a) (call b)))\n");
}

/* ------------------------------------------------------------------ statements */

static void test_simple_statements(void **state) {
  (void)state;
  check_block("skip", "(skip)");
  check_block("delay(2.5us)", "(delay 2.5us)");
  check_block("use(bus, e)", "(use bus e)");
  check_block("use(cpu[i + 1], 2 * e)", "(use cpu[(+ i 1)] (* 2 e))");
  check_block("step", "(call step)");
  check_block("step()", "(call step)");
  check_block("step(p, q + 1)", "(call step p (+ q 1))");
  check_block("{ }", "(block)");
}

static void test_compound_statements(void **state) {
  (void)state;
  check_block("seq (i = 1, N) a", "(seq i 1 N (call a))");
  check_block("par (i = 0, P - 1) a(i)", "(par i 0 (- P 1) (call a i))");
  check_block("repeat (n) a", "(repeat n (call a))");
  check_block("if (x > 1) a", "(if (> x 1) (call a))");
  check_block("if (x) a else b", "(if x (call a) (call b))");
  check_block("choose (0.5) a", "(choose 0.5 (call a))");
  check_block("choose ([0.1, 0.2]) a else b", "(choose (interval 0.1 0.2) (call a) (call b))");
}

/* { a; b || c; d } is a ; (b || c) ; d */
static void test_block_and_parallel(void **state) {
  (void)state;
  check_dump("process main { a; b || c; d }",
             "(process main () (block (call a) (parallel (call b) (call c)) (call d)))\n");
  check_block("a || b || c", "(parallel (call a) (call b) (call c))");
  check_block("a; b;", "(call a) (call b)");
  check_block("{ a || b } || c", "(parallel (block (parallel (call a) (call b))) (call c))");
}

/* The body of seq, par, repeat, if, else and choose is one statement without a top-level ||. */
static void test_bodies_exclude_parallel(void **state) {
  (void)state;
  check_block("seq (i = 1, N) a || b", "(parallel (seq i 1 N (call a)) (call b))");
  check_block("seq (i = 1, N) { a || b }", "(seq i 1 N (block (parallel (call a) (call b))))");
  check_block("par (i = 1, N) a || b", "(parallel (par i 1 N (call a)) (call b))");
  check_block("repeat (3) a || b", "(parallel (repeat 3 (call a)) (call b))");
  check_block("if (c) a || b", "(parallel (if c (call a)) (call b))");
  check_block("if (c) a else b || d", "(parallel (if c (call a) (call b)) (call d))");
  check_block("choose (p) a else b || d", "(parallel (choose p (call a) (call b)) (call d))");
  check_block("repeat (2) seq (i = 1, 3) a || b",
              "(parallel (repeat 2 (seq i 1 3 (call a))) (call b))");
}

static void test_dangling_else(void **state) {
  (void)state;
  check_block("if (x) if (y) a else b", "(if x (if y (call a) (call b)))");
  check_block("if (x) { if (y) a } else b", "(if x (block (if y (call a))) (call b))");
  check_block("choose (p) if (y) a else b", "(choose p (if y (call a) (call b)))");
  check_block("if (x) a else if (y) b else c", "(if x (call a) (if y (call b) (call c)))");
}

/* ------------------------------------------------------------------ expressions */

static void test_arithmetic_precedence(void **state) {
  (void)state;
  check_expr("a + b * c", "(+ a (* b c))");
  check_expr("a - b - c", "(- (- a b) c)");
  check_expr("a / b * c % d", "(% (* (/ a b) c) d)");
  check_expr("(a + b) * c", "(* (+ a b) c)");
  check_expr("-x^2", "(- (^ x 2))");
  check_expr("2^3^2", "(^ 2 (^ 3 2))");
  check_expr("-a * b", "(* (- a) b)");
  check_expr("a - -b", "(- a (- b))");
  check_expr("2^-x", "(^ 2 (- x))");
  check_expr("a * b ^ c", "(* a (^ b c))");
}

static void test_logic_precedence(void **state) {
  (void)state;
  check_expr("a or b and c", "(or a (and b c))");
  check_expr("a and b or c", "(or (and a b) c)");
  check_expr("not a == b", "(not (== a b))");
  check_expr("not a and b", "(and (not a) b)");
  check_expr("a + 1 < b * 2", "(< (+ a 1) (* b 2))");
  check_expr("a == b", "(== a b)");
  check_expr("a != b", "(!= a b)");
  check_expr("a <= b", "(<= a b)");
  check_expr("a >= b", "(>= a b)");
  check_expr("a > b and a < c", "(and (> a b) (< a c))");
}

static void test_conditional(void **state) {
  (void)state;
  check_expr("c ? a : b", "(? c a b)");
  check_expr("a ? b : c ? d : e", "(? a b (? c d e))");
  check_expr("a ? b ? c : d : e", "(? a (? b c d) e)");
  check_expr("x or y ? a + 1 : b", "(? (or x y) (+ a 1) b)");
}

static void test_primaries(void **state) {
  (void)state;
  check_expr("1_000_000", "1000000");
  check_expr("64KiB", "64KiB");
  check_expr("[lo(x), 2 * y]", "(interval (lo x) (* 2 y))");
  check_expr("min(a, b, c)", "(min a b c)");
  check_expr("f()", "(f)");
  check_expr("sum(i = 1, N, i ^ 2)", "(bind sum i 1 N (^ i 2))");
  check_expr("prod(k = a, b, k)", "(bind prod k a b k)");
  check_expr("max(i = 0, P - 1, w(i))", "(bind max i 0 (- P 1) (w i))");
  check_expr("f(x, g(y))", "(f x (g y))");
  check_expr("((x))", "x");
}

/* ------------------------------------------------------------------ locations */

static void test_locations(void **state) {
  (void)state;
  const char *text = "param N = 1;\nprocess main {\n  a;\n  b || c\n}\n";
  Arena arena;
  DiagList diags;
  arena_init(&arena);
  diag_init(&diags);
  Module *module = parse_string(&arena, &diags, "loc.pam", text, strlen(text));
  assert_int_equal(diags.errors, 0);
  assert_int_equal(module->count, 2);
  assert_string_equal(module->path, "loc.pam");
  const Decl *param = module->decls[0];
  assert_string_equal(param->loc.file, "loc.pam");
  assert_int_equal(param->loc.line, 1);
  assert_int_equal(param->loc.col, 1);
  assert_int_equal(param->loc.end_col, 12);            /* the ';' */
  assert_int_equal(param->name.loc.col, 7);
  assert_int_equal(param->u.param.value->loc.col, 11);
  const Decl *main = module->decls[1];
  assert_int_equal(main->loc.line, 2);
  assert_int_equal(main->loc.end_line, 5);
  assert_int_equal(main->loc.end_col, 1);
  const Stmt *block = main->u.process.body;
  assert_int_equal(block->kind, ST_BLOCK);
  assert_int_equal(block->u.block.count, 2);
  const Stmt *parallel = block->u.block.items[1];
  assert_int_equal(parallel->kind, ST_PARALLEL);
  assert_int_equal(parallel->loc.line, 4);
  assert_int_equal(parallel->loc.col, 3);
  assert_int_equal(parallel->loc.end_col, 8);
  assert_int_equal(parallel->u.block.items[1]->u.call.process.loc.col, 8);
  diag_free(&diags);
  arena_free(&arena);
}

/* ------------------------------------------------------------------ syntax errors */

static void test_missing_separators(void **state) {
  (void)state;
  check_error("process p = a\nprocess q = b;", "2:1: error: expected ';' before 'process'");
  check_error("param N = 1;\nconst c = 2\nfn f(x) = x;", "3:1: error: expected ';' before 'fn'");
  check_error("process p { a x }", "1:15: error: expected ';' or '}' before 'x'");
  check_error("process p { delay(1) x }", "1:22: error: expected ';' or '}' before 'x'");
  check_error("process p { if (x) a b }", "1:22: error: expected ';' or '}' before 'b'");
  check_error("process p(x) = delay(x) delay(x);", "1:25: error: expected ';' before 'delay'");
  check_error("process p { a", "1:14: error: expected ';' or '}' before end of input");
  check_error("process p { seq (i = 1 N) a }", "1:24: error: expected ',' before 'N'");
  check_error("process p { use(r e) }", "1:19: error: expected ',' before 'e'");
  check_error("const c = f(x y);", "1:15: error: expected ')', ',' or '=' before 'y'");
}

static void test_missing_operands(void **state) {
  (void)state;
  check_error("param N = ;", "1:11: error: expected expression before ';'");
  check_error("fn f(x) = x +* 2;", "1:14: error: expected expression before '*'");
  check_error("const c = 1 ? 2;", "1:16: error: expected ':' before ';'");
  check_error("const c = [1, 2;", "1:16: error: expected ']' before ';'");
  check_error("const c = (1 + 2", "1:17: error: expected ')' before end of input");
  check_error("fn f(x) = sum(i = 1, N);", "1:23: error: expected ',' before ')'");
  check_error("const c = a < b < c;", "1:17: error: expected ';' before '<'");
  check_error("process p = a || ;", "1:18: error: expected statement before ';'");
  check_error("process p { repeat (n) }", "1:24: error: expected statement before '}'");
  check_error("process p { a; ; }", "1:16: error: expected statement or '}' before ';'");
}

static void test_misplaced_tokens(void **state) {
  (void)state;
  check_error("x = 5;", "1:1: error: expected declaration before 'x'");
  check_error("const c = 1;;", "1:13: error: expected declaration before ';'");
  check_error("process p { a } }", "1:17: error: expected declaration before '}'");
  check_error("resource r = 5;", "1:14: error: expected 'fcfs' or 'ps' before '5'");
  check_error("resource r[4;", "1:13: error: expected ']' before ';'");
  check_error("process p = delay 5;", "1:19: error: expected '(' before '5'");
  check_error("process p { if x a }", "1:16: error: expected '(' before 'x'");
  check_error("param N in 1 2;", "1:14: error: expected '..' before '2'");
  check_error("import foo;", "1:8: error: expected string before 'foo'");
  check_error("process p(x,) = a;", "1:13: error: expected name before ')'");
  check_error("process", "1:8: error: expected name before end of input");
  check_error("process p { else a }", "1:13: error: expected statement or '}' before 'else'");
  check_error("fn f(1) = 2;", "1:6: error: expected name or ')' before '1'");
  /* a keyword where only a name may stand (audit 4: `resource in[P];` said "expected name
  ** before 'in'", and `use(in[p])` after a fn `inj` suggested 'in' for 'inj') */
  check_error("resource in[4];", "1:10: error: 'in' is a keyword of the language and cannot be a name (rename it, e.g. 'in_')");
  check_error("const seq = 1;", "1:7: error: 'seq' is a keyword of the language and cannot be a name (rename it, e.g. 'seq_')");
  check_error("fn inj(x) = x; process p = delay(inj(1)) in;", "1:42: error: expected ';' before 'in'");
}

static void test_lexical_errors_in_context(void **state) {
  (void)state;
  check_error("param P = 8 in 1 ... 4;", "1:20: error: unexpected character '.'");
  check_error("param N = 3xs;", "1:12: error: unknown unit 'xs'");
  check_error("const c = 1; /* open", "1:14: error: unterminated comment");
  int count = 0;
  char *got = errors_of("process p { a $ b }", &count);
  assert_string_equal(got, "t.pam:1:15: error: unexpected character '$'\n"
                           "t.pam:1:17: error: expected ';' or '}' before 'b'\n");
  assert_int_equal(count, 2);
  free(got);
}

/* Recovery: errors in several declarations and blocks are all reported; what follows is kept. */
static void test_recovery(void **state) {
  (void)state;
  const char *text = "param = 1;\n"
                     "const c = ;\n"
                     "process p { a b; c; d e }\n"
                     "fn f(x) = x;\n";
  int count = 0;
  char *got = errors_of(text, &count);
  assert_string_equal(got, "t.pam:1:7: error: expected name before '='\n"
                           "t.pam:2:11: error: expected expression before ';'\n"
                           "t.pam:3:15: error: expected ';' or '}' before 'b'\n"
                           "t.pam:3:23: error: expected ';' or '}' before 'e'\n");
  assert_int_equal(count, 4);
  free(got);

  Arena arena;
  DiagList diags;
  arena_init(&arena);
  diag_init(&diags);
  Module *module = parse_string(&arena, &diags, "t.pam", text, strlen(text));
  char *out = NULL;
  size_t size = 0;
  FILE *stream = open_memstream(&out, &size);
  ast_dump_module(module, stream);
  fclose(stream);
  /* the broken param and const are dropped; the block keeps its good statements */
  assert_string_equal(out, "(process p () (block (call c)))\n(fn f (x) x)\n");
  free(out);
  diag_free(&diags);
  arena_free(&arena);
}

/* More errors than DIAG_MAX_ERRORS: the parse stops at the cap. */
static void test_error_cap(void **state) {
  (void)state;
  char text[4096] = "";
  for (int i = 0; i < 3 * DIAG_MAX_ERRORS; i++) strcat(text, "const c = ;\n");
  Arena arena;
  DiagList diags;
  arena_init(&arena);
  diag_init(&diags);
  parse_string(&arena, &diags, "t.pam", text, strlen(text));
  assert_int_equal(diags.errors, DIAG_MAX_ERRORS);
  assert_int_equal(diags.count, DIAG_MAX_ERRORS);
  assert_int_equal(diags.dropped, 0);
  char line[256];
  diag_format(&diags.items[DIAG_MAX_ERRORS - 1], line, sizeof line);
  char want[256];
  snprintf(want, sizeof want, "t.pam:%d:11: error: expected expression before ';'", DIAG_MAX_ERRORS);
  assert_string_equal(line, want);
  diag_free(&diags);
  arena_free(&arena);
}

static void test_nesting_too_deep(void **state) {
  (void)state;
  enum { DEPTH = 50000 };
  char *text = malloc(DEPTH + 32);
  strcpy(text, "const c = ");
  size_t at = strlen(text);
  for (int i = 0; i < DEPTH; i++) text[at++] = '(';
  strcpy(text + at, "1;");
  int count = 0;
  char *got = errors_of(text, &count);
  assert_int_equal(count, 1);
  assert_non_null(strstr(got, "error: nesting too deep"));
  free(got);
  free(text);
}

static void test_unreadable_file(void **state) {
  (void)state;
  Arena arena;
  DiagList diags;
  arena_init(&arena);
  diag_init(&diags);
  assert_null(parse_file(&arena, &diags, "/nonexistent/dir/x.pam"));
  assert_int_equal(diags.count, 1);
  char line[256];
  diag_format(&diags.items[0], line, sizeof line);
  assert_string_equal(line, "pamc: error: cannot read '/nonexistent/dir/x.pam': No such file or directory");
  diag_free(&diags);
  arena_free(&arena);
}

/* ------------------------------------------------------------------ model files */

/* Which kinds of node the ok models use, to show that together they cover the language. */
typedef struct Coverage {
  int decls[DECL_PROCESS + 1];
  int stmts[ST_HOLD + 1];
  int exprs[EX_BIND + 1];
  int ops[OP_NOT + 1];
  int param_range, resource_family_fcfs, use_index, else_branch, units;
  int typ, ps, handoff;  /* version 2 (§8): typical values, ps resources, hand-offs */
} Coverage;

static void cover_expr(Coverage *cov, const Expr *e) {
  if (!e) return;
  cov->exprs[e->kind]++;
  switch (e->kind) {
    case EX_NUM: if (e->u.num.unit_num != 1 || e->u.num.unit_den != 1) cov->units++; break;
    case EX_NAME: break;
    case EX_INTERVAL:
      cover_expr(cov, e->u.interval.lo);
      cover_expr(cov, e->u.interval.hi);
      if (e->u.interval.typ) cov->typ++;
      cover_expr(cov, e->u.interval.typ);
      break;
    case EX_UNARY: cov->ops[e->u.unary.op]++; cover_expr(cov, e->u.unary.a); break;
    case EX_BINARY:
      cov->ops[e->u.binary.op]++;
      cover_expr(cov, e->u.binary.a);
      cover_expr(cov, e->u.binary.b);
      break;
    case EX_COND:
      cover_expr(cov, e->u.cond.cond);
      cover_expr(cov, e->u.cond.then);
      cover_expr(cov, e->u.cond.otherwise);
      break;
    case EX_CALL:
      for (int i = 0; i < e->u.call.args.count; i++) cover_expr(cov, e->u.call.args.items[i]);
      break;
    case EX_BIND:
      cover_expr(cov, e->u.bind.lo);
      cover_expr(cov, e->u.bind.hi);
      cover_expr(cov, e->u.bind.body);
      break;
  }
}

static void cover_stmt(Coverage *cov, const Stmt *s) {
  cov->stmts[s->kind]++;
  switch (s->kind) {
    case ST_SKIP: break;
    case ST_DELAY: cover_expr(cov, s->u.delay.duration); break;
    case ST_USE:
      if (s->u.use.index) cov->use_index++;
      cover_expr(cov, s->u.use.index);
      cover_expr(cov, s->u.use.duration);
      break;
    case ST_HOLD:
      cover_expr(cov, s->u.use.index);
      cover_stmt(cov, s->u.use.body);
      break;
    case ST_CALL:
      for (int i = 0; i < s->u.call.args.count; i++) cover_expr(cov, s->u.call.args.items[i]);
      break;
    case ST_BLOCK:
    case ST_PARALLEL:
      for (int i = 0; i < s->u.block.count; i++) cover_stmt(cov, s->u.block.items[i]);
      break;
    case ST_SEQ:
    case ST_PAR:
      cover_expr(cov, s->u.loop.lo);
      cover_expr(cov, s->u.loop.hi);
      cover_stmt(cov, s->u.loop.body);
      break;
    case ST_REPEAT: cover_expr(cov, s->u.repeat.count); cover_stmt(cov, s->u.repeat.body); break;
    case ST_IF:
    case ST_CHOOSE:
      cover_expr(cov, s->u.branch.cond);
      cover_stmt(cov, s->u.branch.then);
      if (s->u.branch.otherwise) {
        cov->else_branch++;
        cover_stmt(cov, s->u.branch.otherwise);
      }
      break;
  }
}

static void cover_decl(Coverage *cov, const Decl *d) {
  cov->decls[d->kind]++;
  switch (d->kind) {
    case DECL_IMPORT: break;
    case DECL_PARAM:
      cover_expr(cov, d->u.param.value);
      if (d->u.param.min) cov->param_range++;
      cover_expr(cov, d->u.param.min);
      cover_expr(cov, d->u.param.max);
      break;
    case DECL_CONST: cover_expr(cov, d->u.constant.value); break;
    case DECL_FN: cover_expr(cov, d->u.fn.body); break;
    case DECL_RESOURCE:
      if (d->u.resource.count && d->u.resource.servers) cov->resource_family_fcfs++;
      cover_expr(cov, d->u.resource.count);
      cover_expr(cov, d->u.resource.servers);
      if (d->u.resource.discipline == DISC_PS) cov->ps++;
      if (d->u.resource.handoff) cov->handoff++;
      cover_expr(cov, d->u.resource.handoff);
      break;
    case DECL_PROCESS: cover_stmt(cov, d->u.process.body); break;
  }
}

static void test_ok_models(void **state) {
  (void)state;
  glob_t found;
  assert_int_equal(glob("tests/models/ok/*.pam", 0, NULL, &found), 0);
  assert_int_equal(glob("tests/models/ok/*.mach", GLOB_APPEND, NULL, &found), 0);
  assert_true(found.gl_pathc >= 5);
  Coverage cov;
  memset(&cov, 0, sizeof cov);
  Arena arena;
  arena_init(&arena);
  for (size_t i = 0; i < found.gl_pathc; i++) {
    DiagList diags;
    diag_init(&diags);
    Module *module = parse_file(&arena, &diags, found.gl_pathv[i]);
    assert_non_null(module);
    if (diags.count) {
      char line[512];
      diag_format(&diags.items[0], line, sizeof line);
      fail_msg("%s", line);
    }
    assert_true(module->count > 0);
    for (int d = 0; d < module->count; d++) cover_decl(&cov, module->decls[d]);
    diag_free(&diags);
  }
  globfree(&found);
  arena_free(&arena);
  for (int k = 0; k <= DECL_PROCESS; k++) assert_true(cov.decls[k] > 0);
  for (int k = 0; k <= ST_HOLD; k++) assert_true(cov.stmts[k] > 0);
  for (int k = 0; k <= EX_BIND; k++) assert_true(cov.exprs[k] > 0);
  for (int k = 0; k <= OP_NOT; k++) assert_true(cov.ops[k] > 0);
  assert_true(cov.param_range > 0 && cov.resource_family_fcfs > 0 && cov.use_index > 0);
  assert_true(cov.else_branch > 0 && cov.units > 0);
  assert_true(cov.typ > 0 && cov.ps > 0 && cov.handoff > 0);
}

/* The §7 example, verbatim: its tree. */
static void test_language_example(void **state) {
  (void)state;
  Arena arena;
  DiagList diags;
  arena_init(&arena);
  diag_init(&diags);
  Module *module = parse_file(&arena, &diags, "tests/models/ok/language_example.pam");
  assert_non_null(module);
  assert_int_equal(diags.errors, 0);
  char *out = NULL;
  size_t size = 0;
  FILE *stream = open_memstream(&out, &size);
  ast_dump_module(module, stream);
  fclose(stream);
  assert_string_equal(out,
    "(param N 1000000)\n"
    "(param P 16)\n"
    "(param iters 100)\n"
    "(const t_point)\n"
    "(const latency)\n"
    "(const byte_time)\n"
    "(resource cpu [P])\n"
    "(resource bus)\n"
    "(fn msg (bytes) (+ latency (* bytes byte_time)))\n"
    "(process step (p) (block (use cpu[p] (* (ceil (/ N P)) t_point)) (use bus (msg (* 8 1024)))))\n"
    "(process main () (block (repeat iters (par p 0 (- P 1) (call step p)))))\n");
  free(out);
  diag_free(&diags);
  arena_free(&arena);
}

/* Each input that once crashed or misbehaved under the fuzzer parses cleanly now. */
static void test_syntax_regressions(void **state) {
  (void)state;
  glob_t found;
  assert_int_equal(glob("tests/models/syntax/*", 0, NULL, &found), 0);
  for (size_t i = 0; i < found.gl_pathc; i++) {
    Arena arena;
    DiagList diags;
    arena_init(&arena);
    diag_init(&diags);
    parse_file(&arena, &diags, found.gl_pathv[i]);
    assert_true(diags.errors <= DIAG_MAX_ERRORS);
    diag_free(&diags);
    arena_free(&arena);
  }
  globfree(&found);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_declarations),
    cmocka_unit_test(test_process_forms),
    cmocka_unit_test(test_simple_statements),
    cmocka_unit_test(test_compound_statements),
    cmocka_unit_test(test_block_and_parallel),
    cmocka_unit_test(test_bodies_exclude_parallel),
    cmocka_unit_test(test_dangling_else),
    cmocka_unit_test(test_arithmetic_precedence),
    cmocka_unit_test(test_logic_precedence),
    cmocka_unit_test(test_conditional),
    cmocka_unit_test(test_primaries),
    cmocka_unit_test(test_locations),
    cmocka_unit_test(test_missing_separators),
    cmocka_unit_test(test_missing_operands),
    cmocka_unit_test(test_misplaced_tokens),
    cmocka_unit_test(test_lexical_errors_in_context),
    cmocka_unit_test(test_recovery),
    cmocka_unit_test(test_error_cap),
    cmocka_unit_test(test_nesting_too_deep),
    cmocka_unit_test(test_unreadable_file),
    cmocka_unit_test(test_ok_models),
    cmocka_unit_test(test_language_example),
    cmocka_unit_test(test_syntax_regressions),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
