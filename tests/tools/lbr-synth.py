#!/usr/bin/env python3
"""lbr-synth: an LBR call-stack recording made from a frame-pointer one.

    lbr-synth.py IN OUT [--depth N] [--no-hw-idx] [--no-lbr]

IN is a file-mode perf.data written by `perf record -g` (samples with
PERF_SAMPLE_CALLCHAIN and fixed-size fields only) of a program built with
frame pointers, so that each sample's user callchain is its true call
stack. OUT is what `perf record --call-graph lbr` would have written on a
machine whose LBR call stack holds N entries (default 8):

  - every attr gains PERF_SAMPLE_BRANCH_STACK, with branch_sample_type
    USER | CALL_STACK | NO_FLAGS | NO_CYCLES | HW_INDEX, as perf record
    sets it (--no-hw-idx: without HW_INDEX, no hw_idx word); the copies of
    the attrs in the EVENT_DESC feature too;
  - every sample with a user part gains the call stack its user callchain
    implies, innermost call first: entry k is the call whose return
    address is user[k + 1], from = the call instruction's address (read
    from the mapped file: `call rel32`, or `call r/m` by its ModRM length)
    and to = the call's target (rel32), else the start of the function
    the call went to (ELF symbols), else that frame's address; flags 0.
    Only the innermost N calls are kept, and the first return address
    that is not after a call instruction (junk past the outermost frame)
    ends the stack;
  - "covered" samples (the stack holds every call the callchain has) get
    their frame-pointer user callchain cut to the ip alone: where the LBR
    is right the frame-pointer chain is not, so only a reader of the LBR
    gets perf's answer. "Full" samples (more calls than N) keep their
    whole frame-pointer chain: perf reads the LBR alone, and a reader that
    added the frame-pointer frames above the LBR would not get its answer.
  - samples whose user chain has no call at all (the ip alone, or junk
    after it) are left out: with an empty stack perf takes entries[0].to
    from past the record.

--no-lbr writes the same cut callchains without any branch stack: what a
reader that ignores the branch stack sees (perf's answer on it must
differ, else the test proves nothing).

Prints one line of counts, with the samples whose frame-pointer chain may
be wrong where a call stack would not be ("unsure": a kernel sample, whose
first user frame perf takes from the stack, or one in a function's
prologue or at its ret, where the chain skips the caller). Little-endian files only; exits 2 with a
message on anything it does not handle.
"""
import bisect
import struct
import sys

PERF_SAMPLE_IP = 1 << 0
PERF_SAMPLE_TID = 1 << 1
PERF_SAMPLE_TIME = 1 << 2
PERF_SAMPLE_ADDR = 1 << 3
PERF_SAMPLE_READ = 1 << 4
PERF_SAMPLE_CALLCHAIN = 1 << 5
PERF_SAMPLE_ID = 1 << 6
PERF_SAMPLE_CPU = 1 << 7
PERF_SAMPLE_PERIOD = 1 << 8
PERF_SAMPLE_STREAM_ID = 1 << 9
PERF_SAMPLE_BRANCH_STACK = 1 << 11
PERF_SAMPLE_WEIGHT = 1 << 14
PERF_SAMPLE_DATA_SRC = 1 << 15
PERF_SAMPLE_IDENTIFIER = 1 << 16
PERF_SAMPLE_TRANSACTION = 1 << 17
PERF_SAMPLE_PHYS_ADDR = 1 << 19
PERF_SAMPLE_CGROUP = 1 << 21
PERF_SAMPLE_DATA_PAGE_SIZE = 1 << 22
PERF_SAMPLE_CODE_PAGE_SIZE = 1 << 23
PERF_SAMPLE_WEIGHT_STRUCT = 1 << 24

# fields before the callchain (one u64 each) and after it that we copy
BEFORE = [PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID,
          PERF_SAMPLE_TIME, PERF_SAMPLE_ADDR, PERF_SAMPLE_ID,
          PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU, PERF_SAMPLE_PERIOD]
AFTER = (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION |
         PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP | PERF_SAMPLE_DATA_PAGE_SIZE |
         PERF_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_WEIGHT_STRUCT)

BR_USER = 1 << 0
BR_CALL_STACK = 1 << 11
BR_NO_FLAGS = 1 << 14
BR_NO_CYCLES = 1 << 15
BR_HW_INDEX = 1 << 17

PERF_CONTEXT_USER = (1 << 64) - 512
PERF_CONTEXT_MAX = (1 << 64) - 4095
REC_MMAP, REC_COMM, REC_FORK, REC_SAMPLE, REC_MMAP2 = 1, 3, 7, 9, 10
MISC_COMM_EXEC = 1 << 13
FEAT_EVENT_DESC = 12


def die(msg):
    sys.stderr.write("lbr-synth: %s\n" % msg)
    sys.exit(2)


class Elf:
    """The bytes, PT_LOAD segments and function symbols of one ELF file."""

    def __init__(self, path):
        self.data = b""
        self.loads = []		# (p_offset, p_filesz, p_vaddr)
        self.funcs = []		# sorted (st_value, st_size)
        try:
            self.data = open(path, "rb").read()
        except OSError:
            return
        d = self.data
        if d[:4] != b"\x7fELF" or d[4] != 2 or d[5] != 1:
            self.data = b""
            return
        phoff, shoff = struct.unpack_from("<QQ", d, 32)
        phentsize, phnum, shentsize, shnum = struct.unpack_from("<HHHH", d, 54)
        for i in range(phnum):
            p = phoff + i * phentsize
            ptype, _, off, vaddr, _, filesz = struct.unpack_from("<IIQQQQ", d, p)
            if ptype == 1:
                self.loads.append((off, filesz, vaddr))
        syms = set()
        for i in range(shnum):
            s = shoff + i * shentsize
            _, stype, _, _, off, size, _, _, _, entsize = \
                struct.unpack_from("<IIQQQQIIQQ", d, s)
            if stype not in (2, 11) or entsize != 24:	# SYMTAB, DYNSYM
                continue
            for j in range(size // 24):
                _, info, _, shndx, value, ssize = \
                    struct.unpack_from("<IBBHQQ", d, off + j * 24)
                if info & 0xf == 2 and shndx != 0 and value:	# STT_FUNC
                    syms.add((value, ssize))
        self.funcs = sorted(syms)

    def vaddr(self, off):
        for o, n, v in self.loads:
            if o <= off < o + n:
                return v + off - o
        return None

    def func_start(self, va):
        i = bisect.bisect_right(self.funcs, (va, 1 << 64)) - 1
        for start, size in reversed(self.funcs[max(0, i - 32):i + 1]):
            if start <= va < start + size:
                return start
        return None


class Space:
    """A process's executable mappings: runtime address -> file bytes."""

    def __init__(self, maps=None):
        self.maps = list(maps or [])	# (start, end, pgoff, path), newest last

    def find(self, addr):
        for start, end, pgoff, path in reversed(self.maps):
            if start <= addr < end:
                return start, pgoff, path
        return None


class Synth:
    def __init__(self, depth, hw_idx, lbr):
        self.depth, self.hw_idx, self.lbr = depth, hw_idx, lbr
        self.spaces = {}
        self.elves = {}
        self.n = {"samples": 0, "covered": 0, "full": 0, "no-user": 0,
                  "dropped": 0, "entries": 0, "indirect": 0, "unsure": 0}

    def elf(self, path):
        if path not in self.elves:
            self.elves[path] = Elf(path)
        return self.elves[path]

    def file_at(self, pid, addr):
        """(elf, file offset) of pid's file mapping at addr, or None."""
        sp = self.spaces.get(pid)
        m = sp.find(addr) if sp else None
        if m is None or m[2].startswith("["):
            return None
        start, pgoff, path = m
        return self.elf(path), pgoff + addr - start

    def read(self, pid, addr, n):
        """n bytes of pid's code at addr, or None."""
        at = self.file_at(pid, addr)
        if at is None:
            return None
        e, off = at
        if off < 0 or off + n > len(e.data):
            return None
        return e.data[off:off + n]

    def func_start(self, pid, addr):
        at = self.file_at(pid, addr)
        if at is None:
            return None
        e, off = at
        va = e.vaddr(off)
        s = e.func_start(va) if va is not None else None
        return None if s is None else addr - (va - s)

    def call_before(self, pid, ret):
        """(from, rel32 target or None) of the call that returns to ret."""
        if ret < 8 or ret >= PERF_CONTEXT_MAX:
            return None
        b = self.read(pid, ret - 8, 8)
        if b is None:
            return None
        if b[3] == 0xe8:
            rel, = struct.unpack_from("<i", b, 4)
            return ret - 5, (ret + rel) & ((1 << 64) - 1)
        for n in range(2, 9):	# call r/m64 (ff /2), shortest first
            if indirect_call_len(b[8 - n:]) == n:
                self.n["indirect"] += 1
                return ret - n, None
        return None

    def frameless(self, pid, ip):
        """Is ip where its function has no frame of its own (push %rbp;
        mov %rsp,%rbp not done yet, or done with: ret), so that the
        frame-pointer chain skips its caller?"""
        start = self.func_start(pid, ip)
        if start is not None and ip - start < 4:
            return True
        b = self.read(pid, ip, 1)
        return b is not None and b[0] == 0xc3

    def branch_stack(self, pid, user):
        """The call stack (from, to) pairs, innermost first, and whether
        it holds every call of the user chain."""
        ents = []
        callee = user[0]
        for ret in user[1:]:
            c = self.call_before(pid, ret)
            if c is None:
                break
            frm, to = c
            if to is None:
                to = self.func_start(pid, callee)
                if to is None:
                    to = callee
            ents.append((frm, to))
            callee = frm
        return ents[:self.depth], len(ents) <= self.depth

    def sample(self, rec, misc, layout):
        self.n["samples"] += 1
        nbefore, pid_at = layout
        hdr = rec[:8]
        p = 8 + 8 * nbefore
        pid = struct.unpack_from("<I", rec, pid_at)[0] if pid_at >= 0 else None
        nr, = struct.unpack_from("<Q", rec, p)
        chain = list(struct.unpack_from("<%dQ" % nr, rec, p + 8))
        rest = rec[p + 8 + 8 * nr:]
        head = rec[8:p]
        if PERF_CONTEXT_USER in chain:
            u = chain.index(PERF_CONTEXT_USER)
            user = chain[u + 1:]
            ents, covered = self.branch_stack(pid, user) if user else ([], True)
            if not ents:
                self.n["dropped"] += 1
                return None
            if u > 0 or (user and self.frameless(pid, user[0])):
                self.n["unsure"] += 1
            self.n["covered" if covered else "full"] += 1
            self.n["entries"] += len(ents)
            if covered:
                chain = chain[:u + 2]
        else:
            self.n["no-user"] += 1
            ents = []
        out = head + struct.pack("<Q", len(chain)) + struct.pack("<%dQ" % len(chain), *chain)
        if self.lbr:
            out += struct.pack("<Q", len(ents))
            if self.hw_idx:
                out += struct.pack("<Q", (len(ents) - 1) % self.depth if ents else 0)
            for frm, to in ents:
                out += struct.pack("<QQQ", frm, to, 0)
        out += rest
        size = 8 + len(out)
        if size > 0xffff:
            die("a sample grows past 64 KiB")
        return struct.pack("<IHH", REC_SAMPLE, misc, size) + out

    def sideband(self, typ, misc, rec):
        if typ == REC_MMAP2:
            pid, _, start, length, pgoff = struct.unpack_from("<IIQQQ", rec, 8)
            prot, = struct.unpack_from("<I", rec, 64)
            path = rec[72:].split(b"\0", 1)[0].decode("utf-8", "replace")
            if prot & 4:
                self.spaces.setdefault(pid, Space()).maps.append(
                    (start, start + length, pgoff, path))
        elif typ == REC_MMAP:
            pid, _, start, length, pgoff = struct.unpack_from("<IIQQQ", rec, 8)
            path = rec[40:].split(b"\0", 1)[0].decode("utf-8", "replace")
            if not misc & (1 << 13):	# PERF_RECORD_MISC_MMAP_DATA
                self.spaces.setdefault(pid, Space()).maps.append(
                    (start, start + length, pgoff, path))
        elif typ == REC_COMM and misc & MISC_COMM_EXEC:
            pid, = struct.unpack_from("<I", rec, 8)
            self.spaces[pid] = Space()
        elif typ == REC_FORK:
            pid, ppid = struct.unpack_from("<II", rec, 8)
            if pid != ppid and ppid in self.spaces:
                self.spaces[pid] = Space(self.spaces[ppid].maps)


def indirect_call_len(b):
    """Length of the call r/m64 (ff /2) starting at b[0], or 0."""
    i = 0
    while i < len(b) and b[i] in (0x2e, 0x3e, 0x66, 0x67, 0xf2):
        i += 1
    if i < len(b) and 0x40 <= b[i] <= 0x4f:
        i += 1
    if i + 1 >= len(b) or b[i] != 0xff:
        return 0
    modrm = b[i + 1]
    i += 2
    mod, reg, rm = modrm >> 6, (modrm >> 3) & 7, modrm & 7
    if reg != 2:
        return 0
    if mod == 3:
        return i
    if rm == 4:
        if i >= len(b):
            return 0
        base = b[i] & 7
        i += 1
        if mod == 0 and base == 5:
            i += 4
    elif mod == 0 and rm == 5:
        i += 4
    i += {0: 0, 1: 1, 2: 4}[mod]
    return i if i <= len(b) else 0


def patch_attr(buf, off, hw_idx):
    st, = struct.unpack_from("<Q", buf, off + 24)
    struct.pack_into("<Q", buf, off + 24, st | PERF_SAMPLE_BRANCH_STACK)
    bst = BR_USER | BR_CALL_STACK | BR_NO_FLAGS | BR_NO_CYCLES
    struct.pack_into("<Q", buf, off + 72, bst | (BR_HW_INDEX if hw_idx else 0))


def main():
    args = sys.argv[1:]
    depth, hw_idx, lbr = 8, True, True
    pos = []
    i = 0
    while i < len(args):
        if args[i] == "--depth" and i + 1 < len(args):
            depth = int(args[i + 1])
            i += 2
            continue
        if args[i] == "--no-hw-idx":
            hw_idx = False
        elif args[i] == "--no-lbr":
            lbr = False
        else:
            pos.append(args[i])
        i += 1
    if len(pos) != 2 or not 1 <= depth <= 127:
        die("usage: lbr-synth.py IN OUT [--depth 1..127] [--no-hw-idx] [--no-lbr]")
    data = bytearray(open(pos[0], "rb").read())
    if data[:8] != b"PERFILE2":
        die("not a little-endian perf.data file")
    hsize, attr_size, aoff, asize, doff, dsize = struct.unpack_from("<6Q", data, 8)
    if hsize == 16:
        die("pipe-mode file")
    features = list(struct.unpack_from("<4Q", data, 72))
    nattr = asize // attr_size
    types = set()
    for k in range(nattr):
        types.add(struct.unpack_from("<Q", data, aoff + k * attr_size + 24)[0])
    if len(types) != 1:
        die("events with different sample_type")
    st = types.pop()
    if not st & PERF_SAMPLE_CALLCHAIN:
        die("no callchains (record with perf record -g)")
    other = st & ~(sum(BEFORE) | PERF_SAMPLE_CALLCHAIN | AFTER)
    if other:
        die("sample_type 0x%x has fields this tool does not handle (0x%x)" % (st, other))
    nbefore = sum(1 for f in BEFORE if st & f)
    pid_at = -1
    if st & PERF_SAMPLE_TID:
        pid_at = 8 + 8 * sum(1 for f in BEFORE[:2] if st & f)
    else:
        die("samples without TID")

    s = Synth(depth, hw_idx, lbr)
    out = bytearray(data[:doff])
    if lbr:
        for k in range(nattr):
            patch_attr(out, aoff + k * attr_size, hw_idx)
    p, end = doff, doff + dsize
    while p + 8 <= end:
        typ, misc, size = struct.unpack_from("<IHH", data, p)
        if size < 8 or p + size > end:
            die("bad record at offset %d" % p)
        rec = bytes(data[p:p + size])
        if typ == REC_SAMPLE:
            r = s.sample(rec, misc, (nbefore, pid_at))
            if r is not None:
                out += r
        else:
            s.sideband(typ, misc, rec)
            out += rec
        p += size
    new_dsize = len(out) - doff
    delta = new_dsize - dsize
    struct.pack_into("<Q", out, 48, new_dsize)
    # the feature table follows the data; the sections follow the table
    bits = [b for b in range(256) if features[b // 64] >> (b % 64) & 1]
    table = doff + dsize
    sections = [struct.unpack_from("<QQ", data, table + 16 * k) for k in range(len(bits))]
    tail_start = table + 16 * len(bits)
    for k, (off, size) in enumerate(sections):
        if off < tail_start:
            die("a feature section before the data's end")
        out += struct.pack("<QQ", off + delta, size)
    out += data[tail_start:]
    if lbr and FEAT_EVENT_DESC in bits:
        off, size = sections[bits.index(FEAT_EVENT_DESC)]
        q = off + delta
        nre, sz = struct.unpack_from("<II", out, q)
        q += 8
        for _ in range(nre):
            patch_attr(out, q, hw_idx)
            q += sz
            nids, = struct.unpack_from("<I", out, q)
            slen, = struct.unpack_from("<I", out, q + 4)
            q += 8 + slen + 8 * nids
    open(pos[1], "wb").write(out)
    n = s.n
    print("lbr-synth: %d samples: %d covered by %d entries, %d full, %d without a user "
          "part, %d left out (no call in the user chain); %d entries (%d indirect calls); "
          "%d unsure (in the kernel, or where the function has no frame: the "
          "frame-pointer chain may skip a caller)" % (
              n["samples"] - n["dropped"], n["covered"], depth, n["full"], n["no-user"],
              n["dropped"], n["entries"], n["indirect"], n["unsure"]))


main()
