# benchtui: one hand-written Makefile (STYLE.md §2.8).
#   make            build ./benchtui
#   make check      install missing dependencies, build, run every test
#   make check-long the long recording and fuzzing runs (minutes)
#   make demo       record and browse the bundled example benchmark
#   make bench      performance comparisons against perf (bench/)
#   make bench-growth  time and memory from 10k to 10M samples, 1 to 1,000
#                   processes (bench/growth.sh: tens of minutes); G100M=1
#                   adds 100M samples (a 3.9 GB file, ~5 more minutes)
#   make js-deps    npm packages of the JS benchmark fixtures, for build/js
#                   (installed once per machine: tests/cache.sh)
#   make install    PREFIX=/usr/local DESTDIR= (make uninstall: the same)

PREFIX ?= /usr/local
BUILD ?= build
CC ?= cc
WERROR ?=
SAN ?=

# capstone (other machines than x86) is dlopen()ed on first use: headers only.
PKG_LIBS := libdw libelf libzstd zlib
CURSES := $(shell pkg-config --exists ncursesw && echo ncursesw || echo ncurses)
DEP_CFLAGS := $(shell pkg-config --cflags $(PKG_LIBS) capstone 2>/dev/null)
DEP_LIBS := $(shell pkg-config --libs $(PKG_LIBS) 2>/dev/null)
# Debian's libzydis-dev 4.0 ships no pkg-config file.
ZYDIS_LIBS := $(shell pkg-config --libs zydis 2>/dev/null || echo -lZydis -lZycore)
CURSES_CFLAGS := $(shell pkg-config --cflags $(CURSES) 2>/dev/null)
CURSES_LIBS := $(shell pkg-config --libs $(CURSES) 2>/dev/null || echo -lncursesw)
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)

WARN := -Wall -W -Wshadow -Wmissing-prototypes -Wstrict-prototypes \
	-Wpointer-arith -Wformat=2 -Wno-unused-parameter -Wno-format-nonliteral
CFLAGS ?= -O2 -g
ALL_CFLAGS := -std=gnu11 $(CFLAGS) $(WARN) $(if $(WERROR),-Werror) $(SAN) \
	-D_GNU_SOURCE -Iinclude $(DEP_CFLAGS) -MMD -MP
LIBS := $(DEP_LIBS) $(ZYDIS_LIBS) -liberty -lm -ldl

CORE_SRCS := $(sort $(wildcard core/*/*.c))
TUI_SRCS := $(sort $(wildcard tui/*.c tui/*/*.c))
UNIT_SRCS := $(sort $(wildcard tests/unit/t-*.c))
TOOL_SRCS := $(sort $(wildcard tests/tools/*.c))
COMMON_SRCS := $(sort $(wildcard tests/common/*.c))

CORE_OBJS := $(CORE_SRCS:%.c=$(BUILD)/%.o)
TUI_OBJS := $(TUI_SRCS:%.c=$(BUILD)/%.o)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
TOOL_BINS := $(TOOL_SRCS:tests/tools/%.c=$(BUILD)/tools/%)
COMMON_OBJS := $(COMMON_SRCS:%.c=$(BUILD)/%.o)
LIB := $(BUILD)/libbenchtui.a
BIN := $(if $(filter build,$(BUILD)),benchtui,$(BUILD)/benchtui)

.PHONY: all deps js-deps check check-long unit demo bench bench-growth install uninstall clean fuzz fuzz-build headers agent
.DELETE_ON_ERROR:

all: $(BIN) agent

deps:
	@sh scripts/deps.sh

# tests/test-harness.sh skips the JS harnesses when this fails (no network
# and not yet in the machine's cache).
js-deps:
	@sh scripts/js-deps.sh build/js || echo "js-deps: the JS harness tests will be skipped"

$(BUILD)/core/%.o: core/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Icore/base -Icore -c -o $@ $<

# tui/ sees the public headers only, never core/ (STYLE.md §2.1).
$(BUILD)/tui/%.o: tui/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CURSES_CFLAGS) -Itui -c -o $@ $<

$(LIB): $(CORE_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BIN): $(TUI_OBJS) $(LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $(TUI_OBJS) $(LIB) $(CURSES_LIBS) $(LIBS)

# Tests see core's internal headers; tests/common/ is shared by unit tests and tools.
TEST_CFLAGS := -Icore/base -Icore -Itests/common

# (named only by the pattern rules below, they would be intermediate files:
# deleted after the build, then made again and every test relinked by the
# next make, as make check's unit step did)
.SECONDARY: $(COMMON_OBJS)
$(BUILD)/tests/common/%.o: tests/common/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(TEST_CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(COMMON_OBJS) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(TEST_CFLAGS) -o $@ $< $(COMMON_OBJS) $(LIB) $(CMOCKA_LIBS) $(LIBS)

$(BUILD)/tools/%: tests/tools/%.c $(COMMON_OBJS) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(TEST_CFLAGS) -o $@ $< $(COMMON_OBJS) $(LIB) $(LIBS)

# Every public header compiles on its own.
headers:
	@for h in include/benchtui/*.h; do \
		echo "#include \"$${h#include/}\"" | \
		$(CC) -std=gnu11 $(WARN) -Werror -Iinclude -x c -fsyntax-only - || exit 1; \
	done

unit: $(UNIT_BINS)
	@fail=0; for t in $(UNIT_BINS); do \
		echo "== $$t"; $$t || fail=1; done; exit $$fail

ASAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

# Unit and end-to-end tests, then both again built with ASan+UBSan (leak
# checking on: a leak makes the binary exit 23, which the tests catch).
# First, in the background at nice 19, tests/prebuild.sh builds what the
# machine's fixture cache lacks (tests/cache.sh: criterion's benchmark,
# minutes on a fresh machine, nothing once it is there), beside the rest;
# the tests that need it wait for it, saying so (build/prebuild.log).
# The plain build and the fuzz targets of tests/test-fuzz.sh are made side
# by side on every CPU (CHECK_JOBS). The sanitizer pass (check-asan-pass)
# then runs beside the plain tests, which leave a CPU idle most of the
# time: the ASan build one file at a time (at the normal priority: at nice
# 19 it waited for the plain tests to end on a machine others load),
# its unit tests after it (test_child_escalation gives a child 100 ms to
# set a trap: it passed beside two busy threads), then the end-to-end tests
# again, each script as soon as the plain pass has passed it (one script
# behind: tests/run.sh, RC_DIR and AFTER; a script the plain pass failed
# is not run again). The build's and unit tests' output,
# build/asan/check.log, is shown after the plain tests (waiting for them
# says how far they are every 30 s), then the end-to-end tests' as they
# run (build/asan/tests.log). Both passes share BT_SHARE, where the first
# keeps what the oracles made for the second (tests/lib.sh): the
# sanitizer pass of a script starts once the plain pass of it has ended,
# so that what it reads there is whole. The sanitizer pass leaves
# out the long runs and the fuzzers (built with their own sanitizers),
# test-layout, which runs no code of benchtui (it reads the sources and
# the objects' symbol tables: the plain pass's are the same code), and
# test-cache (the fixture cache's shell functions), the planted-lint
# suites (lint-phase, lint-loops, lint-harnesses: harness runs whose lint
# code test-lint and test-bench run under the sanitizers too); in
# test-bench it runs
# each harness's split oracle (a benchmark run again alone) once, not for
# every benchmark (BT_SAN_PASS).
# Interrupted or failed, make check stops what it started in the
# background (the prebuild and the sanitizer pass each in its own process
# group, setsid).
CHECK_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# (not $(MAKE) itself in that recipe: make -n would run the tests)
BG_MAKE = $(MAKE)
SHARE := $(CURDIR)/build/share
CHECK_RC := $(CURDIR)/build/check-rc
check: deps js-deps
	@mkdir -p build/asan && rm -rf $(SHARE) $(CHECK_RC) build/asan/check.rc build/asan/tests.rc \
		build/asan/tests.log; \
	setsid nice -n 19 bash tests/prebuild.sh 3>&1 >build/prebuild.log 2>&1 & pre=$$!; asan=; \
	trap '[ -z "$$pre" ] || kill -TERM -$$pre 2>/dev/null; \
		[ -z "$$asan" ] || kill -TERM -$$asan 2>/dev/null' EXIT; \
	trap 'exit 130' INT TERM; \
	$(BG_MAKE) --no-print-directory headers && \
	$(BG_MAKE) --no-print-directory -j$(CHECK_JOBS) check-build-plain check-build-fuzz && \
	$(BG_MAKE) --no-print-directory unit WERROR=$(or $(WERROR),1) || exit 1; \
	setsid $(BG_MAKE) --no-print-directory check-asan-pass >/dev/null 2>&1 & asan=$$!; \
	BT_SHARE=$(SHARE) BUILD=$(BUILD) LONG_SECONDS=12 FUZZ_SECONDS=3 RC_DIR=$(CHECK_RC) \
		bash tests/run.sh; rc=$$?; \
	t=0; while [ ! -e build/asan/check.rc ] && kill -0 $$asan 2>/dev/null; do \
		sleep 1; t=$$((t + 1)); [ $$((t % 30)) != 0 ] || \
		echo "   ... waiting for the ASan+UBSan build and unit tests: $$t s" \
			"($$(grep -c '^cc ' build/asan/check.log) compiled, $$(grep -c '^== ' build/asan/check.log) unit tests run)"; \
	done; \
	arc=$$(cat build/asan/check.rc 2>/dev/null || echo 1); \
	echo "== the ASan+UBSan build and unit tests (beside the tests above)"; cat build/asan/check.log; \
	[ $$rc = 0 ] && [ $$arc = 0 ] || exit 1; \
	echo "== the end-to-end tests again, under AddressSanitizer and UBSan (beside the tests above, one script behind)"; \
	n=0; while :; do \
		d=; [ -e build/asan/tests.rc ] || ! grep -qs '^State:[[:space:]]*[^Z]' /proc/$$asan/status || d=no; \
		l=$$(wc -l <build/asan/tests.log); [ $$l = $$n ] || sed -n "$$((n + 1)),$${l}p" build/asan/tests.log; \
		n=$$l; [ "$$d" = no ] || break; sleep 1; \
	done; \
	wait $$asan; asan=; \
	[ "$$(cat build/asan/tests.rc 2>/dev/null)" = 0 ] || exit 1; \
	wait $$pre; pre=

# make check's sanitizer pass, in the background (its own process group):
# the ASan+UBSan build on one CPU, its unit tests, then the
# end-to-end tests, each script once the plain pass has passed it
# (tests/run.sh: RC_DIR, AFTER)
check-asan-pass:
	@{ $(MAKE) --no-print-directory -j1 check-build-asan && \
		$(MAKE) --no-print-directory unit BUILD=build/asan WERROR=1 SAN="$(ASAN)"; \
		echo $$? >build/asan/check.rc.tmp; } >build/asan/check.log 2>&1; \
	: >build/asan/tests.log; mv build/asan/check.rc.tmp build/asan/check.rc; \
	[ "$$(cat build/asan/check.rc)" = 0 ] || exit 1; \
	BT_SHARE=$(SHARE) BUILD=build/asan SKIP_TESTS="fuzz long layout cache lint-phase lint-loops lint-harnesses" BT_SAN_PASS=1 \
		ASAN_OPTIONS=detect_leaks=1 AFTER=$(CHECK_RC) \
		bash tests/run.sh >>build/asan/tests.log 2>&1; echo $$? >build/asan/tests.rc

.PHONY: check-build-plain check-build-asan check-build-fuzz check-asan-pass
check-build-plain:
	@$(MAKE) --no-print-directory all tools $(UNIT_BINS) WERROR=$(or $(WERROR),1)
check-build-asan:
	@$(MAKE) --no-print-directory tools BUILD=build/asan WERROR=1 SAN="$(ASAN)" \
		$(UNIT_SRCS:tests/unit/%.c=build/asan/tests/%)
# without clang, tests/test-fuzz.sh says it skips; a failed build is
# reported there (it builds again and shows the errors)
check-build-fuzz:
	@command -v clang >/dev/null 2>&1 && $(MAKE) --no-print-directory fuzz-build >/dev/null 2>&1 || true

# The long versions of what make check runs short: a 60 s recording (memory
# bounded, every sample accounted for) and a minute of each fuzz target.
check-long: deps
	@$(MAKE) --no-print-directory all tools
	@LONG_SECONDS=60 bash tests/test-long.sh
	@FUZZ_SECONDS=60 bash tests/test-fuzz.sh

tools: $(TOOL_BINS) $(BIN) agent

# The JVMTI agent (docs/jit.md): one shared object from agent/jvmti/*.c;
# jvmti.h from the JDK of javac (JAVA_HOME first), else Debian's
# default-java; skipped, with a note, without one. Never built with
# sanitizers: it is loaded into a JVM.
JAVAC_HOME := $(patsubst %/bin/javac,%,$(realpath $(shell command -v javac 2>/dev/null)))
JDK_INC := $(patsubst %/jvmti.h,%,$(firstword $(wildcard $(JAVA_HOME)/include/jvmti.h \
	$(JAVAC_HOME)/include/jvmti.h /usr/lib/jvm/default-java/include/jvmti.h)))
AGENT := $(BUILD)/libbenchtui-jvmti.so
AGENT_SRCS := $(sort $(wildcard agent/jvmti/*.c))
ifneq ($(JDK_INC),)
agent: $(AGENT)
$(AGENT): $(AGENT_SRCS) $(wildcard agent/jvmti/*.h)
	@mkdir -p $(@D)
	$(CC) -std=gnu11 $(CFLAGS) $(WARN) $(if $(WERROR),-Werror) -D_GNU_SOURCE \
		-fPIC -shared -fvisibility=hidden -pthread -isystem $(JDK_INC) -isystem $(JDK_INC)/linux \
		-o $@ $(AGENT_SRCS) -ldl
else
agent:
	@echo "note: no JDK headers (jvmti.h) found: the JVMTI agent is not built (install openjdk-17-jdk-headless)"
endif

# Fuzzing (libFuzzer, clang): the library rebuilt with coverage and sanitizers.
FUZZ_SRCS := $(sort $(wildcard tests/fuzz/fuzz-*.c))
FUZZ_BUILD := build/fuzz
FUZZ_BINS := $(FUZZ_SRCS:tests/fuzz/%.c=$(FUZZ_BUILD)/%)
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_TIME ?= 300

# (one make, BUILD=$(FUZZ_BUILD) throughout: it can run beside the other
# builds of make check, never reading their dependency files)
fuzz-build:
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=clang \
		SAN="$(FUZZ_SAN) -fsanitize=fuzzer-no-link" $(FUZZ_BINS)

# the command-line fuzzer also needs the front end's parser
$(FUZZ_BUILD)/fuzz-cmdline: FUZZ_EXTRA = tui/cli.c
$(FUZZ_BUILD)/fuzz-query: FUZZ_EXTRA = tui/query.c
$(FUZZ_BUILD)/fuzz-%: tests/fuzz/fuzz-%.c $(FUZZ_BUILD)/libbenchtui.a tui/cli.c tui/query.c
	clang -std=gnu11 -g -O1 $(FUZZ_SAN) -fsanitize=fuzzer -D_GNU_SOURCE -Iinclude \
		-Icore/base -Icore -Itui $(DEP_CFLAGS) -o $@ $< $(FUZZ_EXTRA) \
		$(FUZZ_BUILD)/libbenchtui.a $(LIBS)

# A long run of every target (make check runs a short one: tests/test-fuzz.sh).
fuzz: deps fuzz-build
	@for f in $(FUZZ_BINS); do \
		n=$$(basename $$f); mkdir -p build/fuzz-corpus/$$n; \
		echo "== $$n ($(FUZZ_TIME) s)"; \
		$$f -max_total_time=$(FUZZ_TIME) -rss_limit_mb=1024 -timeout=5 \
			build/fuzz-corpus/$$n tests/fuzz/corpus/$${n#fuzz-} || exit 1; \
	done

# Quiet (one line a step; the compiler's own warnings and errors still
# show) and on every CPU: serial and verbose, a fresh clone's demo printed
# ~100 command lines and took ~50 s to its first screen on 2 loaded CPUs.
# (a make -jN demo's own jobs kept: a -j of its own would override them, with a warning)
DEMO_JOBS = $(if $(filter -j% --jobserver%,$(MAKEFLAGS)),,-j$(CHECK_JOBS))
demo: deps
	@echo "demo: building benchtui"
	@$(MAKE) --no-print-directory -s $(DEMO_JOBS) all
	@sh examples/demo.sh

bench: deps
	@$(MAKE) --no-print-directory all
	@bash bench/run.sh

# make bench-sysdwarf: reading a system-wide perf record -a --call-graph
# dwarf of a parallel build, and benchtui's recording of the build, against
# perf report (bench/sysdwarf.sh: perf report takes minutes on them). It
# writes bench/sysdwarf.md, which make bench's results.md then includes.
.PHONY: bench-sysdwarf
bench-sysdwarf: deps
	@$(MAKE) --no-print-directory all tools
	@bash bench/sysdwarf.sh >bench/sysdwarf.md.tmp && mv bench/sysdwarf.md.tmp bench/sysdwarf.md
	@cat bench/sysdwarf.md

# not in make bench: tens of minutes (perf report reading 10M samples);
# bench/growth.md, which make bench's results.md then includes
bench-growth: deps
	@$(MAKE) --no-print-directory all tools
	@bash bench/growth.sh >bench/growth.md.tmp && mv bench/growth.md.tmp bench/growth.md
	@cat bench/growth.md

# make install [PREFIX=/usr/local] [DESTDIR=staging]: the binary, the JVMTI
# agent in benchtui's own lib dir, the man page and the docs. The agent's
# directory is where benchtui looks, beside its own binary
# (BINDIR/../lib/benchtui: core/jit/setup.c agent_path()), so that the
# install can be moved as a whole; without JDK headers no agent is built
# and none is installed (java then falls back: docs/jit.md).
BINDIR := $(PREFIX)/bin
AGENTDIR := $(PREFIX)/lib/benchtui
MANDIR := $(PREFIX)/share/man/man1
DOCDIR := $(PREFIX)/share/doc/benchtui
DOCS := README.md $(sort $(wildcard docs/*.md))

install: all
	@echo "install: $(DESTDIR)$(BINDIR)/benchtui"
	@install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(DOCDIR)
	@install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/benchtui
	@if [ -f $(AGENT) ]; then \
		echo "install: $(DESTDIR)$(AGENTDIR)/$(notdir $(AGENT))"; \
		install -d $(DESTDIR)$(AGENTDIR) && \
		install -m 644 $(AGENT) $(DESTDIR)$(AGENTDIR)/$(notdir $(AGENT)); \
	else \
		echo "install: no JVMTI agent built (no JDK headers): none installed"; \
	fi
	@echo "install: $(DESTDIR)$(MANDIR)/benchtui.1"
	@install -m 644 docs/benchtui.1 $(DESTDIR)$(MANDIR)/benchtui.1
	@echo "install: $(DESTDIR)$(DOCDIR)/ ($(words $(DOCS)) files)"
	@install -m 644 $(DOCS) $(DESTDIR)$(DOCDIR)/

# Removes what make install put there, and benchtui's own directories
# (the lib and doc ones); never the shared bin/ or man1/.
uninstall:
	@echo "uninstall: benchtui from $(DESTDIR)$(PREFIX)"
	@rm -f $(DESTDIR)$(BINDIR)/benchtui $(DESTDIR)$(MANDIR)/benchtui.1 \
		$(DESTDIR)$(AGENTDIR)/$(notdir $(AGENT)) \
		$(addprefix $(DESTDIR)$(DOCDIR)/,$(notdir $(DOCS)))
	@rmdir $(DESTDIR)$(AGENTDIR) $(DESTDIR)$(DOCDIR) 2>/dev/null || true

clean:
	rm -rf build benchtui

-include $(CORE_OBJS:.o=.d) $(TUI_OBJS:.o=.d) $(COMMON_OBJS:.o=.d)
