/*
** test_lexer.c — the scanner (parser/lexer.l through parse_tokenize): numbers and their units,
** underscores, comments, keywords against names, punctuation, locations and lexical errors.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "parse.h"

typedef struct Lexed {
  Arena arena;
  DiagList diags;
  ParseToken *tokens;
  int count;
} Lexed;

static int setup(void **state) {
  Lexed *lexed = calloc(1, sizeof *lexed);
  arena_init(&lexed->arena);
  diag_init(&lexed->diags);
  *state = lexed;
  return 0;
}

static int teardown(void **state) {
  Lexed *lexed = *state;
  diag_free(&lexed->diags);
  arena_free(&lexed->arena);
  free(lexed);
  return 0;
}

static void lex(Lexed *lexed, const char *text) {
  lexed->count = parse_tokenize(&lexed->arena, &lexed->diags, "t.pam", text, strlen(text), &lexed->tokens);
  assert_true(lexed->count >= 1);
  assert_string_equal(lexed->tokens[lexed->count - 1].spelling, "end of input");
}

/* The only error reported, formatted. */
static const char *only_error(Lexed *lexed) {
  static char line[512];
  assert_int_equal(lexed->diags.count, 1);
  diag_format(&lexed->diags.items[0], line, sizeof line);
  return line;
}

/* A single number token: its value, digits and exact unit. */
static void check_number(const char *text, double value, const char *digits, int64_t num, int64_t den) {
  Lexed lexed;
  memset(&lexed, 0, sizeof lexed);
  arena_init(&lexed.arena);
  diag_init(&lexed.diags);
  lex(&lexed, text);
  assert_int_equal(lexed.diags.errors, 0);
  assert_int_equal(lexed.count, 2);
  assert_string_equal(lexed.tokens[0].spelling, "number");
  const Expr *number = lexed.tokens[0].number;
  assert_non_null(number);
  assert_int_equal(number->kind, EX_NUM);
  assert_true(number->u.num.value == value);
  assert_string_equal(number->u.num.text, digits);
  assert_int_equal(number->u.num.unit_num, num);
  assert_int_equal(number->u.num.unit_den, den);
  diag_free(&lexed.diags);
  arena_free(&lexed.arena);
}

static void test_plain_numbers(void **state) {
  (void)state;
  check_number("12", 12.0, "12", 1, 1);
  check_number("0.5", 0.5, "0.5", 1, 1);
  check_number("1.5e-9", 1.5e-9, "1.5e-9", 1, 1);
  check_number("2E+3", 2000.0, "2E+3", 1, 1);
  check_number("1_000_000", 1000000.0, "1000000", 1, 1);
  check_number("3.141_592", 3.141592, "3.141592", 1, 1);
}

static void test_units(void **state) {
  (void)state;
  check_number("2.5us", 2.5e-6, "2.5", 1, 1000000);
  check_number("0.1us", 1e-7, "0.1", 1, 1000000);   /* one rounding: the nearest double to 1e-7 */
  check_number("3ms", 0.003, "3", 1, 1000);
  check_number("7ns", 7e-9, "7", 1, 1000000000);
  check_number("1.5e3ns", 1.5e-6, "1.5e3", 1, 1000000000);
  check_number("4s", 4.0, "4", 1, 1);
  check_number("64KiB", 65536.0, "64", 1024, 1);
  check_number("2MiB", 2097152.0, "2", 1048576, 1);
  check_number("2GiB", 2147483648.0, "2", 1073741824, 1);
  check_number("8B", 8.0, "8", 1, 1);
  check_number("3KB", 3000.0, "3", 1000, 1);
  check_number("1_500MB", 1.5e9, "1500", 1000000, 1);
  check_number("0.25GB", 2.5e8, "0.25", 1000000000, 1);
}

static void test_unknown_unit(void **state) {
  Lexed *lexed = *state;
  lex(lexed, "x = 3xs;");
  assert_string_equal(only_error(lexed), "t.pam:1:6: error: unknown unit 'xs'");
  assert_string_equal(lexed->tokens[2].spelling, "number");   /* still a number, unit dropped */
  assert_true(lexed->tokens[2].number->u.num.value == 3.0);
}

static void test_exponent_without_digits_is_a_unit(void **state) {
  Lexed *lexed = *state;
  lex(lexed, "2e");
  assert_string_equal(only_error(lexed), "t.pam:1:2: error: unknown unit 'e'");
}

static void test_number_too_large(void **state) {
  Lexed *lexed = *state;
  lex(lexed, "1e400");
  assert_string_equal(only_error(lexed), "t.pam:1:1: error: number '1e400' is too large");
}

static void test_range_dots_split_numbers(void **state) {
  Lexed *lexed = *state;
  lex(lexed, "1..4096");
  assert_int_equal(lexed->diags.errors, 0);
  assert_int_equal(lexed->count, 4);
  assert_string_equal(lexed->tokens[0].text, "1");
  assert_string_equal(lexed->tokens[1].spelling, "..");
  assert_string_equal(lexed->tokens[2].text, "4096");
}

static void test_keywords_and_names(void **state) {
  Lexed *lexed = *state;
  static const char *keywords[] = {"import", "param", "const", "fn", "resource", "process", "in",
                                   "fcfs", "delay", "use", "seq", "par", "repeat", "if", "else",
                                   "choose", "skip", "and", "or", "not"};
  char text[256] = "";
  for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++) {
    strcat(text, keywords[i]);
    strcat(text, " ");
  }
  strcat(text, "imports param_ _x9 Sum");
  lex(lexed, text);
  assert_int_equal(lexed->diags.errors, 0);
  int n = (int)(sizeof keywords / sizeof keywords[0]);
  assert_int_equal(lexed->count, n + 5);
  for (int i = 0; i < n; i++) assert_string_equal(lexed->tokens[i].spelling, keywords[i]);
  for (int i = n; i < n + 4; i++) assert_string_equal(lexed->tokens[i].spelling, "name");
  assert_string_equal(lexed->tokens[n].value, "imports");
  assert_string_equal(lexed->tokens[n + 1].value, "param_");
}

static void test_punctuation(void **state) {
  Lexed *lexed = *state;
  static const char *expected[] = {";", ",", "(", ")", "[", "]", "{", "}", "==", "=", "..", "||",
                                   "?", ":", "+", "-", "*", "/", "%", "^", "!=", "<=", "<", ">=", ">"};
  lex(lexed, "; , ( ) [ ] { } === .. || ? : + - * / % ^ != <= < >= >");
  assert_int_equal(lexed->diags.errors, 0);
  int n = (int)(sizeof expected / sizeof expected[0]);
  assert_int_equal(lexed->count, n + 1);
  for (int i = 0; i < n; i++) assert_string_equal(lexed->tokens[i].spelling, expected[i]);
}

static void test_comments(void **state) {
  Lexed *lexed = *state;
  lex(lexed, "a # hash comment b\n"
             "c // slash comment d\n"
             "e /* block\n comment ** f */ g /**/ h /* x*y */");
  assert_int_equal(lexed->diags.errors, 0);
  const char *names[] = {"a", "c", "e", "g", "h"};
  assert_int_equal(lexed->count, 6);
  for (int i = 0; i < 5; i++) assert_string_equal(lexed->tokens[i].value, names[i]);
  assert_int_equal(lexed->tokens[3].loc.line, 4);   /* g, after a comment spanning a newline */
}

static void test_unterminated_comment(void **state) {
  Lexed *lexed = *state;
  lex(lexed, "a\n  /* never closed\n b c");
  assert_string_equal(only_error(lexed), "t.pam:2:3: error: unterminated comment");
  assert_int_equal(lexed->count, 2);                 /* a, end of input: the rest is comment */
  assert_int_equal(lexed->tokens[1].loc.line, 3);    /* end of input where the text ends */
  assert_int_equal(lexed->tokens[1].loc.col, 5);
}

static void test_strings(void **state) {
  Lexed *lexed = *state;
  lex(lexed, "import \"lib/machine.mach\";");
  assert_int_equal(lexed->diags.errors, 0);
  assert_string_equal(lexed->tokens[1].spelling, "string");
  assert_string_equal(lexed->tokens[1].value, "lib/machine.mach");
}

static void test_unterminated_string(void **state) {
  Lexed *lexed = *state;
  lex(lexed, "import \"abc\n;");
  assert_string_equal(only_error(lexed), "t.pam:1:8: error: unterminated string");
  assert_string_equal(lexed->tokens[1].value, "abc");
}

static void test_stray_characters(void **state) {
  Lexed *lexed = *state;
  lex(lexed, "a @ b | \x01 \xc3\xa9");
  assert_int_equal(lexed->diags.count, 4);
  char line[256];
  diag_format(&lexed->diags.items[0], line, sizeof line);
  assert_string_equal(line, "t.pam:1:3: error: unexpected character '@'");
  diag_format(&lexed->diags.items[1], line, sizeof line);
  assert_string_equal(line, "t.pam:1:7: error: unexpected character '|'");
  diag_format(&lexed->diags.items[2], line, sizeof line);
  assert_string_equal(line, "t.pam:1:9: error: unexpected character '\\x01'");
  diag_format(&lexed->diags.items[3], line, sizeof line);
  assert_string_equal(line, "t.pam:1:11: error: unexpected character '\xc3\xa9'");
  assert_int_equal(lexed->count, 3);                 /* a, b, end of input */
}

static void test_locations(void **state) {
  Lexed *lexed = *state;
  lex(lexed, "param N\n\t= 2.5us;\n\n  x");
  assert_int_equal(lexed->diags.errors, 0);
  assert_int_equal(lexed->count, 7);
  /* param: 1:1-1:5, N: 1:7, '=': 2:2 (a tab is one column), 2.5us: 2:4-2:8, ';' 2:9, x 4:3 */
  const int expect[][4] = {{1, 1, 1, 5}, {1, 7, 1, 7}, {2, 2, 2, 2}, {2, 4, 2, 8}, {2, 9, 2, 9}, {4, 3, 4, 3}};
  for (int i = 0; i < 6; i++) {
    assert_int_equal(lexed->tokens[i].loc.line, expect[i][0]);
    assert_int_equal(lexed->tokens[i].loc.col, expect[i][1]);
    assert_int_equal(lexed->tokens[i].loc.end_line, expect[i][2]);
    assert_int_equal(lexed->tokens[i].loc.end_col, expect[i][3]);
    assert_string_equal(lexed->tokens[i].loc.file, "t.pam");
  }
  assert_int_equal(lexed->tokens[6].loc.line, 4);
  assert_int_equal(lexed->tokens[6].loc.col, 4);
}

static void test_nul_byte(void **state) {
  Lexed *lexed = *state;
  lexed->count = parse_tokenize(&lexed->arena, &lexed->diags, "t.pam", "a\0b", 3, &lexed->tokens);
  assert_int_equal(lexed->count, 3);
  assert_string_equal(only_error(lexed), "t.pam:1:2: error: unexpected character '\\x00'");
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_plain_numbers),
    cmocka_unit_test(test_units),
    cmocka_unit_test_setup_teardown(test_unknown_unit, setup, teardown),
    cmocka_unit_test_setup_teardown(test_exponent_without_digits_is_a_unit, setup, teardown),
    cmocka_unit_test_setup_teardown(test_number_too_large, setup, teardown),
    cmocka_unit_test_setup_teardown(test_range_dots_split_numbers, setup, teardown),
    cmocka_unit_test_setup_teardown(test_keywords_and_names, setup, teardown),
    cmocka_unit_test_setup_teardown(test_punctuation, setup, teardown),
    cmocka_unit_test_setup_teardown(test_comments, setup, teardown),
    cmocka_unit_test_setup_teardown(test_unterminated_comment, setup, teardown),
    cmocka_unit_test_setup_teardown(test_strings, setup, teardown),
    cmocka_unit_test_setup_teardown(test_unterminated_string, setup, teardown),
    cmocka_unit_test_setup_teardown(test_stray_characters, setup, teardown),
    cmocka_unit_test_setup_teardown(test_locations, setup, teardown),
    cmocka_unit_test_setup_teardown(test_nul_byte, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
