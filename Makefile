# Kernel-based checkpoint/restart for Linux 6.12: build, boot, test.
# "make help" lists the targets; README.md explains them.

VARIANT ?= default
MEM ?= 2G
SMP ?= 2
TIMEOUT ?= 900
SHARE ?=

B := build
TREE := $(B)/linux
KOUT := $(B)/kernel-$(VARIANT)
BZIMAGE := $(KOUT)/arch/x86/boot/bzImage
INITRD := $(B)/initramfs.cpio
APPEND_debug := panic_on_warn=1
QEMU := qemu/run-qemu.sh --kernel $(BZIMAGE) --initrd $(INITRD) \
	--mem $(MEM) --smp $(SMP) --timeout $(TIMEOUT) \
	--log $(B)/logs/console-$(VARIANT).log --append "$(APPEND_$(VARIANT))" \
	$(if $(SHARE),--share "$(SHARE)")

CC := gcc
# ckpt and rstr are built with musl: a static glibc program spends about
# 1 ms more starting and exiting in the TCG guest (its start-up touches
# some 25 more pages, each cleared or copied a byte at a time there), a
# cost every checkpoint and restart through the tools paid (docs/performance.md).
TOOLS_CC := musl-gcc
CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -g \
	-Itools/lib -Itests/lib
LIB := tools/lib/crctl.c tools/lib/cli.c tools/lib/peek.c tools/lib/mktree.c
LIB_H := $(wildcard tools/lib/*.h)
TAP := tests/lib/tap.c tests/lib/tap.h
CRTEST := tests/lib/crtest.c tests/lib/crtest.h
MKIMAGE := tests/lib/mkimage.c tests/lib/mkimage.h
HELPER := tests/lib/helper.c tests/lib/helper.h

TOOLS := ckpt rstr
BENCH_TOOLS := $(B)/bin/workload $(B)/bin/crbench
BENCH_SIZES ?= 1 16 64 256 1024
BENCH_REPS ?= 5
# ckptinfo reads images with the kernel's own uapi header, installed from
# the tree (make headers_install) into $(B)/uapi.
UAPI := $(B)/uapi/include/linux/checkpoint_hdr.h
CKPTINFO_SRC := $(addprefix tools/ckptinfo/,main.c image.c records.c unix.c inet.c timers.c tree.c print.c json.c)
CKPTINFO_DEP := $(CKPTINFO_SRC) tools/ckptinfo/image.h tools/ckptinfo/reader.h $(UAPI)
FUZZ_SECONDS ?= 120
GUEST_C := $(patsubst tests/guest/%.c,$(B)/tests/%,$(wildcard tests/guest/*.c))
HELPERS := $(patsubst tests/helpers/%.c,$(B)/tests/%,$(wildcard tests/helpers/*.c))
GUEST_SH := $(patsubst tests/guest/%,$(B)/tests/%,$(filter-out %.c,$(wildcard tests/guest/*)))
# The original series' sample programs, built as written when its
# documentation patch is at hand (../shared/seeds); tests skip them if not.
SEED_DOC := $(wildcard ../shared/seeds/002-patch-checkpoint-restart-initial-documentation.patch)
SEED_PROGS := $(if $(SEED_DOC),$(addprefix $(B)/tests/seed/,ckpt rstr self test))
HOST_TESTS := $(patsubst tests/host/%.c,$(B)/host-tests/%,$(wildcard tests/host/*.c)) \
	$(B)/host-tests/tap-sh

.PHONY: help deps kernel-tree kernel userspace image run guest shell test \
	host-test refresh checkpatch clean distclean fuzz fixtures bench

help:
	@echo "make run        build everything, boot the guest, show the demo"
	@echo "make test       build everything, run host and guest tests; last line: N passed, M failed"
	@echo "make shell      interactive shell in the guest (leave with exit or Ctrl-A X)"
	@echo "make guest CMD='...' [SHARE=dir]   run one command in the guest, with its exit status"
	@echo "make kernel-tree / make refresh    the kernel-tree <-> patch-files round trip"
	@echo "make checkpatch run scripts/checkpatch.pl on every patch"
	@echo "make fuzz       fuzz ckptinfo's image reader (FUZZ_SECONDS=$(FUZZ_SECONDS))"
	@echo "make bench      this engine vs CRIU vs copy-once, in one guest run -> docs/benchmarks.md"
	@echo "variables: VARIANT=default|debug MEM=$(MEM) SMP=$(SMP) TIMEOUT=$(TIMEOUT)"

deps:
	@qemu/install-deps.sh

kernel-tree: deps
	@qemu/kernel-tree.sh $(TREE)

kernel: kernel-tree
	@qemu/build-kernel.sh $(TREE) $(KOUT) $(VARIANT)

# User space: tools and guest tests are static (the guest has no libc).
$(B)/bin/%: tools/%.c $(LIB) $(LIB_H) $(UAPI)
	@mkdir -p $(@D)
	$(TOOLS_CC) $(CFLAGS) -I$(B)/uapi/include -static -o $@ $< $(LIB)

$(UAPI): $(TREE)/include/uapi/linux/checkpoint_hdr.h
	$(MAKE) -s -C $(TREE) ARCH=x86_64 O=$(abspath $(B))/uapi-obj \
		INSTALL_HDR_PATH=$(abspath $(B))/uapi headers_install >/dev/null
	@touch $@

$(TREE)/include/uapi/linux/checkpoint_hdr.h: | kernel-tree

# ckptinfo: static for the guest, dynamic for the host (tests, fuzzing)
$(B)/bin/ckptinfo: $(CKPTINFO_DEP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I$(B)/uapi/include -static -o $@ $(CKPTINFO_SRC)

$(B)/host/ckptinfo: $(CKPTINFO_DEP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I$(B)/uapi/include -o $@ $(CKPTINFO_SRC)

$(B)/host/ckptinfo-fuzz: $(CKPTINFO_DEP) tools/ckptinfo/fuzz.c
	@qemu/install-deps.sh clang
	@mkdir -p $(@D)
	clang -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -I$(B)/uapi/include \
		-o $@ tools/ckptinfo/fuzz.c $(filter-out tools/ckptinfo/main.c,$(CKPTINFO_SRC))

$(B)/host/fuzz-seed: tests/fuzz/seed.c $(MKIMAGE) $(CKPTINFO_DEP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I$(B)/uapi/include -Itools/ckptinfo -o $@ $< tests/lib/mkimage.c \
		$(filter-out tools/ckptinfo/main.c,$(CKPTINFO_SRC))

# Fuzz the image reader for FUZZ_SECONDS, from the fixtures and a synthetic
# image of every record kind as the corpus.
fuzz: $(B)/host/ckptinfo-fuzz $(B)/host/fuzz-seed
	@mkdir -p $(B)/fuzz-corpus
	@cp tests/fixtures/*.img $(B)/fuzz-corpus/
	@$(B)/host/fuzz-seed $(B)/fuzz-corpus
	$(B)/host/ckptinfo-fuzz -max_total_time=$(FUZZ_SECONDS) -max_len=262144 \
		-print_final_stats=1 -artifact_prefix=$(B)/fuzz- $(B)/fuzz-corpus

$(B)/tests/%: tests/guest/%.c $(LIB) $(LIB_H) $(TAP) $(CRTEST) $(UAPI)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I$(B)/uapi/include -static -o $@ $< $(LIB) tests/lib/tap.c tests/lib/crtest.c -lm

$(B)/tests/%: tests/guest/%
	@mkdir -p $(@D)
	cp $< $@

# Programs the guest tests checkpoint and restart.
$(B)/tests/%: tests/helpers/%.c $(LIB) $(LIB_H) $(HELPER) $(UAPI)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I$(B)/uapi/include -static -o $@ $< $(LIB) tests/lib/helper.c -lm

$(B)/seed-src/%.c: $(SEED_DOC) qemu/seed-sample.sh
	@mkdir -p $(@D)
	qemu/seed-sample.sh $(SEED_DOC) $*.c > $@

$(B)/tests/seed/%: $(B)/seed-src/%.c
	@mkdir -p $(@D)
	$(CC) -O2 -w -static -D__NR_checkpoint=548 -D__NR_restart=549 -include string.h -o $@ $< -lm

$(B)/tests/lib/tap.sh: tests/lib/tap.sh
	@mkdir -p $(@D)
	cp $< $@

$(B)/host-tests/ckptinfo: tests/host/ckptinfo.c $(CKPTINFO_DEP) $(TAP) $(MKIMAGE) $(B)/host/ckptinfo
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I$(B)/uapi/include -Itools/ckptinfo -o $@ $< tests/lib/tap.c \
		tests/lib/mkimage.c $(filter-out tools/ckptinfo/main.c,$(CKPTINFO_SRC))

$(B)/host-tests/%: tests/host/%.c $(LIB) $(LIB_H) $(TAP) $(UAPI)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I$(B)/uapi/include -o $@ $< $(LIB) tests/lib/tap.c

# the shell tests' own library, tested on the host from this checkout
$(B)/host-tests/tap-sh: tests/host/tap-sh.sh tests/lib/tap.sh
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec sh "%s" "%s"\n' $(CURDIR)/$< $(CURDIR)/tests/lib/tap.sh > $@
	chmod +x $@

$(B)/bin/%: tools/bench/%.c $(LIB) $(LIB_H) $(UAPI)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I$(B)/uapi/include -static -o $@ $< $(LIB)

userspace: deps $(addprefix $(B)/bin/,$(TOOLS)) $(B)/bin/ckptinfo $(BENCH_TOOLS) $(GUEST_C) $(GUEST_SH) $(HELPERS) $(SEED_PROGS) \
	$(B)/tests/lib/tap.sh

image: userspace
	@qemu/mkinitramfs.sh $(INITRD) $(B)/bin $(B)/tests

run: kernel image
	@$(QEMU) --cmd demo

# CMD reaches the guest exactly as given ("$x", quotes, newlines and all):
# through the environment, never re-expanded by make.
override CMD := $(value CMD)
export CMD
guest: kernel image
	@test -n "$$CMD" || { echo "usage: make guest CMD='shell command' [SHARE=folder]" >&2; exit 2; }
	@$(QEMU) --cmd "$$CMD"

shell: kernel image
	@$(QEMU) --shell

host-test: $(HOST_TESTS) $(B)/host/ckptinfo
	@tests/run.sh $(B)/host-tests

test: kernel image $(HOST_TESTS) $(B)/host/ckptinfo
	@tests/run.sh $(B)/host-tests -- $(QEMU)

# Regenerate tests/fixtures/*.img in the guest (commit them if they change).
fixtures: kernel image
	@$(QEMU) --share tests/fixtures --cmd 'sh /mnt/host/make-fixtures.sh'

# The benchmark: this engine, CRIU and the copy-once floor in one boot of
# the "bench" kernel (CRIU's options), 1 vCPU, 6 GiB; docs/benchmarks.md
# and its plot are made from that run.
bench:
	@qemu/install-deps.sh criu gnuplot-nox
	@$(MAKE) -s kernel image VARIANT=bench
	@rm -rf $(B)/bench && mkdir -p $(B)/bench
	@qemu/run-qemu.sh --kernel $(B)/kernel-bench/arch/x86/boot/bzImage \
		--initrd $(INITRD) --mem 6G --smp 1 --timeout 3600 \
		--log $(B)/logs/console-bench.log --share $(B)/bench \
		--cmd 'bench-guest "$(BENCH_SIZES)" $(BENCH_REPS)'
	@qemu/bench-report.sh $(B)/bench docs

refresh:
	@qemu/refresh.sh $(TREE)

checkpatch:
	@qemu/checkpatch.sh $(TREE)

clean:
	rm -rf $(B)/bin $(B)/tests $(B)/host-tests $(INITRD) $(B)/logs

distclean:
	rm -rf $(B)
