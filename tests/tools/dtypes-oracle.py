#!/usr/bin/env python3
"""Are the data types of a JSON export what llvm-dwarfdump says?

    dtypes-oracle.py BINARY EXPORT.json...

For every instruction row of BINARY's functions with a data_type (tests/test-datatypes.sh):
  - its text's memory operand is disp(%reg) (AT&T), and the offset shown
    is disp for a pointer in reg;
  - llvm-dwarfdump --lookup=ADDR gives the innermost scope at the
    address; among the variables and parameters of that scope and the
    scopes around it (llvm-dwarfdump --debug-info, read here), one is
    named data_type.var, and its DW_AT_location at ADDR is DW_OP_regN of
    that register (one expression for its scope, or a location list entry
    whose range holds ADDR), or DW_OP_fbreg N where the frame base is that
    register (clang) or the CFA, and readelf -wF's CFA rule at ADDR is that
    register plus an offset (GCC);
  - its DW_AT_type is a pointer or reference to the type shown;
  - the member path, walked over DW_AT_data_member_location (and base
    classes), adds up to the offset.
Prints one line per checked row and a summary; exits 1 on the first
disagreement.
"""
import json
import os
import re
import subprocess
import sys

DWREG = ["RAX", "RDX", "RCX", "RBX", "RSI", "RDI", "RBP", "RSP"] + \
    ["R%d" % i for i in range(8, 16)]
ATT = {"rax": 0, "rdx": 1, "rcx": 2, "rbx": 3, "rsi": 4, "rdi": 5, "rbp": 6,
       "rsp": 7}
ATT.update({"r%d" % i: i for i in range(8, 16)})


def fail(msg):
    print("dtypes-oracle: FAIL: " + msg)
    sys.exit(1)


def parse_dies(binary):
    """Every DIE of the dump: offset -> {tag, attrs, parent, children}."""
    out = subprocess.run(["llvm-dwarfdump", "--debug-info", binary], check=True,
                         capture_output=True, text=True).stdout
    dies, stack = {}, []
    cur, attr = None, None
    for line in out.split("\n"):
        m = re.match(r"^0x([0-9a-f]+):( +)(DW_TAG_\w+|NULL)", line)
        if m:
            off, depth, tag = int(m.group(1), 16), len(m.group(2)), m.group(3)
            while stack and stack[-1][1] >= depth:
                stack.pop()
            if tag == "NULL":
                cur = None
                continue
            cur = {"off": off, "tag": tag, "attrs": {}, "children": [],
                   "parent": stack[-1][0] if stack else None}
            if stack:
                dies[stack[-1][0]]["children"].append(off)
            dies[off] = cur
            stack.append((off, depth))
            continue
        m = re.match(r"^\s+(DW_AT_\w+)\s+\((.*)$", line)
        if m and cur is not None:
            attr = m.group(1)
            cur["attrs"][attr] = m.group(2)
            continue
        if cur is not None and attr is not None and line.strip():
            cur["attrs"][attr] += "\n" + line.strip()
    return dies


def lookup(binary, addr):
    """The innermost DIE llvm-dwarfdump --lookup gives for addr."""
    out = subprocess.run(["llvm-dwarfdump", "--lookup=0x%x" % addr, binary],
                         check=True, capture_output=True, text=True).stdout
    offs = [int(m.group(1), 16) for m in
            re.finditer(r"^0x([0-9a-f]+): +DW_TAG_(?:subprogram|lexical_block|inlined_subroutine)",
                        out, re.M)]
    return offs[-1] if offs else None


def ref_name(val):
    m = re.search(r'"(.*)"\)?$', val.split("\n")[0])
    return m.group(1) if m else None


def ref_off(val):
    return int(val.split()[0].strip("("), 16)


def attr(dies, d, name):
    """An attribute, through DW_AT_abstract_origin and DW_AT_specification."""
    seen = 0
    while d is not None and seen < 8:
        if name in d["attrs"]:
            return d["attrs"][name]
        nxt = d["attrs"].get("DW_AT_abstract_origin") or d["attrs"].get("DW_AT_specification")
        d = dies.get(ref_off(nxt)) if nxt else None
        seen += 1
    return None


def ranges(d):
    a = d["attrs"]
    if "DW_AT_low_pc" in a and "DW_AT_high_pc" in a:
        lo = int(a["DW_AT_low_pc"].strip("()"), 16)
        hi = a["DW_AT_high_pc"].strip("()")
        hi = int(hi, 16) if hi.startswith("0x") and len(hi) > 10 else lo + int(hi, 0)
        return [(lo, hi)]
    if "DW_AT_ranges" in a:
        return [(int(m.group(1), 16), int(m.group(2), 16)) for m in
                re.finditer(r"\[0x([0-9a-f]+), 0x([0-9a-f]+)\)", a["DW_AT_ranges"])]
    return []


def location_reg(loc, addr, scope_has, fbase):
    """Where a variable is at addr: ("reg", REG, 0) for DW_OP_regN (a
    pointer in a register), ("mem", REG, OFF) for the object at REG+OFF
    (DW_OP_bregN, or DW_OP_fbreg from a frame base DW_OP_regN,
    DW_OP_bregN or the CFA, fbase); None otherwise."""
    def one(e):
        e = e.strip()
        m = re.match(r"^DW_OP_reg\d+ (\w+)$", e)
        if m:
            return ("reg", m.group(1), 0)
        m = re.match(r"^DW_OP_breg\d+ (\w+)([+-]\d+)$", e)
        if m:
            return ("mem", m.group(1), int(m.group(2)))
        m = re.match(r"^DW_OP_fbreg ([+-]?\d+)$", e)
        if m and fbase is not None:
            return ("mem", fbase[0], fbase[1] + int(m.group(1)))
        return None
    if "[0x" not in loc:
        return one(loc.strip().strip("()")) if scope_has else None
    for m in re.finditer(r"\[0x([0-9a-f]+), 0x([0-9a-f]+)\): (.*?)\)?$", loc, re.M):
        if int(m.group(1), 16) <= addr < int(m.group(2), 16):
            return one(m.group(3))
    return None


def cfa_rows(binary):
    """readelf -wF's CFA rules: [(fde_lo, fde_hi, [(loc, "rsp+16"), ...])]."""
    out = subprocess.run(["readelf", "-wF", binary], check=True,
                         capture_output=True, text=True).stdout
    fdes = []
    for line in out.split("\n"):
        m = re.search(r"FDE cie=\w+ pc=([0-9a-f]+)\.\.([0-9a-f]+)", line)
        if m:
            fdes.append((int(m.group(1), 16), int(m.group(2), 16), []))
            continue
        m = re.match(r"^([0-9a-f]{16}) (\S+)", line)
        if m and fdes:
            fdes[-1][2].append((int(m.group(1), 16), m.group(2)))
    return fdes


CFA = []


def cfa_at(addr):
    """The CFA at addr as (REG, OFF) from readelf's table, None if not a register plus offset."""
    for lo, hi, rows in CFA:
        if lo <= addr < hi:
            rule = None
            for loc, r in rows:
                if loc <= addr:
                    rule = r
            m = re.match(r"^(r\w+)([+-]\d+)$", rule or "")
            return (m.group(1).upper(), int(m.group(2))) if m else None
    return None


def frame_base(d, addr):
    """A subprogram's DW_AT_frame_base at addr as (REG, OFF): a register
    (plus an offset), or the CFA (DW_OP_call_frame_cfa) as the CFI has it there."""
    fb = d["attrs"].get("DW_AT_frame_base", "").strip("()")
    if fb == "DW_OP_call_frame_cfa":
        return cfa_at(addr)
    m = re.match(r"^DW_OP_reg\d+ (\w+)$", fb)
    if m:
        return (m.group(1), 0)
    m = re.match(r"^DW_OP_breg\d+ (\w+)([+-]\d+)$", fb)
    return (m.group(1), int(m.group(2))) if m else None


def base_name(tstr):
    """'const geo::shape *const' -> 'geo::shape' (the type a pointer points
    to); 'node[4]' -> 'node'."""
    t = re.sub(r"\[\d+\]$", "", tstr.strip())
    while True:
        u = re.sub(r"(\s*(\*|&|&&|const|volatile)\s*)$", "", t)
        if u == t:
            break
        t = u
    return t.split()[-1] if t else t


def aggregate(dies, name):
    """The defining DIE of the struct, class or union named name (its last component)."""
    last = name.split("::")[-1]
    for d in dies.values():
        if d["tag"] in ("DW_TAG_structure_type", "DW_TAG_class_type", "DW_TAG_union_type") \
                and ref_name(d["attrs"].get("DW_AT_name", "")) == last \
                and "DW_AT_declaration" not in d["attrs"]:
            return d
    return None


def member_offset(dies, agg, path):
    """The byte offset of path ('b.x', 'pts[2].y') in agg, from DWARF's
    DW_AT_data_member_location; base classes searched as perf does."""
    if not path:
        return 0
    m = re.match(r"^\.?(\w+)?(?:\[(\d+)\])?(.*)$", path)
    name, idx, rest = m.group(1), m.group(2), m.group(3)
    for c in agg["children"]:
        d = dies[c]
        loc = d["attrs"].get("DW_AT_data_member_location")
        if d["tag"] == "DW_TAG_inheritance":
            base = dies[ref_off(d["attrs"]["DW_AT_type"])]
            sub = member_offset(dies, base, path)
            if sub is not None:
                return int(loc.strip("()"), 0) + sub
            continue
        if d["tag"] != "DW_TAG_member" or ref_name(d["attrs"].get("DW_AT_name", "")) != name:
            continue
        off = int(loc.strip("()"), 0) if loc else 0
        t = dies[ref_off(d["attrs"]["DW_AT_type"])]
        while t["tag"] in ("DW_TAG_typedef", "DW_TAG_const_type", "DW_TAG_volatile_type"):
            t = dies[ref_off(t["attrs"]["DW_AT_type"])]
        if idx is not None:
            if t["tag"] != "DW_TAG_array_type":
                return None
            t = dies[ref_off(t["attrs"]["DW_AT_type"])]
            while t["tag"] in ("DW_TAG_typedef", "DW_TAG_const_type"):
                t = dies[ref_off(t["attrs"]["DW_AT_type"])]
            off += int(idx) * int(t["attrs"]["DW_AT_byte_size"].strip("()"), 0)
        if not rest:
            return off
        sub = member_offset(dies, t, rest)
        return None if sub is None else off + sub
    return None


def main():
    binary = sys.argv[1]
    dies = parse_dies(binary)
    CFA.extend(cfa_rows(binary))
    n = 0
    for path in sys.argv[2:]:
        js = json.load(open(path))
        for a in js.get("annotations", []):
            # the binary's own functions (--all annotates the libraries' too)
            if os.path.realpath(a["module"]) != os.path.realpath(binary):
                continue
            for r in a["rows"]:
                dt = r.get("data_type")
                if r["kind"] != "insn" or dt is None:
                    continue
                addr = int(r["address"], 16)
                where = "%s %s %r" % (a["function"], r["address"], r["text"])
                m = re.search(r"(-?0x[0-9a-f]+)?\(%(\w+)\)", r["text"])
                if m is None or m.group(2) not in ATT:
                    fail("%s: no disp(%%reg) operand" % where)
                disp = int(m.group(1), 16) if m.group(1) else 0
                reg = DWREG[ATT[m.group(2)]]
                scope = lookup(binary, addr)
                if scope is None:
                    fail("%s: llvm-dwarfdump --lookup finds no scope" % where)
                found = None
                s = scope
                sub = scope
                while dies[sub]["tag"] != "DW_TAG_subprogram" and dies[sub]["parent"] is not None:
                    sub = dies[sub]["parent"]
                fbase = frame_base(dies[sub], addr)
                while s is not None and found is None:
                    sd = dies[s]
                    has = any(lo <= addr < hi for lo, hi in ranges(sd))
                    for c in sd["children"]:
                        v = dies[c]
                        if v["tag"] not in ("DW_TAG_variable", "DW_TAG_formal_parameter"):
                            continue
                        nm = attr(dies, v, "DW_AT_name")
                        if ref_name(nm or "") != dt["var"] and nm != '("%s")' % dt["var"]:
                            continue
                        loc = v["attrs"].get("DW_AT_location")
                        where_at = location_reg(loc, addr, has, fbase) if loc else None
                        if where_at is not None and where_at[1] == reg:
                            found = v
                            # a pointer: the displacement; an object: from its start
                            if dt["offset"] != disp - where_at[2]:
                                fail("%s: offset %d, the displacement is %d from %s's %s+%d" %
                                     (where, dt["offset"], disp, dt["var"], reg, where_at[2]))
                            break
                    if sd["tag"] == "DW_TAG_subprogram":
                        break
                    s = sd["parent"]
                if found is None:
                    fail("%s: no variable %r in %s at this address in DWARF" % (where, dt["var"], reg))
                tstr = ref_name(attr(dies, found, "DW_AT_type"))
                want = dt["type"].split(" ", 1)[1]
                if base_name(tstr) != want:
                    fail("%s: %s's type is %r in DWARF, %r shown" % (where, dt["var"], tstr, dt["type"]))
                agg = aggregate(dies, want)
                if agg is None:
                    fail("%s: no definition of %r" % (where, want))
                path = dt.get("member") or ""
                base = 0
                m = re.match(r"^\[(\d+)\]\.?(.*)$", path)
                if m:	# an element of an array variable
                    base = int(m.group(1)) * int(agg["attrs"]["DW_AT_byte_size"].strip("()"), 0)
                    path = m.group(2)
                off = member_offset(dies, agg, path)
                off = None if off is None else base + off
                if dt.get("member") is not None and off != dt["offset"]:
                    fail("%s: member %r is at %r in DWARF, +%d shown" % (where, dt["member"], off, dt["offset"]))
                print("   %s: %s in %s is %s: %s" % (where, dt["var"], reg, tstr, dt["text"]))
                n += 1
    print("dtypes-oracle: %d data types agree with llvm-dwarfdump" % n)


main()
