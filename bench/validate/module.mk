# bench/validate/module.mk — `make validate`: real programs (bench/validate/*.c) timed on this
# machine against the predictions of their models (models/validate_*.pam); the driver is
# bench/validate/validate.sh. The programs are built with fixed -O2 and no sanitizer (they are
# measured, not tested); the MPI ones only when mpicc exists.
VALIDATE_DIR     := $(BUILD)/validate
VALIDATE_CFLAGS  := -std=c11 -Wall -Wextra -Werror -O2 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
VALIDATE_THREADS := $(addprefix $(VALIDATE_DIR)/,compute mutex copy primes matmul stream compress)
VALIDATE_MPI     := $(addprefix $(VALIDATE_DIR)/,pingpong halo)
VALIDATE_HAVE_MPI := $(HAVE_MPICC)

$(VALIDATE_THREADS): $(VALIDATE_DIR)/%: bench/validate/%.c bench/validate/vclock.h
	@mkdir -p $(@D)
	$(CC) $(VALIDATE_CFLAGS) -o $@ $< -lpthread -lm

# matmul is compiled as calibrate's t_flop_vec kernel is (calibrate/bench_flops.c).
$(VALIDATE_DIR)/matmul: VALIDATE_CFLAGS += -O3 -march=native -ffp-contract=fast

$(VALIDATE_MPI): $(VALIDATE_DIR)/%: bench/validate/%.c
	@mkdir -p $(@D)
	$(MPICC) $(VALIDATE_CFLAGS) -o $@ $<

# The kernels whose models `pamc extract` writes from their C (bench/validate/extract/).
VALIDATE_X       := $(addprefix $(VALIDATE_DIR)/,x_dot x_matmul x_stencil)
VALIDATE_X_OMP   := $(VALIDATE_DIR)/x_omp
VALIDATE_X_MPI   := $(VALIDATE_DIR)/x_mpi
$(VALIDATE_X): $(VALIDATE_DIR)/%: bench/validate/extract/%.c bench/validate/vclock.h
	@mkdir -p $(@D)
	$(CC) $(VALIDATE_CFLAGS) -o $@ $< -lm
$(VALIDATE_X_OMP): $(VALIDATE_DIR)/%: bench/validate/extract/%.c bench/validate/vclock.h
	@mkdir -p $(@D)
	$(CC) $(VALIDATE_CFLAGS) -fopenmp -o $@ $< -lm
$(VALIDATE_X_MPI): $(VALIDATE_DIR)/%: bench/validate/extract/%.c
	@mkdir -p $(@D)
	$(MPICC) $(VALIDATE_CFLAGS) -o $@ $<

# VALIDATE_MACHINE=path reuses a machine file instead of calibrating; VALIDATE_K runs per
# configuration (default 5).
.PHONY: validate
validate: all $(VALIDATE_THREADS) $(VALIDATE_X) $(VALIDATE_X_OMP) \
          $(if $(filter yes,$(VALIDATE_HAVE_MPI)),$(VALIDATE_MPI) $(VALIDATE_X_MPI))
	PAMC=./pamc VALIDATE_BIN=$(VALIDATE_DIR) VALIDATE_HAVE_MPI=$(VALIDATE_HAVE_MPI) \
	  bash bench/validate/validate.sh

# `make validate-fit`: mutex measured at small sizes, its model's consts fitted with `pamc fit`,
# predicted 8x and 64x larger and measured beside (bench/validate/fit.sh; VALIDATE_K runs each).
.PHONY: validate-fit
validate-fit: all $(VALIDATE_DIR)/mutex
	PAMC=./pamc VALIDATE_BIN=$(VALIDATE_DIR) bash bench/validate/fit.sh
