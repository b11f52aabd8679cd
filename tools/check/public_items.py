#!/usr/bin/env python3
"""Count public items of each library crate from rustdoc JSON (needs a nightly toolchain;
run from the workspace's root: `python3 tools/check/public_items.py [CRATE...]`).
named: items with a path (modules, types, functions, traits, consts, statics, macros);
all: every documented item of the crate but impl blocks and `use` (adds methods, fields, variants,
associated items)."""
import json, subprocess, sys, os, glob
crates = sys.argv[1:] or ["gamedata-io","mni-core","mul-core","wap-core","gamedata-render","gamedata-tiled"]
root = os.getcwd()
for c in crates:
    subprocess.run(["cargo","+nightly","rustdoc","-q","-p",c,"--lib","--all-features","--","-Z","unstable-options","--output-format","json"],check=True,
                   env=dict(os.environ, CARGO_TARGET_DIR=os.environ.get("COUNT_TARGET", root+"/target/count")))
    f = os.path.join(os.environ.get("COUNT_TARGET", root+"/target/count"),"doc",c.replace("-","_")+".json")
    d = json.load(open(f))
    named = sum(1 for p in d["paths"].values() if p["crate_id"]==0)
    idx = d["index"]
    trait_impl_items = set()
    for it in idx.values():
        inner = it["inner"]
        if "impl" in inner and inner["impl"].get("trait") is not None:
            trait_impl_items.update(str(i) for i in inner["impl"]["items"])
    allc = 0
    for key, it in idx.items():
        if it["crate_id"]!=0 or key in trait_impl_items: continue
        k = list(it["inner"].keys())[0]
        if k in ("impl","use"): continue
        allc += 1
    root_mod = d["index"][str(d["root"])]
    print(f"{c}\tnamed {named}\tall {allc}\troot-items {len(root_mod['inner']['module']['items'])}")
