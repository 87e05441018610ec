"""The `v8atlas` command. A thin shell: each command hands off to compiler/, server/ or formats/.

Commands are imported only when run, so `v8atlas serve` never imports the compiler (and its
lxml), and `--help` stays fast.
"""
from __future__ import annotations

import importlib

import click

# command name → "module:attribute"; each module owns its command's options.
COMMANDS = {
    "compile": "v8atlas.compiler.cli:compile_cmd",
    "inspect": "v8atlas.formats.cli:inspect_cmd",
    "verify": "v8atlas.formats.cli:verify_cmd",
    "prune": "v8atlas.formats.cli:prune_cmd",
    "pin": "v8atlas.formats.cli:pin_cmd",
    "publish": "v8atlas.formats.cli:publish_cmd",
    "serve": "v8atlas.server.cli:serve_cmd",
    "stdio": "v8atlas.server.cli:stdio_cmd",
    "call": "v8atlas.server.cli:call_cmd",
    "bench": "v8atlas.benchcli:bench_group",
    "dict": "v8atlas.compiler.dictionary_cli:dict_group",
}


# The click context's ``obj`` key saying the command runs as the process's entry point.
PROCESS_ENDS = "process_ends"


class LazyGroup(click.Group):
    def __init__(self, *args, lazy: dict[str, str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(self.lazy))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.lazy:
            module, attr = self.lazy[name].split(":")
            try:
                return getattr(importlib.import_module(module), attr)
            except ModuleNotFoundError as e:
                missing = e.name or "?"
                @click.command(name=name, help=f"(unavailable: {missing} is not installed)",
                               context_settings={"ignore_unknown_options": True,
                                                 "allow_extra_args": True})
                def unavailable() -> None:
                    raise click.ClickException(
                        f"`v8atlas {name}` needs {missing}, which is not installed here "
                        f"(pip install 'v8atlas[all]')")
                return unavailable
        return super().get_command(ctx, name)


@click.group(cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="v8atlas")
def main() -> None:
    """v8atlas: compile 1C configurations and platform help into a bundle, serve it to agents."""


def entry() -> None:
    """The process's entry: the console script and ``python -m v8atlas``. The process ends
    when the command returns, so a command may end it at once, without the interpreter's
    teardown (``v8atlas compile``); ``main`` called from Python (a tool, a test's
    ``CliRunner``) returns as click's commands do."""
    main(obj={PROCESS_ENDS: True})


if __name__ == "__main__":  # pragma: no cover
    entry()
