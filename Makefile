# SPDX-License-Identifier: ISC
# peviz - GNU Make.  `make help` lists the targets.

PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
MANDIR   ?= $(PREFIX)/share/man/man1
DATADIR  ?= $(PREFIX)/share/peviz
DESTDIR  ?=

CC       ?= cc
PKG_CONFIG ?= pkg-config
BUILD    ?= build
BIN      ?= peviz
# The version: --version, the man page's title line (make docs) and the
# packages read it from the file VERSION.
VERSION  := $(or $(shell cat VERSION 2>/dev/null),unknown)
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d

NCURSES_CFLAGS := $(shell $(PKG_CONFIG) --cflags ncursesw 2>/dev/null)
NCURSES_LIBS   := $(shell $(PKG_CONFIG) --libs ncursesw 2>/dev/null || echo -lncursesw)
PNG_CFLAGS     := $(shell $(PKG_CONFIG) --cflags libpng zlib 2>/dev/null)
PNG_LIBS       := $(shell $(PKG_CONFIG) --libs libpng zlib 2>/dev/null || echo -lpng -lz)

WARN     := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wformat=2 -pedantic -Werror
OPT      ?= -O2 -g
ifeq ($(NATIVE),1)
OPT      += -march=native
endif
CPPFLAGS += -Iinclude -Isrc $(NCURSES_CFLAGS) $(PNG_CFLAGS) -D_XOPEN_SOURCE_EXTENDED \
            -DPEVIZ_VERSION='"$(VERSION)"' -DPEVIZ_DATADIR='"$(DATADIR)"'
CFLAGS   += -std=c11 $(OPT) $(WARN) -MMD -MP
# The program's unit tests are compiled without optimisation: their own
# code only calls the program's (built with OPT) and compares, and -O0
# compiles them in a quarter of the time. The library's tests keep OPT:
# their references are long loops of their own.
UNIT_OPT ?= -O0
# The program's modules (not the library) may have their own level too:
# the sanitizer builds compile them at -O0, where a sanitizer build of
# the whole program takes half the time. They draw frames and read
# options, and the suites under a sanitizer take the same CPU either
# way (they are bound by start-up); the library's loops keep OPT.
APP_OPT  ?=
LDLIBS   += $(NCURSES_LIBS) $(PNG_LIBS) -lm -pthread

ifeq ($(V),1)
Q :=
else
Q := @
endif

# libpeviz: the math (src/lib, include/peviz), built against libc and libm
# alone; it may include nothing from src/ and no curses.
CORE_SRCS := $(wildcard src/lib/*.c)
CORE_OBJS := $(CORE_SRCS:%.c=$(BUILD)/%.o)
LIBPEVIZ  := $(BUILD)/libpeviz.a
APP_SRCS  := $(filter-out src/main.c,$(wildcard src/*.c src/views/*.c))
APP_OBJS  := $(APP_SRCS:%.c=$(BUILD)/%.o)
# The program's modules as an archive too, so that a test, a fuzzer or a
# bench links only the modules it reaches (a unit test of the axis links
# a few, not the whole program).
APP_LIB   := $(BUILD)/libpevizapp.a
LIB_OBJS  := $(APP_LIB) $(LIBPEVIZ)
MAIN_OBJ  := $(BUILD)/src/main.o
# The tests: build/tests/NAME for each tests/unit/NAME.c and
# tests/lib/NAME.c. Each kind is linked once, as one program
# (build/tests/unit-tests, build/tests/lib-tests), and build/tests/NAME
# is a link to it that runs the test of that name (tests/multi.c): under a
# sanitizer, linking each test on its own took as long as compiling them.
TEST_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_NAMES := $(TEST_SRCS:tests/unit/%.c=%)
CORE_TEST_SRCS := $(wildcard tests/lib/test_*.c)
LIB_TEST_NAMES := $(filter-out test_registry,$(CORE_TEST_SRCS:tests/lib/%.c=%))
UNIT_PROG := $(BUILD)/tests/unit-tests
LIB_TEST_PROG := $(BUILD)/tests/lib-tests
TEST_BINS := $(UNIT_NAMES:%=$(BUILD)/tests/%) $(LIB_TEST_NAMES:%=$(BUILD)/tests/%) \
             $(BUILD)/tests/test_registry
BENCH_SRCS := $(wildcard tests/bench/*.c)
BENCH_BINS := $(BENCH_SRCS:tests/bench/%.c=$(BUILD)/bench/%)

# app.h includes the settings header of each view (src/views/NAME_state.h)
# through this one, made from the VIEW_LIST lines of src/view.h: a view is
# its own files and one line of that list.
VIEW_HEADERS := $(BUILD)/gen/view_headers.h
CPPFLAGS += -I$(BUILD)/gen

# float-cast-overflow: gcc leaves a float-to-int conversion out of range
# out of -fsanitize=undefined (clang has it there)
SAN_FLAGS := -fsanitize=address,undefined,float-cast-overflow \
             -fno-omit-frame-pointer -fno-sanitize-recover=all
# Linked at a fixed address: ASan describes every global (each string
# too) with pointers, and a position-independent binary would relocate
# some 80,000 of them at every start, which the suites do thousands of
# times.  The program links gcc's sanitizer runtimes in too (clang's
# always are): loaded as shared libraries they took LeakSanitizer's exit
# scan from 50 to 72 ms a start.  (A test binary, started once, links
# faster without them.)
SAN_LDFLAGS := $(SAN_FLAGS) -no-pie
GCC_SAN_BIN_LDFLAGS := -static-libasan -static-libubsan

.PHONY: FORCE all docs dist deb run test unit bench bench-quick asan fuzz fuzz-run install uninstall clean help golden xtermjs libpeviz libcheck
all: $(BIN)

## libpeviz: build build/libpeviz.a (the math alone: needs only libc and libm)
libpeviz: $(LIBPEVIZ)

## libcheck: each include/peviz header compiles alone; the whole archive
##           links with only libc and libm (also part of make test)
libcheck: $(LIBPEVIZ)
	@BUILD=$(BUILD) CC="$(CC)" LDFLAGS="$(LDFLAGS)" bash tests/lib/check.sh

$(LIBPEVIZ): $(CORE_OBJS)
	@echo "  AR    $@"
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(APP_LIB): $(APP_OBJS)
	@echo "  AR    $@"
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(BUILD)/src/lib/%.o: src/lib/%.c
	@mkdir -p $(dir $@)
	@echo "  CC    $<"
	$(Q)$(CC) -Iinclude $(CFLAGS) -c -o $@ $<

# A test in a test program: its main() is compiled as NAME_main, declared
# first by tests/multi_main.h.
TEST_MAIN = -Dmain=$*_main -include tests/multi_main.h

# The list of a test program's tests (TEST(name) lines), rewritten only
# when the list changes.
define test_list
	@mkdir -p $(dir $@)
	$(Q)printf 'TEST(%s)\n' $(1) >$@.tmp
	$(Q)if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi
endef
$(BUILD)/gen/unit_tests.h: FORCE
	$(call test_list,$(UNIT_NAMES))
$(BUILD)/gen/lib_tests.h: FORCE
	$(call test_list,$(LIB_TEST_NAMES))

$(LIB_TEST_NAMES:%=$(BUILD)/tests/%) $(UNIT_NAMES:%=$(BUILD)/tests/%): $(BUILD)/tests/%:
	$(Q)ln -sf $(notdir $<) $@
$(LIB_TEST_NAMES:%=$(BUILD)/tests/%): $(LIB_TEST_PROG)
$(UNIT_NAMES:%=$(BUILD)/tests/%): $(UNIT_PROG)

# The library's own tests see only include/ and link only the archive.
# They compile at OPT, or at LIB_TEST_OPT where that is set (the
# sanitizer builds: -O0, a third of the compile time), but for those
# whose own reference loops are most of their run (LIB_TESTS_AT_OPT:
# at -O0 they ran up to twice as long as their compile saved).
LIB_TEST_OPT ?=
LIB_TESTS_AT_OPT := test_nufft test_soft_stream
$(BUILD)/tests/lib/%.o: tests/lib/%.c
	@mkdir -p $(dir $@)
	@echo "  CC    $<"
	$(Q)$(CC) -Iinclude -Itests/unit $(CFLAGS) \
	    $(if $(filter $*,$(LIB_TESTS_AT_OPT)),,$(LIB_TEST_OPT)) $(TEST_MAIN) -c -o $@ $<

$(LIB_TEST_PROG): $(BUILD)/tests/lib/multi.o $(LIB_TEST_NAMES:%=$(BUILD)/tests/lib/%.o) $(LIBPEVIZ)
	@echo "  LD    $@"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ -lm

# A library test that drives the program's command line and export with
# what it registered in the library's tables links the program too.
LIB_APP_TESTS := $(BUILD)/tests/test_registry
$(LIB_APP_TESTS): $(BUILD)/tests/%: tests/lib/%.c $(LIB_OBJS)
	@mkdir -p $(dir $@)
	@echo "  TEST  $@"
	$(Q)$(CC) $(CPPFLAGS) -Itests/unit $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_OBJS) $(LDLIBS)

$(BIN): $(MAIN_OBJ) $(LIB_OBJS)
	@echo "  LD    $@"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $(BIN_LDFLAGS) -o $@ $^ $(LDLIBS)

$(VIEW_HEADERS): src/view.h
	@mkdir -p $(dir $@)
	$(Q)sed -n -e '/struct view_none/d' \
	    -e 's|^ *VIEW([A-Z0-9_]*, *\([a-z0-9_]*\),.*|#include "views/\1_state.h"|p' \
	    $< >$@.tmp && mv $@.tmp $@

$(BUILD)/%.o: %.c | $(VIEW_HEADERS)
	@mkdir -p $(dir $@)
	@echo "  CC    $<"
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(APP_OPT) -c -o $@ $<

$(BUILD)/tests/unit/%.o: tests/unit/%.c | $(VIEW_HEADERS)
	@mkdir -p $(dir $@)
	@echo "  CC    $<"
	$(Q)$(CC) $(CPPFLAGS) -Itests/unit $(CFLAGS) $(UNIT_OPT) $(TEST_MAIN) -c -o $@ $<

# A test program's main (unit or lib), over its list of tests.
$(BUILD)/tests/%/multi.o: tests/multi.c $(BUILD)/gen/%_tests.h
	@mkdir -p $(dir $@)
	$(Q)$(CC) -I$(BUILD)/gen $(CFLAGS) -DTEST_LIST='"$*_tests.h"' -c -o $@ $<

$(UNIT_PROG): $(BUILD)/tests/unit/multi.o $(UNIT_NAMES:%=$(BUILD)/tests/unit/%.o) $(LIB_OBJS)
	@echo "  LD    $@"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/bench/%: tests/bench/%.c $(LIB_OBJS)
	@mkdir -p $(dir $@)
	@echo "  BENCH $@"
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_OBJS) $(LDLIBS)

# The terminal tests' tmux control client (tests/e2e/ctl.c): a helper of
# the tests, never under a sanitizer (a sanitizer's start-up would cost
# what it saves).
E2E_CTL := $(BUILD)/e2e/ctl
$(E2E_CTL): tests/e2e/ctl.c
	@mkdir -p $(dir $@)
	@echo "  CC    $@"
	$(Q)$(CC) -std=c11 -O2 $(WARN) -o $@ $<

# The documentation generator (src/docgen/): the lists of README.md and
# assets/peviz.1 and the shell completions, from the program's tables.
DOCGEN := $(BUILD)/docgen
DOCGEN_SRCS := $(wildcard src/docgen/*.c)
DOCGEN_OBJS := $(DOCGEN_SRCS:%.c=$(BUILD)/%.o)
DOC_FILES := README.md assets/peviz.1 $(wildcard assets/doc/*.md)
COMPLETIONS := assets/completions/peviz.bash assets/completions/_peviz \
               assets/completions/peviz.fish
$(DOCGEN): $(DOCGEN_OBJS) $(LIB_OBJS)
	@echo "  LD    $@"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

## docs: rewrite the generated lists in README.md and assets/peviz.1 and
##       the shell completions in assets/completions/ from the tables
docs: $(DOCGEN) $(BIN)
	$(Q)./$(BIN) --no-user-settings --snapshot --size 80x24 --color none >$(BUILD)/screen.txt
	$(Q)awk -v f=$(BUILD)/screen.txt '/^<!-- END peviz-screen -->$$/ { skip = 0 } \
	    !skip { print } /^<!-- BEGIN peviz-screen -->$$/ { skip = 1; print "```"; \
	    while ((getline l < f) > 0) print l; print "```" }' README.md >README.md.tmp && \
	    mv README.md.tmp README.md
	$(Q)for f in $(DOC_FILES); do \
	    $(DOCGEN) fill $$f >$$f.tmp && mv $$f.tmp $$f || { rm -f $$f.tmp; exit 1; }; done
	$(Q)mkdir -p assets/completions
	$(Q)for s in bash:peviz.bash zsh:_peviz fish:peviz.fish; do \
	    $(DOCGEN) completion $${s%%:*} >assets/completions/$${s#*:}.tmp && \
	    mv assets/completions/$${s#*:}.tmp assets/completions/$${s#*:} || exit 1; done

# The version reaches --version and the man page's title line.
$(MAIN_OBJ) $(BUILD)/src/docgen/docgen_fill.o: VERSION

## dist: peviz-VERSION.tar.gz of the committed tree, which builds and
##       passes make test without git
DIST := peviz-$(VERSION)
dist:
	$(Q)git archive --format=tar --prefix=$(DIST)/ HEAD | gzip -9n >$(DIST).tar.gz.tmp
	$(Q)mv $(DIST).tar.gz.tmp $(DIST).tar.gz
	@echo "  DIST  $(DIST).tar.gz"

## deb: peviz_VERSION_ARCH.deb with dpkg-deb (built for PREFIX=/usr in
##      build/deb; its depends from dpkg-shlibdeps)
deb:
	$(Q)MAKE="$(MAKE)" CC="$(CC)" VERSION=$(VERSION) BUILD=$(BUILD) \
	    bash assets/packaging/deb.sh

## run: build and start peviz in this terminal
run: $(BIN)
	./$(BIN)

## test: build, then run unit, command-line, golden and terminal tests,
##       several suites at once (T=NAME or T='e2e/*' runs some, T=list
##       names them, X=NAME leaves some out; JOBS=N suites at a time)
test: $(BIN) $(TEST_BINS) $(E2E_CTL) $(DOCGEN)
	@PEVIZ=./$(BIN) BUILD=$(BUILD) DOCGEN=$(DOCGEN) CC="$(CC)" LDFLAGS="$(LDFLAGS)" E2E="$(E2E)" \
	    T="$(T)" X="$(X)" JOBS="$(JOBS)" bash tests/run.sh

## asan: the same tests under AddressSanitizer and UBSan, but those that
##       read only the sources (make asan CC=clang: the same with clang's,
##       in build/fuzz, whose objects make fuzz then reuses; E2E=0 on any
##       test target leaves out the terminal tests in tmux)
# (line tables are all a sanitizer's report reads: -g1 and
# -gline-tables-only build faster than -g)
FUZZ_OPT := -O1 -gline-tables-only -fsanitize=fuzzer-no-link $(SAN_FLAGS)
ifneq ($(findstring clang,$(CC)),)
ASAN_DIR := build/fuzz
ASAN_OPT := $(FUZZ_OPT)
SAN_BIN_LDFLAGS :=
else
ASAN_DIR := build/asan
ASAN_OPT := -O1 -g1 $(SAN_FLAGS)
SAN_BIN_LDFLAGS := $(GCC_SAN_BIN_LDFLAGS)
endif
# Suites that never run the build under test (they read the sources, or
# build and run a copy of their own): make test has run them already.
SOURCE_SUITES := layers views_state recipes
# The third emulator's suite checks what xterm.js shows, and the slides'
# what a browser shows, not memory: the tmux suites run the same drawing
# paths, and tour_files the same --slides, under the sanitizers.  The
# graphics suite times images against scripted terminals, waits a
# sanitizer build on a busy machine misses; unit/test_gfx, the report
# filter's fuzzer and the tmux suites run that code under them.
NO_SAN_SUITES := $(SOURCE_SUITES) test_xtermjs test_slides graphics
asan:
	$(MAKE) --no-print-directory BUILD=$(ASAN_DIR) BIN=$(ASAN_DIR)/peviz \
	    OPT="$(ASAN_OPT)" APP_OPT=-O0 LIB_TEST_OPT=-O0 LDFLAGS="$(SAN_LDFLAGS)" \
	    BIN_LDFLAGS="$(SAN_BIN_LDFLAGS)" X="$(X) $(NO_SAN_SUITES)" test

## fuzz: libFuzzer harnesses (clang) for the command line, the prompt and the
##       file parsers, FUZZ_SECONDS each (default 60), or a fixed number
##       of inputs each (FUZZ_RUNS=N, or FUZZ_RUNS=budget: the counts in
##       tests/fuzz/budget.txt); FUZZ_SEED=N repeats a run
FUZZ_SECONDS ?= 60
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS := $(FUZZ_SRCS:tests/fuzz/%.c=$(BUILD)/%)
fuzz:
	$(MAKE) --no-print-directory CC=clang BUILD=build/fuzz \
	    OPT="$(FUZZ_OPT)" APP_OPT=-O0 \
	    LDFLAGS="$(SAN_LDFLAGS)" fuzz-run

fuzz-run: $(FUZZ_BINS)
	@FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_RUNS="$(FUZZ_RUNS)" FUZZ_SEED="$(FUZZ_SEED)" \
	    BUILD=$(BUILD) bash tests/fuzz/run.sh $(FUZZ_BINS)

$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(LIB_OBJS)
	@echo "  FUZZ  $@"
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -fsanitize=fuzzer $(LDFLAGS) -o $@ $< $(LIB_OBJS) $(LDLIBS)

## bench: print timings, bytes per frame and memory; fails when a row
##        misses its target or measured nothing (NO DATA)
bench: $(BIN) $(BENCH_BINS)
	@PEVIZ=./$(BIN) BUILD=$(BUILD) bash tests/bench/run.sh

## bench-quick: the frame-compute table and the softmax rows alone (under a minute)
bench-quick: $(BIN) $(BENCH_BINS)
	@PEVIZ=./$(BIN) BUILD=$(BUILD) BENCH_QUICK=1 BENCH_ONLY=frame bash tests/bench/run.sh

## xtermjs: fetch the xterm.js packages the third emulator's suite runs
##          (tests/e2e/test_xtermjs.sh) into build/xtermjs, with npm
XTERMJS_PKGS := @xterm/xterm@6.0.0 @xterm/addon-image@0.9.0
xtermjs:
	npm install --prefix build/xtermjs --no-audit --no-fund --silent $(XTERMJS_PKGS)

## golden: regenerate the golden snapshots on purpose
golden: $(BIN)
	@PEVIZ=./$(BIN) bash tests/golden/regen.sh

## install: copy peviz, its man page and tours under $(DESTDIR)$(PREFIX)
install: $(BIN)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(DATADIR)/tours
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/peviz
	if [ -f assets/peviz.1 ]; then install -m 644 assets/peviz.1 $(DESTDIR)$(MANDIR)/peviz.1; fi
	for f in assets/tours/*.tour; do [ -f "$$f" ] && install -m 644 "$$f" $(DESTDIR)$(DATADIR)/tours/ || true; done
	install -d $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR)
	install -m 644 assets/completions/peviz.bash $(DESTDIR)$(BASHCOMPDIR)/peviz
	install -m 644 assets/completions/_peviz $(DESTDIR)$(ZSHCOMPDIR)/_peviz
	install -m 644 assets/completions/peviz.fish $(DESTDIR)$(FISHCOMPDIR)/peviz.fish

## uninstall: remove what install copied
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/peviz $(DESTDIR)$(MANDIR)/peviz.1
	rm -f $(DESTDIR)$(BASHCOMPDIR)/peviz $(DESTDIR)$(ZSHCOMPDIR)/_peviz \
	    $(DESTDIR)$(FISHCOMPDIR)/peviz.fish
	rm -rf $(DESTDIR)$(DATADIR)

## clean: remove build products
clean:
	rm -rf build $(BIN)

## help: list the targets
help:
	@sed -n 's/^## //p' Makefile

-include $(shell find $(BUILD) -type f -name '*.d' 2>/dev/null)
