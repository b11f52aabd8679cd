#!/usr/bin/env python3
"""Import circles among a crate's source files: file A uses an item defined in file B while
B, directly or through other files, uses one defined in A. Each `use` path and each
`crate::`/`super::`/`self::` path in code (comments and strings dropped) is resolved to the
file that defines its last item (following `pub use` re-exports); strongly connected
components of more than one file are printed, and the exit status is 1 if there is one.
A parent module's `pub use` of its children's items is its facade, not a use; inline test
modules are left out. usage: circles.py CRATE_SRC_DIR... (CI: `crates/*/src`)"""
import os, re, sys
from collections import defaultdict

ITEM = re.compile(r'^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+fn|async\s+fn|unsafe\s+fn|fn|struct|enum|trait|type|const|static|union|macro_rules!)\s+([A-Za-z_][A-Za-z0-9_]*)', re.M)
MODDECL = re.compile(r'^\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+([a-z_0-9]+)\s*;', re.M)

def strip(src):
    src = re.sub(r'//[^\n]*', '', src)
    src = re.sub(r'/\*.*?\*/', '', src, flags=re.S)
    src = re.sub(r'"(?:\\.|[^"\\])*"', '""', src)
    return src

def modules(src_dir):
    """module path (tuple) -> file"""
    mods = {}
    root = os.path.join(src_dir, 'lib.rs')
    if not os.path.exists(root):
        root = os.path.join(src_dir, 'main.rs')
    def walk(path, file):
        mods[path] = file
        text = strip(open(file).read())
        base = os.path.dirname(file) if os.path.basename(file) in ('lib.rs', 'main.rs', 'mod.rs') else os.path.splitext(file)[0]
        for m in MODDECL.finditer(text):
            name = m.group(1)
            for cand in (os.path.join(base, name + '.rs'), os.path.join(base, name, 'mod.rs')):
                if os.path.exists(cand):
                    walk(path + (name,), cand)
                    break
    walk((), root)
    return mods

def use_trees(text):
    """Expand `use a::{b, c::{d, e}}` into paths; `pub use` re-exports (a module's facade)
    are not uses."""
    out = []
    for m in re.finditer(r'(?<!pub )(?<!\) )\buse\s+([^;]+);', text):
        body = re.sub(r'\s+', '', m.group(1))
        out.extend(expand(body))
    return out

def expand(s):
    i = s.find('{')
    if i < 0:
        s = re.sub(r'as[A-Za-z_0-9]+$', '', s) if '::' in s else s
        return [s.split(' as ')[0]]
    prefix, rest = s[:i], s[i+1:-1]
    parts, depth, cur = [], 0, ''
    for ch in rest:
        if ch == ',' and depth == 0:
            parts.append(cur); cur = ''
        else:
            depth += ch == '{'; depth -= ch == '}'; cur += ch
    if cur: parts.append(cur)
    res = []
    for p in parts:
        for e in expand(p):
            res.append(prefix + e if e != 'self' else prefix.rstrip(':'))
    return res

def main():
    found = 0
    for src_dir in sys.argv[1:]:
        mods = modules(src_dir)
        file_mod = {f: p for p, f in mods.items()}
        defs = defaultdict(set)   # (modpath, name) defined in file
        # Inline test modules (`#[cfg(test)] mod tests { .. }`, at a file's end) are the
        # file's tests, not its code.
        texts = {f: re.split(r'#\[cfg\(test\)\]\s*mod\s+\w+\s*\{', strip(open(f).read()))[0] for f in file_mod}
        for f, t in texts.items():
            for m in ITEM.finditer(t):
                defs[(file_mod[f], m.group(1))].add(f)
        # re-exports: (modpath, name) -> full path used
        reexports = {}
        for f, t in texts.items():
            for m in re.finditer(r'\buse\s+([^;]+);', t):
                for path in expand(re.sub(r'\s+', '', m.group(1))):
                    name = re.split(r'::', path)[-1]
                    if ' as ' in path: continue
                    reexports[(file_mod[f], name)] = (file_mod[f], path)
        def resolve(cur, path, depth=0):
            segs = [x for x in path.split('::') if x]
            if not segs or depth > 20: return None
            if segs[0] == 'crate': base, segs = (), segs[1:]
            elif segs[0] in ('super', 'self'):
                base = cur
                while segs and segs[0] in ('super', 'self'):
                    if segs[0] == 'super': base = base[:-1]
                    segs = segs[1:]
            else:
                # a name relative to the current module: child module or external crate
                if (cur + (segs[0],)) in mods: base = cur
                else: return None
            mod = base
            while segs and (mod + (segs[0],)) in mods:
                mod = mod + (segs[0],); segs = segs[1:]
            if not segs:
                return mods[mod]
            name = segs[0]
            if (mod, name) in defs:
                return sorted(defs[(mod, name)])[0]
            if (mod, name) in reexports:
                m2, p2 = reexports[(mod, name)]
                return resolve(m2, p2, depth + 1)
            # glob re-exports or enum variants: the module's file
            return mods[mod]
        edges = defaultdict(set)
        for f, t in texts.items():
            cur = file_mod[f]
            paths = use_trees(t)
            code = re.sub(r'pub(?:\([^)]*\))?\s+use\s+[^;]+;', '', t)
            code = re.sub(r'\buse\s+[^;]+;', '', code)
            paths += re.findall(r'\b((?:crate|super|self)(?:::[A-Za-z_][A-Za-z0-9_]*)+)', code)
            for p in paths:
                # a `use` of a child module declared here, or paths into children, also count
                g = resolve(cur, p)
                if g and g != f:
                    edges[f].add(g)
        # Tarjan
        index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]
        sys.setrecursionlimit(10000)
        def strong(v):
            index[v] = low[v] = counter[0]; counter[0] += 1; stack.append(v); on.add(v)
            for w in edges[v]:
                if w not in index:
                    strong(w); low[v] = min(low[v], low[w])
                elif w in on:
                    low[v] = min(low[v], index[w])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop(); on.discard(w); comp.append(w)
                    if w == v: break
                if len(comp) > 1: sccs.append(sorted(comp))
        for v in list(texts):
            if v not in index: strong(v)
        for c in sccs:
            print(f'circle ({len(c)} files): ' + ', '.join(os.path.relpath(x) for x in c))
            for a in c:
                for b in sorted(edges[a] & set(c)):
                    print(f'    {os.path.relpath(a)} -> {os.path.relpath(b)}')
        found += len(sccs)
        if not sccs:
            print(f'{src_dir}: no circle')
    return 1 if found else 0

sys.exit(main())
