# parser/module.mk — the lexer, grammar, AST helpers and diagnostics (owned by parser/).
PARSER_SRCS += parser/arena.c parser/diag.c
