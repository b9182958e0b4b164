"""Type stubs of the native module (Rust, PyO3): the tensim command line run in this process."""

from typing import TypedDict

__version__: str

class Invocation(TypedDict):
    exit_code: int
    stdout: str
    stderr: str
    error: str | None

def invoke(argv: list[str]) -> Invocation:
    """Run one tensim command line (argv[0] is the program name) in this process, the GIL released."""

def describe() -> str:
    """The command line as JSON: subcommands with their options, built-in programs with theirs."""
