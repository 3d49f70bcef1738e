#!/bin/bash
# q.sh FILE NAME v1 v2 ...
f=$1; n=$2; shift 2
for v in "$@"; do
  s=$(nice -n 15 timeout 60 /tmp/s11/pamc_base simulate $f -D $n=$v --scenario typ --format csv -q | sed -n 2p | cut -d, -f2)
  p=$(nice -n 15 timeout 120 /tmp/s11/pamc_base predict $f -D $n=$v --format csv -q | sed -n 2p)
  python3 - "$f" "$v" "$s" "$p" <<'PY'
import sys
f,v,s,p=sys.argv[1:]; s=float(s); x=p.split(','); lo,est,hi=map(float,x[1:4])
flag=[]
if s<lo*(1-1e-9) or s>hi*(1+1e-9): flag.append('UNSOUND')
if abs(est-s)/s>0.05: flag.append('EST')
if hi/s>2*(1+1e-9): flag.append('HI')
print(f"{f:28s} {v:>6} sim={s:.6g} lo={lo:.6g} est={est:.6g} hi={hi:.6g} sim/lo={s/lo:.3f} hi/sim={hi/s:.3f} err={100*(est-s)/s:+.1f}% {' '.join(flag)} {x[4]}")
PY
done
