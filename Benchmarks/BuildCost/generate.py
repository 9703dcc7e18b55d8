#!/usr/bin/env python3
"""Writes one program twice: on Confluence and on OpenCombine, for the build-cost benchmark.

    Benchmarks/BuildCost/generate.py OUT_DIR ROOT

writes OUT_DIR/confluence-program and OUT_DIR/opencombine-program, two Swift packages whose sources are the
same text but for the import line (`import Confluence` / `import OpenCombine`); ROOT is this
repository, which the Confluence package names by path. The program is 50 pipelines of the
kind an app writes — a subject, then 4 to 8 stages drawn from map, filter, compactMap,
removeDuplicates, scan, flatMap, debounce and zip — each behind an `AnyPublisher` at the API
boundary (a feature type's method returns `AnyPublisher<String, Never>`), and some erased
once more in the middle, where a service would hand them over. Ten feature files hold five
pipelines each; `main.swift` subscribes to every pipeline, sends values and prints a checksum
per pipeline, so the two programs can be checked to compute the same thing.

The description (PIPELINES) is drawn once from a fixed seed, so every run writes the same
programs. OpenCombine 0.14 has no `combineLatest` (nor `merge`): the fan-in stage is `zip`,
which both have (in Confluence both are written by the same generator, Scripts/generate-fan-in.py,
and cost alike).
"""

import random
import sys
from pathlib import Path

PIPELINE_COUNT = 50
PER_FILE = 5
SEED = 37

# Stages by the element type they take: (template, type it produces). `{k}` is a small
# constant drawn per stage, so no two stages are the same closure. Every closure states its
# parameter and result types, as app code does once a chain grows: with `$0` closures and the
# integer operators' overloads, Swift 6.3's type checker gives up ("unable to type-check this
# expression in reasonable time") on most of these chains, against OpenCombine and Confluence
# alike (measured: Feature01.swift on its own fails on both after 1.5–2.5 CPU-minutes).
STAGES = {
    "Int": [
        ("map {{ (value: Int) -> Int in value &* {k} &+ 1 }}", "Int"),
        ("filter {{ (value: Int) -> Bool in value % {k} != 0 }}", "Int"),
        ("compactMap {{ (value: Int) -> Int? in value % {k} == 1 ? nil : value }}", "Int"),
        ("removeDuplicates()", "Int"),
        ("scan(0) {{ (sum: Int, value: Int) -> Int in sum &+ value &* {k} }}", "Int"),
        ("flatMap {{ (value: Int) -> Just<Int> in Just(value &+ {k}) }}", "Int"),
        ("debounce(for: .zero, scheduler: ImmediateScheduler.shared)", "Int"),
        ("zip(other).map {{ (pair: (Int, Int)) -> Int in pair.0 &+ pair.1 &* {k} }}", "Int"),
        ("map {{ (value: Int) -> Item in Item(id: value, title: \"item \" + String(value % {k})) }}", "Item"),
        ("map {{ (value: Int) -> String in String(value, radix: {k} + 1) }}", "String"),
    ],
    "String": [
        ("map {{ (text: String) -> String in text + \"{k}\" }}", "String"),
        ("filter {{ (text: String) -> Bool in text.count % {k} != 1 }}", "String"),
        ("removeDuplicates()", "String"),
        ("flatMap {{ (text: String) -> Just<String> in Just(text.uppercased()) }}", "String"),
        ("debounce(for: .zero, scheduler: ImmediateScheduler.shared)", "String"),
        ("zip(other).map {{ (pair: (String, Int)) -> String in pair.0 + String(pair.1 % {k}) }}", "String"),
        ("map {{ (text: String) -> Int in text.utf8.count &* {k} }}", "Int"),
    ],
    "Item": [
        ("map {{ (item: Item) -> Item in Item(id: item.id &+ {k}, title: item.title) }}", "Item"),
        ("filter {{ (item: Item) -> Bool in item.id % {k} != 2 }}", "Item"),
        ("removeDuplicates()", "Item"),
        ("flatMap {{ (item: Item) -> Just<Item> in Just(item) }}", "Item"),
        ("zip(other).map {{ (pair: (Item, Int)) -> Item in Item(id: pair.0.id &+ pair.1, title: pair.0.title) }}", "Item"),
        ("map {{ (item: Item) -> Int in item.id }}", "Int"),
        ("map {{ (item: Item) -> String in item.title + \"/{k}\" }}", "String"),
    ],
}

# The last stage brings every pipeline to String, the API's element type.
TO_STRING = {
    "Int": "map {{ (value: Int) -> String in String(value) }}",
    "String": "map {{ (text: String) -> String in text }}",
    "Item": "map {{ (item: Item) -> String in item.title + String(item.id) }}",
}


def describe():
    """The 50 pipelines: per pipeline, its subject kind, its stages and where it is erased."""
    rng = random.Random(SEED)
    pipelines = []
    for index in range(PIPELINE_COUNT):
        element = "Int"
        stages = []
        for _ in range(rng.randint(4, 8)):
            template, produced = rng.choice(STAGES[element])
            stages.append(template.format(k=rng.randint(2, 9)))
            element = produced
        stages.append(TO_STRING[element].format())
        pipelines.append({
            "subject": rng.choice(["PassthroughSubject<Int, Never>()", "CurrentValueSubject<Int, Never>(0)"]),
            "stages": stages,
            # Erased once more in the middle (a service's boundary) in about a third of them.
            "erase_at": rng.randint(1, len(stages) - 1) if rng.random() < 0.35 else None,
        })
    return pipelines


def feature_file(file_index, pipelines, import_line):
    name = f"Feature{file_index + 1:02d}"
    lines = [
        import_line,
        "",
        f"/// Five pipelines of the generated program, behind `AnyPublisher` like an app's API.",
        f"struct {name}: Feature {{",
    ]
    for offset, pipeline in enumerate(pipelines):
        number = file_index * PER_FILE + offset
        lines.append(f"  let input{offset} = {pipeline['subject']}")
    lines.append("  let other = PassthroughSubject<Int, Never>()")
    lines.append("")
    lines.append("  func send(_ value: Int) {")
    for offset in range(len(pipelines)):
        lines.append(f"    input{offset}.send(value &+ {offset})")
    lines.append("    other.send(value)")
    lines.append("  }")
    for offset, pipeline in enumerate(pipelines):
        number = file_index * PER_FILE + offset
        lines.append("")
        lines.append(f"  func pipeline{number:02d}() -> AnyPublisher<String, Never> {{")
        lines.append(f"    input{offset}")
        for position, stage in enumerate(pipeline["stages"]):
            lines.append(f"      .{stage}")
            if pipeline["erase_at"] == position + 1:
                lines.append("      .eraseToAnyPublisher()")
        lines.append("      .eraseToAnyPublisher()")
        lines.append("  }")
    lines.append("")
    lines.append("  func pipelines() -> [(String, AnyPublisher<String, Never>)] {")
    lines.append("    [")
    for offset in range(len(pipelines)):
        number = file_index * PER_FILE + offset
        lines.append(f"      (\"pipeline{number:02d}\", pipeline{number:02d}()),")
    lines.append("    ]")
    lines.append("  }")
    lines.append("}")
    return name, "\n".join(lines) + "\n"


MODEL = """{import_line}

/// The generated program's model type.
struct Item: Equatable {{
  var id: Int
  var title: String
}}

/// What `main.swift` asks of each feature type.
protocol Feature {{
  func send(_ value: Int)
  func pipelines() -> [(String, AnyPublisher<String, Never>)]
}}
"""

MAIN = """{import_line}

// Subscribes to every pipeline, sends 0..<40 through each feature, and prints per pipeline
// how many values arrived and a checksum of them, so two builds can be compared.
var cancellables: [AnyCancellable] = []
var results: [String: (count: Int, checksum: UInt64)] = [:]
var order: [String] = []
let features: [any Feature] = [{features}]
for feature in features {{
  for (name, publisher) in feature.pipelines() {{
    order.append(name)
    results[name] = (0, 14_695_981_039_346_656_037)
    publisher.sink {{ value in
      var entry = results[name]!
      entry.count += 1
      for byte in value.utf8 {{ entry.checksum = (entry.checksum ^ UInt64(byte)) &* 1_099_511_628_211 }}
      results[name] = entry
    }}.store(in: &cancellables)
  }}
}}
for value in 0..<40 {{
  for feature in features {{ feature.send(value) }}
}}
for name in order {{
  let entry = results[name]!
  print("\\(name) \\(entry.count) \\(entry.checksum)")
}}
"""

MANIFESTS = {
    "confluence": """// swift-tools-version:6.0
// Generated by Benchmarks/BuildCost/generate.py: the build-cost program on Confluence.
import PackageDescription

let package = Package(
  name: "BuildCostConfluence",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "Confluence", path: "{root}")],
  targets: [
    .executableTarget(name: "App", dependencies: [.product(name: "Confluence", package: "Confluence")])
  ],
  swiftLanguageModes: [.v6]
)
""",
    "opencombine": """// swift-tools-version:6.0
// Generated by Benchmarks/BuildCost/generate.py: the build-cost program on OpenCombine.
import PackageDescription

let package = Package(
  name: "BuildCostOpenCombine",
  dependencies: [.package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0")],
  targets: [
    .executableTarget(name: "App", dependencies: [.product(name: "OpenCombine", package: "OpenCombine")])
  ],
  swiftLanguageModes: [.v6]
)
""",
}

IMPORTS = {"confluence": "import Confluence", "opencombine": "import OpenCombine"}


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: generate.py OUT_DIR REPOSITORY_ROOT")
    out, root = Path(sys.argv[1]), Path(sys.argv[2]).resolve()
    pipelines = describe()
    chunks = [pipelines[i:i + PER_FILE] for i in range(0, len(pipelines), PER_FILE)]
    for library, import_line in IMPORTS.items():
        package = out / f"{library}-program"  # not "opencombine": a root named like its dependency clashes
        sources = package / "Sources" / "App"
        sources.mkdir(parents=True, exist_ok=True)
        for old in sources.glob("*.swift"):
            old.unlink()
        (package / "Package.swift").write_text(MANIFESTS[library].format(root=root))
        names = []
        for index, chunk in enumerate(chunks):
            name, text = feature_file(index, chunk, import_line)
            names.append(name)
            (sources / f"{name}.swift").write_text(text)
        (sources / "Model.swift").write_text(MODEL.format(import_line=import_line))
        (sources / "main.swift").write_text(
            MAIN.format(import_line=import_line, features=", ".join(f"{n}()" for n in names)))
    stage_count = sum(len(p["stages"]) for p in pipelines)
    print(f"wrote {len(pipelines)} pipelines ({stage_count} stages) to {out}/confluence-program and {out}/opencombine-program")


if __name__ == "__main__":
    main()
