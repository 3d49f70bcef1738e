/*
** par_run.c — T threads released together on one piece of work each, timed to the last one's end.
*/
#include "par_run.h"

static void *par_member(void *arg) {
  CalParMember *m = arg;
  int go;
  while ((go = atomic_load(m->go)) == 0) {}       /* spin: released within nanoseconds */
  if (go < 0) return NULL;
  m->work(m->arg);
  m->end = cal_now();
  return NULL;
}

int cal_par_run(CalParMember *members, int n, double *elapsed, CalError *err) {
  atomic_int go = 0;
  int started = 1;
  for (; started < n; started++) {
    members[started].go = &go;
    if (pthread_create(&members[started].id, NULL, par_member, &members[started])) break;
  }
  if (started < n) {
    atomic_store(&go, -1);
    for (int i = 1; i < started; i++) pthread_join(members[i].id, NULL);
    return cal_fail(err, "cannot start %d threads at once", n);
  }
  double release = cal_now();
  atomic_store(&go, 1);
  members[0].work(members[0].arg);
  double last = cal_now();
  for (int i = 1; i < n; i++) {
    pthread_join(members[i].id, NULL);
    if (members[i].end > last) last = members[i].end;
  }
  *elapsed = last - release;
  return 0;
}
