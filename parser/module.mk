# parser/module.mk — the lexer, grammar, AST helpers and diagnostics (owned by parser/).
PARSER_SRCS += parser/arena.c parser/diag.c parser/ast_build.c parser/ast_depth.c parser/ast_dump.c parser/parse.c parser/units.c parser/number.c parser/suggest.c

# Generated scanner and parser: flex/bison output in $(BUILD)/gen, objects in $(BUILD)/obj/gen.
PARSER_GEN_DIR := $(BUILD)/gen
PARSER_GEN += $(BUILD)/obj/gen/lexer.o $(BUILD)/obj/gen/grammar.o

$(PARSER_GEN_DIR)/grammar.c: parser/grammar.y
	@mkdir -p $(@D)
	bison -Wall -Werror --defines=$(PARSER_GEN_DIR)/grammar.h -o $@ $<
$(PARSER_GEN_DIR)/grammar.h: $(PARSER_GEN_DIR)/grammar.c ;

$(PARSER_GEN_DIR)/lexer.c: parser/lexer.l $(PARSER_GEN_DIR)/grammar.h
	@mkdir -p $(@D)
	flex --header-file=$(PARSER_GEN_DIR)/lexer.h -o $@ $<
$(PARSER_GEN_DIR)/lexer.h: $(PARSER_GEN_DIR)/lexer.c ;

# Generated code is not ours to tidy: silence the warnings it is known to raise, for it only.
$(PARSER_GEN): CFLAGS += -Wno-unused-function -Wno-sign-compare -Wno-unused-parameter
$(PARSER_GEN): $(BUILD)/obj/gen/%.o: $(PARSER_GEN_DIR)/%.c $(PARSER_GEN_DIR)/grammar.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

# Hand-written files that include the generated headers wait for them.
$(BUILD)/obj/parser/parse.o: $(PARSER_GEN_DIR)/grammar.h $(PARSER_GEN_DIR)/lexer.h

# The front end of application specifications (GEN.md, `pamc gen`): its own scanner and grammar
# with the prefix specyy, so their symbols do not collide with the model grammar's.
PARSER_SRCS += parser/spec_parse.c
PARSER_GEN += $(BUILD)/obj/gen/spec_lexer.o $(BUILD)/obj/gen/spec_grammar.o

$(PARSER_GEN_DIR)/spec_grammar.c: parser/spec_grammar.y
	@mkdir -p $(@D)
	bison -Wall -Werror --defines=$(PARSER_GEN_DIR)/spec_grammar.h -o $@ $<
$(PARSER_GEN_DIR)/spec_grammar.h: $(PARSER_GEN_DIR)/spec_grammar.c ;

$(PARSER_GEN_DIR)/spec_lexer.c: parser/spec_lexer.l $(PARSER_GEN_DIR)/spec_grammar.h
	@mkdir -p $(@D)
	flex --header-file=$(PARSER_GEN_DIR)/spec_lexer.h -o $@ $<
$(PARSER_GEN_DIR)/spec_lexer.h: $(PARSER_GEN_DIR)/spec_lexer.c ;

SPEC_GEN := $(BUILD)/obj/gen/spec_lexer.o $(BUILD)/obj/gen/spec_grammar.o
$(SPEC_GEN): CFLAGS += -Wno-unused-function -Wno-sign-compare -Wno-unused-parameter
$(SPEC_GEN): $(BUILD)/obj/gen/%.o: $(PARSER_GEN_DIR)/%.c $(PARSER_GEN_DIR)/spec_grammar.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<
$(BUILD)/obj/parser/spec_parse.o: $(PARSER_GEN_DIR)/spec_grammar.h $(PARSER_GEN_DIR)/spec_lexer.h
