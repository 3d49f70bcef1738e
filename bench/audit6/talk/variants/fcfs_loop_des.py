# Hand FCFS simulation of T threads x n equal bursts on fcfs(C), with the spec's tie rule
# (requests made at the same instant queue in program order = thread index), to confirm that
# pamc simulate's 60us for variants/thr_min.pam (T=5, C=4, n=4) is the spec'd semantics:
# the tie rule lets low-index threads overtake thread 4, which lags and finishes alone.
import heapq
def run(T, C, counts, t=10):
    left = list(counts); free = C; q = []; ev = []; seq = 0; now = 0
    pending = sorted(range(T))
    end = 0
    while True:
        for w in pending:                      # same-instant requests in program order
            if free > 0 and not q:
                free -= 1; heapq.heappush(ev, (now + t, seq, w)); seq += 1
            else:
                q.append(w)
        if not ev: break
        now = ev[0][0]; done = []
        while ev and ev[0][0] == now:
            _, _, w = heapq.heappop(ev); done.append(w); left[w] -= 1; free += 1
        while q and free > 0:
            free -= 1; x = q.pop(0); heapq.heappush(ev, (now + t, seq, x)); seq += 1
        end = now
        pending = sorted(w for w in done if left[w] > 0)
    return end
for T, C, n in [(5, 4, 3), (5, 4, 4), (5, 4, 13), (3, 2, 3)]:
    print(f"T={T} C={C} n={n}: {run(T, C, [n] * T)} us (ideal ceil(nT/C) t = {-(-n * T // C) * 10})")
print("unequal T=7 C=2 (w+1 bursts):", run(7, 2, [w + 1 for w in range(7)]))
