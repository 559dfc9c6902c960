#!/usr/bin/env python3
"""Oracles of tests/test-jit-depth.sh, on benchtui's JSON export of JIT code.

  jit-depth.py targets EXPORT DUMP
      every call or jump of every [jit] annotation whose target lies in
      another load of the runtime's jitdump is named as that load (name, or
      name+0xoff): the dump's own records are the oracle
  jit-depth.py builtins EXPORT DUMP NODE
      node: every target named Builtins_X is node's symbol Builtins_X
      (nm), which V8's dump also records as Builtin:X at the same address,
      and the target's offset in it agrees with the symbol's address
  jit-depth.py v8scripts EXPORT DUMP SCRIPT
      node 20 names every line entry of optimized code with its outer
      script: each instruction of the hottest JS:* function that benchtui
      labels with a file has, in V8's own line entry for it, a column
      inside that line of that file (a position of an inlined function
      shown in the caller's script often falls past its end), and at
      least one is labelled SCRIPT (the inlined one)
  jit-depth.py runtime EXPORT LIB
      every indirect call of JIT code that benchtui names (HotSpot's
      "movabs $ADDR, %r10; call *%r10" into the VM) follows a movabs of
      an address of LIB's function of that name (nm -C; the same offset
      in its page, as LIB is mapped page-aligned)
  jit-depth.py inline EXPORT INLINE
      every inline row of a [jit] annotation is a frame of the chain the
      agent's inline file gives the instruction after it (method, call
      file, line and bytecode index), and at least one such row exists
  jit-depth.py printinlining EXPORT OUTPUT
      HotSpot's own -XX:+PrintCompilation -XX:+PrintInlining OUTPUT (of
      the same run, -Xbatch: one compile at a time) is the oracle: every
      edge (caller, bci of the call in the caller, callee) of every inline
      chain of a [jit] annotation named "[... #ID]" is an inlining that
      succeeded in compile ID's tree, and every inline row's bci is its
      chain's
  jit-depth.py javap EXPORT CLASSPATH
      javap -c -l -p -s of the classes (CLASSPATH, then the JDK's) is the
      oracle of every sampled instruction's own "bci" in a HotSpot
      annotation: its innermost method (the last of its inlines, else the
      compiled method, by descriptor) has an instruction at that bci,
      whose LineNumberTable line is the instruction's "line", in the
      class's source file; and every source row's bci is the bci of the
      instructions under it
Prints one line of counts; exits 1 on the first mismatch (printed).
"""
import json
import struct
import subprocess
import sys


def loads(path):
    d = open(path, 'rb').read()
    hsz = struct.unpack_from('<I', d, 8)[0]
    o, out = hsz, []
    while o + 16 <= len(d):
        rid, tot, ts = struct.unpack_from('<IIQ', d, o)
        if tot < 16 or o + tot > len(d):
            break
        if rid == 0:
            _, _, _, addr, size, idx = struct.unpack_from('<IIQQQQ', d, o + 16)
            e = d.index(b'\0', o + 56)
            out.append((addr, size, d[o + 56:e].decode('utf-8', 'replace'), ts, idx))
        o += tot
    return out


def jit_annotations(path):
    d = json.load(open(path))
    return [a for a in d['annotations'] if a['module'] == '[jit]']


def insns(a):
    return [r for r in a['rows'] if r['kind'] == 'insn']


def targets(export, dump):
    ls = loads(dump)
    named = checked = 0
    for a in jit_annotations(export):
        start = int(a['address'], 16)
        own = [l for l in ls if l[0] == start]
        end = max(l[0] + l[1] for l in own) if own else start
        for r in insns(a):
            if 'target' not in r:
                continue
            t = int(r['target'], 16)
            if start <= t < end:
                continue
            cover = [l for l in ls if l[0] <= t < l[0] + l[1]]
            if not cover:
                continue
            checked += 1
            want = set(l[2] if t == l[0] else '%s+0x%x' % (l[2], t - l[0]) for l in cover)
            got = r.get('target_name')
            if got not in want:
                print('%s: %s -> %s named %r, the dump says %s' %
                      (a['function'], r['address'], r['target'], got, sorted(want)))
                sys.exit(1)
            named += 1
    print('%d targets in other JIT code, %d named as the dump names them' % (checked, named))
    return checked


def builtins(export, dump, node):
    syms = {}
    for line in subprocess.run(['nm', node], capture_output=True, text=True).stdout.splitlines():
        f = line.split()
        if len(f) == 3 and f[2].startswith('Builtins_'):
            syms[f[2]] = int(f[0], 16)
    dumped = {l[2]: l[0] for l in loads(dump) if l[2].startswith('Builtin:')}
    n = 0
    for a in jit_annotations(export):
        for r in insns(a):
            name = r.get('target_name') or ''
            # calls through r13 (no target): tests/tools/v8-table.py
            if not name.startswith('Builtins_') or 'target' not in r:
                continue
            base, _, off = name.partition('+0x')
            off = int(off, 16) if off else 0
            t = int(r['target'], 16)
            if base not in syms:
                print('%s: %s is not a symbol of %s' % (r['address'], base, node))
                sys.exit(1)
            if dumped.get('Builtin:' + base[9:], syms[base]) != syms[base]:
                print('%s: %s at 0x%x in node, V8 dumped Builtin:%s at 0x%x' %
                      (r['address'], base, syms[base], base[9:], dumped['Builtin:' + base[9:]]))
                sys.exit(1)
            if (t - off - syms[base]) % 4096 != 0:
                print('%s: target 0x%x = %s, symbol at 0x%x: not the same page offset' %
                      (r['address'], t, name, syms[base]))
                sys.exit(1)
            n += 1
    print('%d calls to builtins named as node names them (%d builtins in the dump)' % (n, len(dumped)))
    return n


def v8_lines(path):
    """code address -> [(addr, line, column)] of each load, V8's 0x40 taken off"""
    d = open(path, 'rb').read()
    o, out, last = struct.unpack_from('<I', d, 8)[0], {}, None
    while o + 16 <= len(d):
        rid, tot, ts = struct.unpack_from('<IIQ', d, o)
        if tot < 16 or o + tot > len(d):
            break
        if rid == 2:
            addr, nr = struct.unpack_from('<QQ', d, o + 16)
            body = d[o + 32:o + tot]
            st = len(body) // nr if nr else 0
            last = []
            for i in range(nr if st >= 17 else 0):
                a, line, col = struct.unpack_from('<QII', body, i * st)
                last.append((a - 0x40, line, col))
        elif rid == 0:
            addr = struct.unpack_from('<Q', d, o + 16 + 16)[0]
            if last is not None:
                out[addr] = sorted(last)
            last = None
        o += tot
    return out


def v8scripts(export, dump, script):
    tables = v8_lines(dump)
    a = next(a for a in jit_annotations(export) if a['function'].startswith('JS:*'))
    tab = tables.get(int(a['address'], 16), [])
    files, checked, inl = {}, 0, 0
    for r in insns(a):
        if 'file' not in r:
            continue
        at = [e for e in tab if e[0] <= int(r['address'], 16)]
        if not at:
            continue
        _, line, col = at[-1]
        if line != r['line']:
            continue
        f = r['file']
        if f not in files:
            # an ES module's script is a file: URL
            files[f] = open(f[7:] if f.startswith('file://') else f).read().split('\n')
        text = files[f][line - 1] if line <= len(files[f]) else ''
        # V8 columns count from 1, a tab one column; the end of a line is
        # a position too (a function's implicit return)
        if col < 1 or col > len(text) + 1:
            print('%s: %s labelled %s:%d, V8 column %d is not in %r' %
                  (a['function'], r['address'], f, line, col, text))
            sys.exit(1)
        checked += 1
        inl += f.endswith(script)
    if not inl:
        print('%s: no instruction labelled %s (%d checked)' % (a['function'], script, checked))
        sys.exit(1)
    print('%s: %d instructions at V8 positions inside their labelled lines, %d of them in %s' %
          (a['function'], checked, inl, script))
    return checked


def runtime(export, lib):
    syms = {}
    for line in subprocess.run(['nm', '-C', lib], capture_output=True, text=True).stdout.splitlines():
        f = line.split(' ', 2)
        if len(f) == 3 and f[0] and f[1] in 'tTwW':
            syms.setdefault(f[2], set()).add(int(f[0], 16))
    n = 0
    for a in jit_annotations(export):
        rows = insns(a)
        for i, r in enumerate(rows):
            if 'target_name' not in r or 'target' in r:
                continue
            prev = rows[i - 1]['text'] if i else ''
            if not prev.startswith('movabs $0x'):
                print('%s: %s named %r, after %r' % (a['function'], r['address'], r['target_name'], prev))
                sys.exit(1)
            t = int(prev.split('$')[1].split(',')[0], 16)
            base, _, off = r['target_name'].partition('+0x')
            off = int(off, 16) if off else 0
            if not any((t - off - s) % 4096 == 0 for s in syms.get(base, ())):
                print('%s: %s calls 0x%x named %r: not a function of %s at that page offset' %
                      (a['function'], r['address'], t, r['target_name'], lib))
                sys.exit(1)
            n += 1
    print('%d calls through a register into %s named as its symbols name them' % (n, lib.rsplit('/', 1)[-1]))
    return n


def inline_file(path):
    d = open(path, 'rb').read()
    hs = struct.unpack_from('<I', d, 8)[0]
    o, out = hs, {}
    while o + 16 <= len(d):
        rid, tot, ts = struct.unpack_from('<IIQ', d, o)
        addr, idx, nm, npc = struct.unpack_from('<QQII', d, o + 16)
        p, ms = o + 40, []
        for _ in range(nm):
            e = d.index(b'\0', p); n = d[p:e].decode(); p = e + 1
            e = d.index(b'\0', p); f = d[p:e].decode(); p = e + 1
            ms.append((n, f))
        pcs = {}
        for _ in range(npc):
            pc, nf = struct.unpack_from('<QI', d, p); p += 12
            fr = []
            for _ in range(nf):
                mi, bci, line = struct.unpack_from('<IiI', d, p); p += 12
                fr.append((ms[mi][0], ms[mi][1], bci, line))
            pcs[pc] = fr
        out.setdefault(addr, []).append(pcs)
        o += tot
    return out


def inline(export, path):
    recs = inline_file(path)
    rows_seen = 0
    for a in jit_annotations(export):
        start = int(a['address'], 16)
        if start not in recs:
            continue
        # the pcs the chain is taken from: innermost frame with a line
        pcs = sorted((pc, fr) for pc, fr in recs[start][-1].items() if fr and fr[0][3] > 0)
        rows = a['rows']
        for i, r in enumerate(rows):
            if r['kind'] != 'inline':
                continue
            nxt = next((x for x in rows[i + 1:] if x['kind'] == 'insn'), None)
            if nxt is None:
                continue
            addr = int(nxt['address'], 16)
            at = [fr for pc, fr in pcs if pc <= addr]
            fr = at[-1] if at else pcs[0][1]
            # frames outermost first: callee fr[-2-k] called from fr[-1-k]
            chain = [(fr[-2 - k][0], fr[-1 - k][1], fr[-1 - k][3], fr[-1 - k][2])
                     for k in range(len(fr) - 1)]
            if r.get('leave'):
                # "back in F": F is the function itself or a frame still open
                back = r['text'].strip()[len('back in '):]
                if back.rstrip('()') != a['function'] and \
                   not any(back.rstrip('()') == m for m, f, l, b in chain):
                    print('%s: row %r before %s, the inline file has %s' %
                          (a['function'], r['text'], nxt['address'], chain))
                    sys.exit(1)
                rows_seen += 1
                continue
            if not any(r['text'].endswith('inlined %s() from %s:%d (bci %d)' %
                                          (m, f.rsplit('/', 1)[-1], l, b)) and
                       r['call_file'] == f and r['call_line'] == l and r['bci'] == b
                       for m, f, l, b in chain):
                print('%s: row %r before %s, the inline file has %s' %
                      (a['function'], r['text'], nxt['address'], chain))
                sys.exit(1)
            rows_seen += 1
    print('%d inline rows, each a frame of the agent\'s chain at its instruction' % rows_seen)
    return rows_seen


def print_inlining(path):
    """compile id -> {(caller, bci, callee): {status}} from PrintInlining's trees"""
    import re
    head = re.compile(r'^\s*\d+\s+(\d+)\s+[%sbn! ]*\d?\s+(\S+)')
    call = re.compile(r'^(\s*)@ (-?\d+)\s+(\S+)(.*)$')
    trees, cur, stack = {}, None, []
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        m = call.match(line)
        if m:
            if cur is None:
                continue
            col = len(m.group(1))
            while stack and stack[-1][0] >= col:
                stack.pop()
            caller = stack[-1][1] if stack else cur[1]
            st = m.group(4).split('bytes)')[-1].strip()
            trees[cur[0]].setdefault((caller, int(m.group(2)), m.group(3)), set()).add(st)
            stack.append((col, m.group(3)))
            continue
        m = head.match(line)
        if m and 'made not entrant' not in line and 'made zombie' not in line:
            cur, stack = (int(m.group(1)), m.group(2)), []
            trees.setdefault(cur[0], {})
    return trees


def ok_status(sts):
    """an inlining that succeeded (C1: "inline"; C2: "inline (hot)", "accessor", ...)"""
    return any(st.startswith('inline') or st == 'accessor' or st.startswith('force inline') or
               'late inline succeeded' in st for st in sts)


def printinlining(export, path):
    import re
    trees = print_inlining(path)
    edges, comps, depth = set(), set(), 0
    for a in jit_annotations(export):
        m = re.search(r' \[c[12] .*#(\d+)\]', a['function'])
        if not m:
            continue
        cid = int(m.group(1))
        # "Inl.run(I)J" -> "Inl::run", as PrintInlining names it
        meth = a['function'].split('(', 1)[0]
        meth = '::'.join(meth.rsplit('.', 1))
        for r in a['rows']:
            if r['kind'] != 'insn' or not r.get('inlines'):
                continue
            caller = meth
            for fr in r['inlines']:
                e = (caller, fr.get('bci'), fr['function'])
                if cid not in trees:
                    print('%s: compile %d not in PrintCompilation\'s output' % (a['function'], cid))
                    sys.exit(1)
                st = trees[cid].get(e)
                if st is None or not ok_status(st):
                    print('%s at %s: edge %s@%s -> %s is %s in compile %d\'s PrintInlining tree %s' %
                          (a['function'], r['address'], e[0], e[1], e[2],
                           'not' if st is None else repr(st), cid, sorted(trees[cid])[:12]))
                    sys.exit(1)
                edges.add((cid,) + e)
                comps.add(cid)
                caller = fr['function']
            depth = max(depth, len(r['inlines']))
    print('%d inline edges (caller, bci, callee) of %d compiles, chains up to %d deep, each an inlining of PrintInlining\'s tree of that compile' %
          (len(edges), len(comps), depth))
    return len(edges)


def javap_classes(classpath, names):
    """class -> (source file, {method: [(descriptor, {bci}, [(start, line)])]})"""
    import re
    import subprocess
    out = subprocess.run(['javap', '-c', '-l', '-p', '-s', '-cp', classpath] + sorted(names),
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         universal_newlines=True).stdout
    decl = re.compile(r'^(?:[a-z]+ )*(?:class|interface|enum) ([\w.$]+)')
    classes, src, cls, meth, code, switch = {}, None, None, None, False, False
    for line in out.split('\n'):
        if line.startswith('Compiled from "'):
            src = line.split('"')[1]
            continue
        m = decl.match(line)
        if m:
            cls = m.group(1)
            classes[cls] = (src, {})
            src, meth = None, None
            continue
        if cls is None:
            continue
        if line.startswith('  ') and not line.startswith('   ') and line.endswith(';'):
            head = line.strip()
            if head == 'static {};':
                name = '<clinit>'
            else:
                m = re.search(r'([\w$]+)\(', head)
                if not m:       # a field
                    meth = None
                    continue
                name = m.group(1)
                if name == cls or name == cls.rsplit('.', 1)[-1]:
                    name = '<init>'
            meth = [None, set(), []]
            classes[cls][1].setdefault(name, []).append(meth)
            code = switch = False
            continue
        if meth is None:
            continue
        s = line.strip()
        if s.startswith('descriptor: '):
            meth[0] = s[len('descriptor: '):]
        elif s == 'Code:':
            code = True
        elif s.startswith('LineNumberTable:') or s.startswith('LocalVariableTable:') or \
                s.startswith('Exception table:'):
            code = False
        elif switch:
            switch = s != '}'
        elif code:
            m = re.match(r'(\d+): [a-z]', s)
            if m:
                meth[1].add(int(m.group(1)))
                switch = s.endswith('{')
        m = re.match(r'line (\d+): (\d+)$', s)
        if m:
            meth[2].append((int(m.group(2)), int(m.group(1))))
    return classes


def line_of(table, bci):
    """the line of bci: the entry starting last at or before it (JVMS 4.7.12)"""
    best = None
    for start, line in table:
        if start <= bci and (best is None or start >= best[0]):
            best = (start, line)
    return best[1] if best else None


def javap(export, classpath):
    import re
    checked, skipped, pairs, methods, srcrows, lines = 0, 0, set(), set(), 0, 0
    todo = []
    for a in jit_annotations(export):
        m = re.match(r'^([\w.$]+)\.([\w$<>]+)(\([^)]*\)\S*) \[c[12] ', a['function'])
        if not m:
            continue
        outer = (m.group(1), m.group(2), m.group(3))
        src_bci = None
        for r in a['rows']:
            if r['kind'] == 'source':
                src_bci = r.get('bci')
                srcrows += 'bci' in r
                continue
            if r['kind'] != 'insn':
                continue
            if r.get('bci') != src_bci and 'file' in r:
                print('%s at %s: bci %s under a source row of bci %s' %
                      (a['function'], r['address'], r.get('bci'), src_bci))
                sys.exit(1)
            if not r['samples'] or 'line' not in r:
                continue
            lines += 1
            if 'bci' not in r:
                continue
            if r.get('inlines'):
                cls, name = r['inlines'][-1]['function'].rsplit('::', 1)
                desc = None
            else:
                cls, name, desc = outer
            todo.append((a['function'], r, cls, name, desc))
    names = set(t[2] for t in todo if '/0x' not in t[2] and '$$Lambda' not in t[2])
    classes = javap_classes(classpath, names) if names else {}
    for fn, r, cls, name, desc in todo:
        if cls not in classes:
            skipped += 1        # a hidden class (lambda forms): no class file
            continue
        src, meths = classes[cls]
        cands = [mt for mt in meths.get(name, []) if desc is None or mt[0] == desc]
        if not cands:
            print('%s at %s: no method %s.%s%s in javap\'s listing' %
                  (fn, r['address'], cls, name, desc or ''))
            sys.exit(1)
        good = [mt for mt in cands if r['bci'] in mt[1] and line_of(mt[2], r['bci']) == r['line']]
        if not good:
            print('%s at %s: %s.%s@%d (line %d): javap has %s' %
                  (fn, r['address'], cls, name, r['bci'], r['line'],
                   [(mt[0], r['bci'] in mt[1], line_of(mt[2], r['bci'])) for mt in cands]))
            sys.exit(1)
        if src is not None and r['file'].rsplit('/', 1)[-1] != src:
            print('%s at %s: file %s, javap says %s is compiled from %s' %
                  (fn, r['address'], r['file'], cls, src))
            sys.exit(1)
        checked += 1
        pairs.add((cls, name, r['bci']))
        methods.add((cls, name))
    print('%d sampled instructions with a bci of %d with a line (%d bytecodes of %d methods, %d source rows), each an instruction of its method in javap -c whose LineNumberTable line is the line shown%s' %
          (checked, lines, len(pairs), len(methods), srcrows,
           ', %d in hidden classes not checked' % skipped if skipped else ''))
    return checked


if __name__ == '__main__':
    mode = sys.argv[1]
    n = {'targets': lambda: targets(*sys.argv[2:4]),
         'builtins': lambda: builtins(*sys.argv[2:5]),
         'runtime': lambda: runtime(*sys.argv[2:4]),
         'v8scripts': lambda: v8scripts(*sys.argv[2:5]),
         'inline': lambda: inline(*sys.argv[2:4]),
         'printinlining': lambda: printinlining(*sys.argv[2:4]),
         'javap': lambda: javap(*sys.argv[2:4])}[mode]()
    sys.exit(0 if n > 0 else 2)
