"""What `Benchmarks/atomics` and `Benchmarks/functions` share: one body of
`confluence-instructions` run under callgrind with N and with 2N elements, and Swift names
demangled. (`Benchmarks/instructions` does the same runs in shell, for the total only.)"""
import contextlib
import os
import subprocess
import tempfile

here = os.path.dirname(os.path.abspath(__file__))


@contextlib.contextmanager
def profiles(workload, library, n, options):
    """Yields the stripped copy of the binary that ran and the two profiles (N, then 2N
    elements), written with the valgrind `options` given, in a scratch directory that is
    removed afterwards. BIN=path counts another build of `confluence-instructions`."""
    binary = os.environ.get("BIN", os.path.join(here, ".build/release/confluence-instructions"))
    with tempfile.TemporaryDirectory() as scratch:
        # valgrind cannot read the DWARF 5 the Swift toolchain writes: count a copy without it.
        stripped = os.path.join(scratch, "confluence-instructions")
        subprocess.run(["objcopy", "--strip-debug", binary, stripped], check=True)
        # Deterministic: with the hash seed and the address layout random, the same binary
        # counted twice differs by up to 10% in rows that look generic metadata up.
        norandom = ["setarch", os.uname().machine, "-R"]
        if subprocess.run(norandom + ["true"], capture_output=True).returncode != 0:
            norandom = []
        environment = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1")
        paths = []
        for elements in (n, 2 * n):
            profile = os.path.join(scratch, f"callgrind.{elements}")
            subprocess.run(
                norandom
                + ["valgrind", "--tool=callgrind", *options, f"--callgrind-out-file={profile}", stripped]
                + [workload, library, str(elements)],
                env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            paths.append(profile)
        yield stripped, paths


def demangle(names):
    """Each of `names` → its demangled, simplified form (itself where `swift demangle` fails)."""
    names = list(names)
    if not names:
        return {}
    lines = subprocess.run(
        ["swift", "demangle", "--simplified"], input="\n".join(names), capture_output=True, text=True
    ).stdout.splitlines()
    return dict(zip(names, lines)) if len(lines) == len(names) else {name: name for name in names}
