#!/usr/bin/env bash
# Checks that every target's declared dependencies in Package.swift match the modules its Swift
# files import: an imported module that is not declared (it only builds because another target
# pulled it into the graph) and a declared dependency that no file imports are both errors.
# Toolchain modules (Foundation, Glibc, Testing, Synchronization, ...) need no declaration.
# It also checks the runtime rule (docs/architecture.md, "Modules"): no library target other than
# the offline ones depends, directly or through another target, on the trainer or the scorer.
#
#   scripts/check-imports.sh [PACKAGE_DIR]     (default: the package this script belongs to)
#
# Reads the manifest through `swift package dump-package`; exits 1 and names each mismatch.
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
# Its own scratch path: a build running in .build holds that folder's lock.
scratch=.build/check-imports
mkdir -p "$scratch"
swift package --scratch-path "$scratch" dump-package > "$scratch/manifest.json"
exec python3 - "$scratch/manifest.json" <<'PY'
import json, os, re, sys

TOOLCHAIN = {
    "Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Glibc", "Musl", "Darwin",
    "Dispatch", "Testing", "XCTest", "Synchronization", "_Concurrency", "_StringProcessing", "Observation",
    "RegexBuilder", "Android", "WinSDK", "os", "PackageDescription", "PackagePlugin", "Swift",
}
IMPORT = re.compile(
    r"^\s*(?:@[\w()]+\s+)*import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_][A-Za-z0-9_]*)",
    re.M)

manifest = json.load(open(sys.argv[1]))
failures = []
for target in manifest["targets"]:
    name, kind = target["name"], target["type"]
    if kind in ("system", "binary", "plugin", "macro"):
        continue
    path = target.get("path") or os.path.join("Tests" if kind == "test" else "Sources", name)
    excluded = [os.path.normpath(os.path.join(path, e)) for e in target.get("exclude", [])]
    imported = {}
    for root, dirs, files in os.walk(path):
        if any(os.path.normpath(root).startswith(e) for e in excluded):
            continue
        for f in files:
            if f.endswith(".swift"):
                text = open(os.path.join(root, f), encoding="utf-8").read()
                for module in IMPORT.findall(text):
                    imported.setdefault(module, os.path.join(root, f))
    declared = set()
    for dep in target.get("dependencies", []):
        for key in ("byName", "target", "product"):
            if key in dep:
                declared.add(dep[key][0])
    for module, where in sorted(imported.items()):
        if module not in TOOLCHAIN and module not in declared and module != name:
            failures.append(f"{name}: imports {module} ({where}) but does not declare it")
    for module in sorted(declared - set(imported)):
        failures.append(f"{name}: declares {module} but no file imports it")

# The runtime rule: library targets reach neither the training nor the scoring module.
OFFLINE = {"VigilTraining", "VigilScoring", "VigilBench"}
local = {t["name"]: t for t in manifest["targets"]}
def target_deps(name):
    out = set()
    for dep in local[name].get("dependencies", []):
        for key in ("byName", "target"):
            if key in dep and dep[key][0] in local:
                out.add(dep[key][0])
    return out
def reach(name, seen=None):
    seen = set() if seen is None else seen
    for dep in target_deps(name):
        if dep not in seen:
            seen.add(dep)
            reach(dep, seen)
    return seen
for name, target in local.items():
    if target["type"] == "regular" and name not in OFFLINE and not target.get("path", "").startswith("Tests/"):
        for offline in sorted(reach(name) & OFFLINE):
            failures.append(f"{name}: a runtime module, depends on {offline} (only the command, the tools and the tests may)")

for line in failures:
    print(line)
if failures:
    print(f"check-imports: {len(failures)} mismatch(es) between Package.swift and the import lines")
    sys.exit(1)
print(f"check-imports: {len(manifest['targets'])} targets, dependencies match the imports")
PY
