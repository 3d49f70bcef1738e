/* primes_tasks.c — the tasks of the primes example (models/gen/primes.spec) in C, for
** `pamc gen models/gen/primes.spec -l models/gen/primes_tasks.c`: the cost library is
** extracted from this code. Each task is called with (count, task) as GEN.md says. Testing a
** number by trial division takes a data-dependent number of divisions: the pragma says how many
** on average (about sqrt(N) / ln(N) for the numbers up to N; 60 for N = 10^6). */
#define N 1000000
static long numbers[N];
static int is_prime[N];

void DivideData(int count, int task) {
  for (long i = 0; i < N; i++)
    numbers[i] = i;
}

void ProcessData(int count, int task) {
  long first = (long)task * (N / count), last = first + N / count;
  for (long i = first; i < last; i++) {
    long v = numbers[i], d = 2;
    int prime = v > 1;
#pragma pamc loop_count(60)
    while (d * d <= v) {
      if (v % d == 0) { prime = 0; break; }
      d++;
    }
    is_prime[i] = prime;
  }
}

void CollectResults(int count, int task) {
  long primes = 0;
  for (long i = 0; i < N; i++)
    primes += is_prime[i];
  numbers[0] = primes;
}
