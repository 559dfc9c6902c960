/*
 * The machine a recording was made on, as its side-band records tell it
 * (perf's machine, threads and maps: tools/perf/util/machine.c, thread.c,
 * maps.c): its processes (forks, execs), their threads, what each process
 * had mapped executable over time (a mapping over part of an older one
 * trims it, as perf's maps__fixup_overlappings does), the JIT code its
 * runtimes described (jitdumps and perf maps, which core/jit reads: the
 * machine places the code) and the build-ids of its files. It answers
 * one question for every reader of the recording (the profile's samples,
 * the unwinder's frames, a call chain's return addresses): what was at
 * address A of process P at time t?
 *
 * What is mapped is a module (a file, the vDSO, anonymous memory, one
 * piece of JIT code), numbered in a table the caller owns (struct
 * bt_modules: the profile's, by whose indices the session knows them):
 * [kernel] is module 0 and [unknown] module 1, then the files as the
 * recording names them, in the order of the file, and the pieces of JIT
 * code as samples first fall in them.
 *
 * Feed it with core/perf's ordered stream (ordered.h): every side-band
 * record to bt_machine_read() as it is read, and those it keeps to
 * bt_machine_apply() in time order.
 */
#ifndef BENCHTUI_MACHINE_H
#define BENCHTUI_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bt_error;
struct bt_jit_code;
struct bt_jit_load;
struct bt_pd_buildid;
struct bt_pd_event;

enum bt_mod_kind {
	BT_MOD_ELF,		/* a file: executable or shared library */
	BT_MOD_VDSO,		/* [vdso]: image from the recording or this kernel */
	BT_MOD_KERNEL,		/* every kernel sample, one bucket */
	BT_MOD_ANON,		/* no file (JIT, //anon, [heap]): addresses only */
	BT_MOD_UNKNOWN,		/* no mapping covers the sample */
	BT_MOD_JIT,		/* one piece of JIT code (machine-jit.c) */
};

/**
 * struct bt_module - one mapped object samples fall into
 * @path: as recorded ("[kernel]", "[unknown]", "//anon" for the synthetic ones)
 * @build_id: as recorded (MMAP2 with build-id, or the BUILD_ID feature)
 * @off_lo, @off_hi: the span of file offsets its executable mappings cover
 * @jit: BT_MOD_JIT: the code (owned)
 * @jit_name: BT_MOD_JIT: its function's name (owned)
 */
struct bt_module {
	char *path;
	enum bt_mod_kind kind;
	uint8_t build_id[20];
	uint8_t build_id_size;
	uint64_t off_lo, off_hi;	/* file offsets mapped executable: [lo, hi) */
	struct bt_jit_code *jit;
	char *jit_name;
};

/* The modules table (a BT_VEC). */
struct bt_modules {
	struct bt_module *v;
	size_t n, alloc;
};

#define BT_MODULE_KERNEL 0u
#define BT_MODULE_UNKNOWN 1u

/* Module index by kind+path (and build-id when both have one); created if new. */
uint32_t bt_modules_get(struct bt_modules *mods, enum bt_mod_kind kind,
			const char *path, const uint8_t *bid, size_t bid_size);
/* Free every module's strings and code, and the table's memory. */
void bt_modules_release(struct bt_modules *mods);

/**
 * struct bt_map - one mapping of a process, over a span of its time
 * @start, @end: its addresses [start, end)
 * @pgoff: the file offset at @start (0 for anonymous memory)
 * @t_start, @t_end: from when, until when (UINT64_MAX: to the end)
 * @module: what it maps
 * @anon: the module is anonymous memory (BT_MOD_ANON): no file offsets
 * @no_jit: anonymous, but no JIT writes there: the kernel's [uprobes] page
 */
struct bt_map {
	uint64_t start, end, pgoff;
	uint64_t t_start, t_end;
	uint32_t module;
	bool anon;
	bool no_jit;
};

struct bt_machine;

/* An empty machine whose modules go into mods (empty: [kernel], [unknown] first). */
struct bt_machine *bt_machine_new(struct bt_modules *mods);
void bt_machine_free(struct bt_machine *m);
/*
 * The recording's BUILD_ID feature: the build-ids of its files, for the
 * mappings whose record carries none (copied).
 */
void bt_machine_set_buildids(struct bt_machine *m, const struct bt_pd_buildid *ids,
			     size_t n);
/*
 * Where the JIT sources of its processes are looked for (the recording's
 * path: PATH.jit/ first; "" for none), and whether their times compare
 * with the samples' (the recording is in CLOCK_MONOTONIC, as jitdumps).
 */
void bt_machine_set_jit(struct bt_machine *m, const char *recording, bool times);

/*
 * A side-band record as it is read, in file order: the module a mapping
 * names is numbered now (*module), and a jitdump it maps is noted.
 * Returns true when the record changes the machine (MMAP/MMAP2 of code,
 * COMM of an exec, FORK of a process): give it to bt_machine_apply()
 * with *module, in time order.
 */
bool bt_machine_read(struct bt_machine *m, const struct bt_pd_event *ev,
		     uint32_t *module);
void bt_machine_apply(struct bt_machine *m, const struct bt_pd_event *ev,
		      uint32_t module);

/*
 * The mapping of process pid that held ip at time t (before its first
 * exec, a forked child runs its parent's: the parent's at the fork), or
 * NULL.
 */
const struct bt_map *bt_machine_find(struct bt_machine *m, uint32_t pid,
				     uint64_t ip, uint64_t t);
/*
 * Every mapping of pid at time t (its parent's too, before its first
 * exec) to fn, until fn returns false.
 */
void bt_machine_each_map(struct bt_machine *m, uint32_t pid, uint64_t t,
			 bool (*fn)(void *arg, const struct bt_map *map),
			 void *arg);
/*
 * What was at ip of process pid at time t: its module and offset, a
 * file offset in a file (or the vDSO), the address itself in anonymous
 * memory; [unknown] and the address when nothing held it.
 */
void bt_machine_resolve(struct bt_machine *m, uint32_t pid, uint64_t ip,
			uint64_t t, uint32_t *module, uint64_t *off);
/*
 * The same for the ip of a sample, where anonymous memory (or none) may
 * hold JIT code: the piece of code the process's runtime put there (its
 * jitdumps and perf maps read the first time one of its samples needs
 * them), a module of its own at offsets of its ELF image (jitelf.h).
 */
void bt_machine_resolve_code(struct bt_machine *m, uint32_t pid, uint64_t ip,
			     uint64_t t, uint32_t *module, uint64_t *off);
/*
 * The same for an address of a sample's call chain (a return address
 * minus one, an LBR entry): JIT code is its piece of code, as for the
 * sample's own ip, so that chains through JIT frames keep them; nothing
 * is counted (which sources had samples, samples no source covers).
 */
void bt_machine_resolve_frame(struct bt_machine *m, uint32_t pid, uint64_t ip,
			      uint64_t t, uint32_t *module, uint64_t *off);

/*
 * The name of the JIT code of c's process at addr (a call or jump target
 * of c), as its runtime's files name it (borrowed: not cleaned for a
 * terminal), its start in *start: of the code there when c was loaded
 * (c's time), from the same sources as c; NULL when none covers addr.
 * Nothing is created or counted.
 */
const char *bt_machine_jit_name(struct bt_machine *m, const struct bt_jit_code *c,
				uint64_t addr, uint64_t *start);
/* The process JIT code c is of (0 if unknown). */
uint32_t bt_machine_jit_pid(struct bt_machine *m, const struct bt_jit_code *c);
/* Every load of the jitdump c came from (NULL, *n 0: c is from a map). */
const struct bt_jit_load *bt_machine_jit_loads(struct bt_machine *m,
					       const struct bt_jit_code *c, size_t *n);
/*
 * A number that changes whenever what some process has mapped does (a
 * mapping, an exec, a fork): what was found before may have ended.
 */
uint64_t bt_machine_generation(const struct bt_machine *m);
/*
 * How many samples' addresses were asked of the JIT code (in anonymous
 * memory or in no mapping), and modules were made of it (a call chain's
 * frames' too): 0 when what the samples read changed nothing but counts,
 * and the modules are the side-band's (a frame in no mapping, a kernel
 * one, asks and finds nothing: the first-read cache is the same).
 */
uint64_t bt_machine_jit_asked(const struct bt_machine *m);
/* A module of the machine's table. */
const struct bt_module *bt_machine_module(const struct bt_machine *m,
					  uint32_t i);
/* Where the kernel's _text was (its MMAP's pgoff), 0 if unknown. */
uint64_t bt_machine_ktext(const struct bt_machine *m);
/*
 * The process a thread belongs to (0 if unknown) and its name: its last
 * COMM as read (NULL if none).
 */
const char *bt_machine_thread(const struct bt_machine *m, uint32_t tid,
			      uint32_t *pid);

/*
 * The end of the first read: every process's JIT sources are looked for
 * (the ones without samples too, to be named), pieces of code of one
 * name told apart by their load times (first_time: the first sample's),
 * and the notes (files read, code no source covers) written.
 */
void bt_machine_jit_finish(struct bt_machine *m, uint64_t first_time);
/*
 * A JIT name (bt_module.jit_name) says which tier compiled the code: V8's
 * mark after "JS:" ("JS:~" interpreted, "JS:^" Sparkplug, "JS:+" Maglev,
 * "JS:*" TurboFan), HotSpot's " [c2 L4 #41]" after the method; and
 * bt_machine_jit_finish() ends the names of pieces of code of one name
 * with when each was loaded (" (loaded at 1.327 s)", " (version 2 at ...)").
 *
 * bt_jit_untiered(): the name without V8's "JS:" and mark, the same for
 * one function whatever tier runs it (a benchmark's entry frame; a task
 * runs in each tier in turn). Other names whole.
 */
const char *bt_jit_untiered(const char *name);
/*
 * The method a JIT name is code of, whatever its tier or version:
 * bt_jit_untiered()'s name up to HotSpot's tier or the version. Sets
 * *start, returns the length.
 */
size_t bt_jit_method(const char *name, const char **start);

/*
 * The machine's notes for the reader (a JIT source it could not read,
 * what the JIT sources held), moved out: *notes gets them (malloc'ed
 * strings), the machine keeps none.
 */
size_t bt_machine_take_notes(struct bt_machine *m, char ***notes);

#endif
