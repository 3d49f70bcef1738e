/*
** bench_pagefault.c — the first touch of fresh memory: a program that computes into an array it
** has just allocated (calloc or malloc of megabytes: the C library maps new pages, and the
** kernel gives each one on its first access) pays a page fault per page inside its timed work.
**
** t_page_fault       per 4 KiB page: one write to each page of a fresh anonymous mapping of
**                    CAL_PF_PAGES pages (mmap before, munmap after, neither timed): the fault, the
**                    zeroing of the page and its mapping.
** t_page_fault_parT  the same with T = 2 .. N threads (at most CAL_PF_MAX_THREADS) each touching its
**                    own slice of one fresh mapping at once (as threads splitting the rows of one
**                    result array do), per page of one thread.
** t_page_fault_rw, t_page_fault_rw_parT  the first access a read, then a write (`c[i] += x` on
**                    calloc'd memory): the read maps the shared zero page, the write then faults
**                    again to copy it, and that fault's TLB flush interrupts every other CPU the
**                    process runs on. In this VM: 3 us a page alone, 16 us a page each with 2
**                    threads (against 1.3 and 1.5 us for a first write): a 512 x 512 product into a
**                    fresh calloc'd C took 6 ms more on 2 threads, 13.7 ms of computing.
** thread_fns.c writes fn t_page_fault_shared(threads) and t_page_fault_rw_shared(threads).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "bench.h"
#include "par_run.h"

#define CAL_PF_PAGES 1024         /* pages per sample: 4 MiB, ~1-4 ms of faults */
#define CAL_PF_MAX_THREADS 8      /* thread counts measured at most */

typedef struct PfMember {
  volatile char *first;           /* this thread's first page */
  size_t pages;                   /* its pages */
  size_t page;                    /* the page size */
  int read_first;                 /* read each page before writing it */
} PfMember;

static void pf_work(void *arg) {
  const PfMember *pm = arg;
  if (pm->read_first)
    for (size_t i = 0; i < pm->pages; i++) {
      char v = pm->first[i * pm->page];
      pm->first[i * pm->page] = (char)(v + 1);
    }
  else
    for (size_t i = 0; i < pm->pages; i++) pm->first[i * pm->page] = 1;
}

static int pf_max_threads(long cores) {
  return cores > CAL_PF_MAX_THREADS ? CAL_PF_MAX_THREADS : (int)cores;
}

int cal_bench_pagefault_count(const CalOptions *opt) {
  (void)opt;
  int threads = pf_max_threads(cal_bench_cores());
  return 2 * (threads < 2 ? 1 : threads);
}

/* One series: t threads each touching pages / t fresh pages of one mapping, per page of one. */
static int pf_series(CalRun *run, int t, size_t page, int read_first, CalError *err) {
  char name[CAL_NAME_MAX], bench[CAL_BENCH_MAX];
  const char *rw = read_first ? "_rw" : "";
  if (t == 1) snprintf(name, sizeof name, "t_page_fault%s", rw);
  else snprintf(name, sizeof name, "t_page_fault%s_par%d", rw, t);
  snprintf(bench, sizeof bench, "first %s a fresh %zu-byte page, %d thread%s at once; per page",
           read_first ? "read + write of" : "write to", page % 100000, t % 100, t > 1 ? "s" : "");
  CalSeries *series = cal_run_add_series(run, name, bench, CAL_KIND_TIME, 0, err);
  if (!series) return -1;
  size_t per = CAL_PF_PAGES / (size_t)t, bytes = per * (size_t)t * page;
  PfMember pm[CAL_PF_MAX_THREADS];
  CalParMember members[CAL_PF_MAX_THREADS];
  memset(members, 0, sizeof members);
  for (int rep = 0; rep < run->round_reps; rep++) {
    char *map = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) return cal_fail(err, "cannot map %zu bytes for the page-fault benchmark", bytes);
    for (int i = 0; i < t; i++) {
      pm[i] = (PfMember){map + (size_t)i * per * page, per, page, read_first};
      members[i].work = pf_work;
      members[i].arg = &pm[i];
    }
    double elapsed = 0;
    int status = 0;
    if (t == 1) {
      double t0 = cal_now();
      pf_work(&pm[0]);
      elapsed = cal_now() - t0;
    } else {
      status = cal_par_run(members, t, &elapsed, err);
    }
    munmap(map, bytes);
    if (status) return -1;
    cal_series_push(series, elapsed / (double)per);
  }
  cal_run_finished(run, series);
  return 0;
}

int cal_bench_pagefault(CalRun *run, CalError *err) {
  long page = sysconf(_SC_PAGESIZE);
  if (page <= 0) page = 4096;
  int threads = pf_max_threads(run->cores);
  for (int read_first = 0; read_first <= 1; read_first++)
    for (int t = 1; t <= (threads < 2 ? 1 : threads); t++)
      if (pf_series(run, t, (size_t)page, read_first, err)) return -1;
  return 0;
}
