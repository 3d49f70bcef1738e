/*
** reduce_bench.c — speed of the reduction (lang/reduce/reduce.h), measured in one run:
**   1. generated models of about 10, 100, 1000 and 10000 statements (a mix of every statement
**      form: use of single resources, of families by member, modulo and block index, delays,
**      seq and par loops with symbolic bounds, repeat, if on the loop index, choose, calls):
**      the time to load and check, the time to reduce, and the reduction time per statement
**      (flat when the cost is linear in the size of the model);
**   2. models of 10^3 .. 10^5 process definitions (each a few statements, called in turn by
**      main over P workers; some call the previous one): the time per definition (flat when
**      linear; issue 15 asks for at most 10 us per statement or definition at 10^5 of either);
**   3. models of 10^3 .. 10^5 statements each using its own member of a family (cpu[0],
**      cpu[1], ...): one demand term per statement (closing each term once took time in the size
**      of the whole model: 5.3 s at 10^5);
**   4. one model (a stencil, then a gather where worker 0 differs) with P set by -D to 2 .. 10^9: the time
**      to reduce at each P and the ratio of the slowest to the fastest, which should be about 1
**      (the cost of a reduction does not depend on the values of params or loop bounds).
** Ends with the verdict on issue 15's target: at most REDUCE_TARGET_US per statement of the models
** of 10^5 statements and per definition of the model of 10^5 definitions.
** Times are CPU time of this process, the mean of runs lasting BENCH_MIN_SECONDS.
** Usage: reduce_bench [scale]   (scale < 1 skips the largest models and repeats less)
**        reduce_bench --dump N  (prints the generated model of about N statements; --dump-defs
**                                and --dump-members the models of 2. and 3.)
**        reduce_bench --once N  (reduces that model once, for a profiler; also --once-defs N,
**                                --once-members N)
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "reduce.h"

#define BENCH_STATEMENTS_PER_PROCESS 10 /* each generated process body, as people write them */
#define BENCH_CALL_DEPTH 8             /* processes call each other in chains this deep */
#define BENCH_TEXT_MAX (16u << 20)      /* generated source of the largest model, with room */
#define BENCH_MIN_SECONDS 0.3           /* repeat a measurement until it lasts this long */
#define REDUCE_TARGET_US 10.0           /* issue 15: reduce time per statement or definition at 10^5 */
#define REDUCE_TARGET_SIZE 100000       /* ... of either */

typedef struct Text {
  char *data;                     /* the generated source */
  size_t length;                  /* bytes used */
  int statements;                 /* statements written so far */
  int definitions;                /* process definitions written so far */
} Text;

/* CPU time of this process: the reduction is single-threaded, so on an idle machine this is the
** wall time, and on a shared one (2 cores, several builds) it does not count the waits for a core. */
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void emit(Text *text, const char *line) {
  size_t n = strlen(line);
  if (text->length + n + 1 >= BENCH_TEXT_MAX) {
    fprintf(stderr, "reduce_bench: generated model too large\n");
    exit(1);
  }
  memcpy(text->data + text->length, line, n + 1);
  text->length += n;
}

/* Statement k of a worker process body (p is the worker's index), cycling through the forms;
** each call writes one statement (a compound one counts once, its body inside counts too). */
static void emit_statement(Text *text, int k, int proc) {
  char line[256];
  switch (k % BENCH_STATEMENTS_PER_PROCESS) {
  case 0: snprintf(line, sizeof line, "  use(cpu[p], work%d(n) * t_op)", proc % 4); break;
  case 1: snprintf(line, sizeof line, "  use(mem[p %% banks], 64 * n * t_byte)"); break;
  case 2: snprintf(line, sizeof line, "  use(net, send(8 * n))"); break;
  case 3: snprintf(line, sizeof line, "  delay(%d * t_op)", 1 + proc % 7); break;
  case 4:
    snprintf(line, sizeof line, "  seq (i = 1, iters) use(cpu[p], i * t_op)");
    text->statements++;
    break;
  case 5:
    snprintf(line, sizeof line, "  par (j = 0, 3) use(mem[floor(p / 4) %% banks], n * t_byte)");
    text->statements++;
    break;
  case 6:
    snprintf(line, sizeof line, "  if (p == 0) use(lock, %d * t_op) else delay(t_op)", proc + 1);
    text->statements += 2;
    break;
  case 7:
    snprintf(line, sizeof line, "  repeat (2) { use(net, send(n)) || use(cpu[p], n * t_op) }");
    text->statements += 3;
    break;
  case 8:
    snprintf(line, sizeof line, "  choose (0.25) use(lock, t_op) else delay(2 * t_op)");
    text->statements += 2;
    break;
  default:
    if (proc % BENCH_CALL_DEPTH) snprintf(line, sizeof line, "  helper%d(p)", proc - 1);
    else snprintf(line, sizeof line, "  use(cpu[p], t_op)");
    break;
  }
  text->statements++;
  emit(text, line);
}

/* A model of about `target` statements: processes of BENCH_STATEMENTS_PER_PROCESS statements
** each (the last one calling the previous process, so calls nest BENCH_CALL_DEPTH deep), run by
** main over P workers. */
static void generate(Text *text, int target) {
  text->length = 0;
  text->statements = 0;
  text->definitions = 0;
  text->data[0] = 0;
  emit(text, "param P = 64;\nparam n = 1000;\nparam iters = 10;\nparam banks = 4;\n"
             "const t_op = [0.9ns, 1.1ns];\nconst t_byte = [0.1ns, 0.12ns];\n"
             "const latency = [1us, 2us];\nconst byte_time = [0.4ns, 0.5ns];\n"
             "fn send(bytes) = latency + bytes * byte_time;\n"
             "fn work0(m) = m;\nfn work1(m) = 2 * m + 1;\nfn work2(m) = m * log2(m);\nfn work3(m) = ceil(m / 3);\n"
             "resource cpu[P];\nresource mem[banks];\nresource net = fcfs(2);\nresource lock;\n");
  int processes = (target + BENCH_STATEMENTS_PER_PROCESS * 2 - 1) / (BENCH_STATEMENTS_PER_PROCESS * 2);
  if (processes < 1) processes = 1;
  char line[128];
  for (int proc = 0; proc < processes; proc++) {
    snprintf(line, sizeof line, "process helper%d(p) {\n", proc);
    emit(text, line);
    text->definitions++;
    for (int k = 0; k < BENCH_STATEMENTS_PER_PROCESS; k++) {
      emit_statement(text, k, proc);
      emit(text, k + 1 < BENCH_STATEMENTS_PER_PROCESS ? ";\n" : "\n");
    }
    emit(text, "}\n");
  }
  emit(text, "process main {\n  par (p = 0, P - 1) {\n");
  text->definitions++;
  for (int proc = 0; proc < processes; proc++) {
    snprintf(line, sizeof line, "    helper%d(p)%s\n", proc, proc + 1 < processes ? ";" : "");
    emit(text, line);
    text->statements++;
  }
  emit(text, "  }\n}\n");
  text->statements += 1;
}

/* A model of `count` small process definitions: def k uses a member of a family, a single
** resource and a delay, and every fourth calls def k - 1; main calls each in turn inside a par
** over the workers. */
static void generate_defs(Text *text, int count) {
  char line[160];
  text->length = 0;
  text->statements = 0;
  text->definitions = count + 1;   /* and main */
  text->data[0] = 0;
  emit(text, "param P = 64;\nparam n = 1000;\nconst t_op = [0.9ns, 1.1ns];\n"
             "resource cpu[P];\nresource net = fcfs(2);\n");
  for (int k = 0; k < count; k++) {
    if (k % 4 == 3)
      snprintf(line, sizeof line, "process def%d(p) { use(cpu[p], %d * t_op); def%d(p) }\n", k, 1 + k % 5, k - 1);
    else
      snprintf(line, sizeof line, "process def%d(p) { use(cpu[p], %d * t_op); use(net, n * t_op); delay(t_op) }\n",
               k, 1 + k % 5);
    emit(text, line);
    text->statements += k % 4 == 3 ? 2 : 3;
  }
  emit(text, "process main {\n  par (p = 0, P - 1) {\n");
  for (int k = 0; k < count; k++) {
    snprintf(line, sizeof line, "    def%d(p)%s\n", k, k + 1 < count ? ";" : "");
    emit(text, line);
    text->statements++;
  }
  emit(text, "  }\n}\n");
  text->statements++;
}

/* A model of `count` statements, statement k a use of member k of a family of count members. */
static void generate_members(Text *text, int count) {
  char line[96];
  text->length = 0;
  text->statements = count;
  text->definitions = 1;
  text->data[0] = 0;
  snprintf(line, sizeof line, "param P = %d;\nconst t_op = [0.9ns, 1.1ns];\nresource cpu[P];\n", count);
  emit(text, line);
  emit(text, "process main {\n");
  for (int k = 0; k < count; k++) {
    snprintf(line, sizeof line, "  use(cpu[%d], %d * t_op)%s\n", k, 1 + k % 5, k + 1 < count ? ";" : "");
    emit(text, line);
  }
  emit(text, "}\n");
}

/* The generated models by the name --dump-NAME and --once-NAME give them ("" for the first). */
typedef struct Kind {
  const char *suffix;                     /* "", "-defs", "-members" */
  void (*generate)(Text *, int);          /* its generator */
} Kind;

static const Kind kinds[] = {{"", generate}, {"-defs", generate_defs}, {"-members", generate_members}};

/* The kind named by option (after "--dump" or "--once" of length prefix), or NULL. */
static const Kind *kind_of(const char *option, size_t prefix) {
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
    if (!strcmp(option + prefix, kinds[k].suffix)) return &kinds[k];
  return NULL;
}

/* Loads, checks and reduces text (with the -D values given); returns 0 and the two times. */
static int reduce_once(const char *text, const ProgramDefine *defines, int define_count,
                       double *load_seconds, double *reduce_seconds) {
  DiagList diags;
  diag_init(&diags);
  Program prog;
  ProgramOptions popts = {NULL, 0, defines, define_count, NULL};
  double start = now();
  int ok = program_load_string(&prog, &diags, "generated.pam", text, &popts) == PROGRAM_OK &&
           check_program(&prog) == 0;
  double loaded = now();
  ReduceOptions ropts = {0, 0};
  ReduceResult result;
  memset(&result, 0, sizeof result);
  ok = ok && reduce_program(&prog, &ropts, &result, &diags) == 0;
  double reduced = now();
  if (!ok) diag_print(&diags, stderr);
  reduce_result_free(&result);
  program_free(&prog);
  diag_free(&diags);
  *load_seconds = loaded - start;
  *reduce_seconds = reduced - loaded;
  return ok ? 0 : -1;
}

/* The mean of repeated reductions, repeated until they last min_seconds in all. */
static int reduce_timed(const char *text, const ProgramDefine *defines, int define_count,
                        double min_seconds, double *load_mean, double *reduce_mean) {
  double load_total = 0, reduce_total = 0;
  int runs = 0;
  do {
    double load, reduce;
    if (reduce_once(text, defines, define_count, &load, &reduce)) return -1;
    load_total += load;
    reduce_total += reduce;
    runs++;
  } while (load_total + reduce_total < min_seconds);
  *load_mean = load_total / runs;
  *reduce_mean = reduce_total / runs;
  return 0;
}

/* Times the models generate_model(text, size) makes for each size (up to 1000 when scale < 1): a
** line each with the definitions, the statements, the load+check and reduce times, and the reduce
** time per item (per statement, or per definition when by_definition). Writes the time per item
** at REDUCE_TARGET_SIZE into *at_target (untouched when that size is skipped). Returns 0, or 1
** when a model fails (text freed). */
static int time_sizes(Text *text, void (*generate_model)(Text *, int), const int *sizes, size_t count,
                      double scale, double min_seconds, int by_definition, double *at_target) {
  for (size_t s = 0; s < count; s++) {
    if (scale < 1 && sizes[s] > 1000) break;
    generate_model(text, sizes[s]);
    double load, reduce;
    if (reduce_timed(text->data, NULL, 0, min_seconds, &load, &reduce)) {
      fprintf(stderr, "reduce_bench: the generated model of size %d failed\n", sizes[s]);
      free(text->data);
      return 1;
    }
    double per = reduce / (by_definition ? text->definitions : text->statements) * 1e6;
    printf("  %10d %10d %10zu %11.3f ms %11.3f ms %13.2f us\n", text->definitions, text->statements,
           text->length, load * 1e3, reduce * 1e3, per);
    if (sizes[s] == REDUCE_TARGET_SIZE) *at_target = per;
  }
  return 0;
}

/* The verdict line on one half of the target (at < 0: not measured, scale < 1). Returns 1 on a
** miss. */
static int verdict(const char *what, double at) {
  if (at < 0) {
    printf("  %-11s at 10^5: not measured (scale < 1)\n", what);
    return 0;
  }
  int pass = at <= REDUCE_TARGET_US;
  printf("  %-11s at 10^5: %6.2f us (target <= %.0f us): %s\n", what, at, REDUCE_TARGET_US,
         pass ? "pass" : "FAIL");
  return !pass;
}

/* --once[-KIND] N: the model reduced once, its times printed (for a profiler). */
static int once(Text *text, const Kind *kind, int size) {
  kind->generate(text, size);
  double load, reduce;
  int failed = reduce_once(text->data, NULL, 0, &load, &reduce);
  if (!failed)
    printf("%d definitions, %d statements: load+check %.3f ms, reduce %.3f ms\n", text->definitions,
           text->statements, load * 1e3, reduce * 1e3);
  free(text->data);
  return failed ? 1 : 0;
}

static const char stencil_model[] =
  "param n = 4096;\nparam P = 16;\nparam steps = 50;\nparam links = 4;\n"
  "const t_point = [0.9ns, 1.1ns];\nconst latency = [1.8us, 2.2us];\nconst byte_time = [0.45ns, 0.55ns];\n"
  "resource cpu[P];\nresource net = fcfs(links);\n"
  "fn halo(side) = latency + 8 * side * byte_time;\n"
  "process block(b) {\n  use(cpu[b], ceil(n / sqrt(P)) ^ 2 * t_point);\n  repeat (4) use(net, halo(ceil(n / sqrt(P))))\n}\n"
  "process main {\n  repeat (steps) par (b = 0, P - 1) block(b);\n"
  "  par (b = 0, P - 1) if (b == 0) use(cpu[b], P * t_point) else use(net, halo(1))\n}\n";

int main(int argc, char **argv) {
  Text text = {malloc(BENCH_TEXT_MAX), 0, 0, 0};
  if (!text.data) return 1;
  const Kind *kind;
  if (argc > 2 && !strncmp(argv[1], "--dump", 6) && (kind = kind_of(argv[1], 6))) {
    kind->generate(&text, atoi(argv[2]));   /* the model, to look at */
    fputs(text.data, stdout);
    free(text.data);
    return 0;
  }
  if (argc > 2 && !strncmp(argv[1], "--once", 6) && (kind = kind_of(argv[1], 6)))
    return once(&text, kind, atoi(argv[2]));
  if (argc > 1 && argv[1][0] == '-') {
    fprintf(stderr, "usage: reduce_bench [scale] | --dump[-defs|-members] N | --once[-defs|-members] N\n");
    free(text.data);
    return 2;
  }
  double scale = argc > 1 ? atof(argv[1]) : 1;
  if (scale <= 0) scale = 1;
  double min_seconds = BENCH_MIN_SECONDS * (scale < 1 ? scale : 1);
  printf("reduce: generated models (every statement form), mean of runs lasting >= %.2f s\n", min_seconds);
  printf("  %10s %10s %10s %14s %14s %16s\n", "defs", "statements", "bytes", "load+check", "reduce",
         "reduce/stmt");
  double per_statement = -1, per_definition = -1, per_member = -1;
  static const int sizes[] = {10, 100, 1000, 10000, 100000};
  if (time_sizes(&text, generate, sizes, sizeof sizes / sizeof sizes[0], scale, min_seconds, 0,
                 &per_statement)) return 1;
  printf("reduce: generated models of many process definitions (a few statements each)\n");
  printf("  %10s %10s %10s %14s %14s %16s\n", "defs", "statements", "bytes", "load+check", "reduce",
         "reduce/def");
  static const int def_counts[] = {1000, 10000, 100000};
  if (time_sizes(&text, generate_defs, def_counts, sizeof def_counts / sizeof def_counts[0], scale,
                 min_seconds, 1, &per_definition)) return 1;
  printf("reduce: generated models of statements each using its own member of a family\n");
  printf("  %10s %10s %10s %14s %14s %16s\n", "defs", "statements", "bytes", "load+check", "reduce",
         "reduce/stmt");
  if (time_sizes(&text, generate_members, def_counts, sizeof def_counts / sizeof def_counts[0], scale,
                 min_seconds, 0, &per_member)) return 1;
  free(text.data);

  printf("reduce: stencil model with P set by -D, same model text each time\n");
  printf("  %12s %14s\n", "P", "reduce");
  static const char *const p_values[] = {"2", "100", "10_000", "1_000_000", "100_000_000", "1_000_000_000"};
  double fastest = 0, slowest = 0, warm_load, warm_reduce;
  ProgramDefine warm = {"P", p_values[0], "P=2"};   /* caches and allocator warmed before timing */
  if (reduce_timed(stencil_model, &warm, 1, min_seconds, &warm_load, &warm_reduce)) return 1;
  for (size_t k = 0; k < sizeof p_values / sizeof p_values[0]; k++) {
    char raw[64];
    snprintf(raw, sizeof raw, "P=%s", p_values[k]);
    ProgramDefine define = {"P", p_values[k], raw};
    double load, reduce;
    if (reduce_timed(stencil_model, &define, 1, min_seconds, &load, &reduce)) {
      fprintf(stderr, "reduce_bench: the stencil model at P = %s failed\n", p_values[k]);
      return 1;
    }
    printf("  %12s %11.3f us\n", p_values[k], reduce * 1e6);
    if (k == 0 || reduce < fastest) fastest = reduce;
    if (k == 0 || reduce > slowest) slowest = reduce;
  }
  printf("  slowest / fastest = %.2f (about 1: the cost does not depend on P)\n", slowest / fastest);
  printf("reduce: issue 15's target, reduce time (CPU) per item at 10^5 statements or definitions\n");
  int missed = verdict("statement", per_statement);
  missed += verdict("definition", per_definition);
  missed += verdict("member use", per_member);
  return missed ? 1 : 0;
}
