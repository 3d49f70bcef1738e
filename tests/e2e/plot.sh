#!/bin/sh
# plot.sh — `pamc predict --plot`: PNG and SVG rendered by gnuplot with no warning, of the size
# asked, titled; axes chosen from the values (log for a geometric sweep however given, linear
# otherwise, --logx/--logy/--linear), the time unit from the data, ranges that fit; one labelled
# curve per value of a second swept param; the change of bottleneck marked; --plot-data keeps a
# script that redraws the plot.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
die() { echo "plot.sh: $*"; exit 1; }
command -v gnuplot >/dev/null 2>&1 || { echo "plot.sh: no gnuplot, skipped"; exit 0; }
H="models/halo.pam -m models/machine.mach"

# plot NAME ARGS...: predict --plot $tmp/NAME --plot-data $tmp/NAME.d; stderr must stay empty
# (gnuplot's warnings pass through it)
plot() {
  name=$1; shift
  "$PAMC" predict "$@" --plot "$tmp/$name" --plot-data "$tmp/$name.d" >/dev/null 2>"$tmp/err" \
    || die "$name: status $?: $(cat "$tmp/err")"
  [ -s "$tmp/err" ] && die "$name: gnuplot or pamc said: $(cat "$tmp/err")"
  [ -s "$tmp/$name" ] || die "$name: no plot"
  gp="$tmp/$name.d/plot.gp"
  [ -s "$gp" ] && [ -s "$tmp/$name.d/plot.dat" ] || die "$name: --plot-data kept nothing"
}
# png_check NAME: a PNG of 900 x 560 pixels of some substance (a blank frame is ~5 KB)
png_check() {
  [ "$(od -An -tx1 -N8 "$tmp/$1" | tr -d ' \n')" = 89504e470d0a1a0a ] || die "$1 is not a PNG"
  [ "$(od -An -tu1 -j16 -N8 "$tmp/$1" | tr -s ' ' | sed 's/^ //')" = "0 0 3 132 0 0 2 48" ] \
    || die "$1 is not 900 x 560: $(od -An -tu1 -j16 -N8 "$tmp/$1")"
  [ "$(wc -c < "$tmp/$1")" -gt 20000 ] || die "$1 is nearly empty: $(wc -c < "$tmp/$1") bytes"
}
has() { grep -q -- "$2" "$tmp/$1.d/plot.gp" || die "$1: the script lacks '$2': $(cat "$tmp/$1.d/plot.gp")"; }
lacks() { grep -q -- "$2" "$tmp/$1.d/plot.gp" && die "$1: the script has '$2'"; return 0; }

# a geometric sweep: log x on powers of two with a tick per value, log y (0.01 .. 0.7 s), in ms,
# x drawn up to 1024 (not 10,000), the change from critical path to bus between P = 8 and 16
plot geo.png $H -D P=1..1024:*2
png_check geo.png
has geo.png "set logscale x 2"
has geo.png "set logscale y"
has geo.png "set ylabel 'time (ms)'"
has geo.png "'1024' 1024)"
has geo.png "set title 'halo.pam — machine.mach — "
has geo.png "critical path → bus"
x_max=$(sed -n 's/^set xrange \[.*:\(.*\)\]$/\1/p' "$tmp/geo.png.d/plot.gp")
awk -v x="$x_max" 'BEGIN { exit !(x > 1024 && x < 1400) }' || die "x axis to $x_max for data to 1024"
arrow=$(sed -n 's/^set arrow from \([0-9.e+]*\),.*/\1/p' "$tmp/geo.png.d/plot.gp")
awk -v x="$arrow" 'BEGIN { exit !(x > 8 && x < 16) }' || die "bottleneck change marked at $arrow, not in 8 .. 16"
# the kept script redraws the plot in its directory
(cd "$tmp/geo.png.d" && gnuplot plot.gp 2>&1) | grep . && die "the kept script made gnuplot speak"
[ -s "$tmp/geo.png.d/geo.png" ] || die "the kept script drew nothing"

# the same values as a list: log axes too
plot list.png $H -D P=1,2,4,8,16,32,64,128,256,512,1024
png_check list.png
has list.png "set logscale x 2"
# a linear sweep: linear axes, y from 0
plot lin.png $H -D P=1..12
png_check lin.png
lacks lin.png "set logscale x"
has lin.png "set yrange \[0:"
# forced
plot forced.png $H -D P=1..12 --logx --logy
has forced.png "set logscale x"
has forced.png "set logscale y"
plot linear.png $H -D P=1..1024:*2 --linear
lacks linear.png "logscale"

# a second swept param: one labelled curve (band and line) per value, and the SVG's title
plot two.svg $H -D P=1..1024:*2 -D N=1e5,1e6,1e7
grep -q '<title>halo.pam — machine.mach — ' "$tmp/two.svg" || die "svg title: $(grep -m1 '<title>' "$tmp/two.svg")"
grep -q '<title>Gnuplot</title>' "$tmp/two.svg" && die "svg titled Gnuplot"
[ "$(grep -c "with linespoints.*title 'N=" "$tmp/two.svg.d/plot.gp")" -eq 3 ] || die "want 3 labelled curves"
[ "$(grep -c "index [0-9]* using 1:(\$2/s):(\$4/s) with filledcurves" "$tmp/two.svg.d/plot.gp")" -eq 3 ] || die "want 3 bands"
[ "$(grep -c '^# N=' "$tmp/two.svg.d/plot.dat")" -eq 3 ] || die "want 3 data blocks"
plot two.png $H -D P=1..1024:*2 -D N=1e5,1e6,1e7
png_check two.png
# two curves whose bottleneck changes the same way between the same two points share one label
# (halo.pam at iters = 10 and 100: both go from the critical path to the bus between P = 8 and 16):
# two arrows, one in each curve's colour, and one label, not two stacked copies
plot same.png $H -D P=1..1024:*2 -D iters=10,100
[ "$(grep -c '^set arrow' "$tmp/same.png.d/plot.gp")" -eq 2 ] || die "same change: want 2 marks: $(grep '^set arrow' "$tmp/same.png.d/plot.gp")"
[ "$(grep -c "^set label 'critical path → bus'" "$tmp/same.png.d/plot.gp")" -eq 1 ] \
  || die "same change: want one label: $(grep '^set label' "$tmp/same.png.d/plot.gp")"

# too many curves is refused before any work (status 2), nothing written
"$PAMC" predict $H -D P=1..4 -D N=1..20 --plot "$tmp/many.png" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || die "20 curves: want status 2"
grep -q "curve" "$tmp/err" || die "20 curves: $(cat "$tmp/err")"
[ -e "$tmp/many.png" ] && die "20 curves: a plot was written"
# the plot options go with --plot
"$PAMC" predict $H -D P=1..4 --logx >/dev/null 2>&1
[ $? -eq 2 ] || die "--logx without --plot: want status 2"
ls "$tmp" | grep -q tmp && die "a temporary file was left: $(ls "$tmp")"
exit 0
