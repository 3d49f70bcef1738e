#!/usr/bin/env bash
# tests/e2e/syntax_errors.sh — `pamc check` on models with syntax errors prints each error as
# file:line:col: error: message (several per run) and fails; a good model passes.
. "$(dirname "$0")/lib/expect_errors.sh"

expect $'process main = a\nprocess q = b;\n' \
       "m.pam:2:1: error: expected ';' before 'process'"
expect $'param N = ;\nprocess main { a x }\nconst c = 3xs;\n' \
       "m.pam:1:11: error: expected expression before ';'
m.pam:2:18: error: expected ';' or '}' before 'x'
m.pam:3:12: error: unknown unit 'xs'"
expect $'process main { skip }\n/* never closed\n' \
       "m.pam:2:1: error: unterminated comment"

"$PAMC" check tests/models/ok/language_example.pam > "$work/ok.out" 2>&1 \
  || { echo "FAIL: the LANGUAGE.md example does not check"; cat "$work/ok.out"; status=1; }
exit $status
