# lang/extract/module.mk — the C front end of `pamc extract` (owned by lang/extract/): the only
# code of pamc that includes clang-c/ and links libclang (Debian libclang-dev, LLVM 14 here).
LLVM_CONFIG    ?= $(shell command -v llvm-config-14 || command -v llvm-config)
LLVM_INCDIR    := $(if $(LLVM_CONFIG),$(shell $(LLVM_CONFIG) --includedir),/usr/lib/llvm-14/include)
LLVM_LIBDIR    := $(if $(LLVM_CONFIG),$(shell $(LLVM_CONFIG) --libdir),/usr/lib/llvm-14/lib)
EXTRACT_SRCS   := lang/extract/ex_front.c lang/extract/ex_cost.c lang/extract/ex_value.c \
                  lang/extract/ex_count.c lang/extract/ex_stmt.c lang/extract/ex_par.c \
                  lang/extract/ex_print.c lang/extract/ex_main.c \
                  lang/extract/ex_memory.c lang/extract/ex_range.c
LANG_SRCS      += $(EXTRACT_SRCS)
# libclang's headers for these files only; the rpath finds libclang.so at run time.
$(patsubst %.c,$(BUILD)/obj/%.o,$(EXTRACT_SRCS)): CPPFLAGS += -isystem $(LLVM_INCDIR) -Ilang/extract
EXTRACT_LDLIBS := -L$(LLVM_LIBDIR) -lclang -Wl,-rpath,$(LLVM_LIBDIR)
# models/lib/mpi.pam (the MPI collectives) is compiled in: an extracted MPI model carries a copy.
$(BUILD)/gen/ex_mpi_lib.h: models/lib/mpi.pam
	@mkdir -p $(@D)
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $< > $@
$(BUILD)/obj/lang/extract/ex_print.o: $(BUILD)/gen/ex_mpi_lib.h
