"""The set authors' commands ``hkk reference``, ``hkk schema`` and ``hkk new-set`` (registered by
:mod:`hkk.cli`)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import click

from hkk._cli_output import _err, _out, _output_file
from hkk._markup import escape
from hkk._reference import SECTIONS as REFERENCE_SECTIONS

# -- reference -----------------------------------------------------------------------------------

@click.command("reference", short_help="The set authors' reference.")
@click.argument("section", required=False,
                type=click.Choice([*REFERENCE_SECTIONS, "card-language"]))
@click.option("--markdown", "as_markdown", is_flag=True,
              help="Print the Markdown source (docs/REFERENCE.md is the whole page, "
                   "docs/CARD-LANGUAGE.md the card-language guide).")
def reference_command(section: str | None, as_markdown: bool) -> None:
    """The set authors' reference: reading the game, hooks, Pending items, events, decisions;
    'card-language': the guide to the card-data language, every word with an example card."""
    if section == "card-language":  # a page of its own
        from hkk._card_language import markdown as guide

        text = guide()
    else:
        from hkk._reference import markdown

        text = markdown(section)
    out = _out()
    if as_markdown or not out.is_terminal:  # piped: the source, every line whole
        click.echo(text, nl=False)
    else:
        from rich.markdown import Markdown

        out.print(Markdown(text))


# -- schema, new-set -----------------------------------------------------------------------------

@click.command("schema", short_help="JSON Schema of card, set, deck and format files.")
@click.argument("kind", required=False, default="cards",
                type=click.Choice(["cards", "set", "decks", "formats"]))
@click.option("-o", "--output-file", "--output", "output", type=click.Path(dir_okay=False),
              callback=_output_file, metavar="FILE", help="Write to FILE instead of stdout.")
def schema_command(kind: str, output: str | None) -> None:
    """Print the JSON Schema of card files (or of set.toml, deck or format files) for editors."""
    from hkk._schema import SCHEMAS

    text = json.dumps(SCHEMAS[kind](), ensure_ascii=False, indent=2)
    if output:
        Path(output).write_text(text + "\n", encoding="utf-8")
        _err().print(f"wrote {escape(output)}")
    else:
        click.echo(text)


@click.command("new-set", short_help="Create a new card set project.")
@click.argument("name")
@click.option("--dir", "directory", type=click.Path(file_okay=False), default=".",
              show_default=True, help="Where to create the project folder hkk-set-NAME.")
@click.option("--engine-source", metavar="PATH|GIT-URL",
              help="Where the project's CI installs hkk and pytest-hkk from (HKK_SOURCE in "
                   "its workflow); default: where this hkk was installed from, '' for an index.")
def new_set_command(name: str, directory: str, engine_source: str | None) -> None:
    """Create a new card set project NAME (the set code, e.g. 'sarkany')."""
    from hkk._scaffold import ScaffoldError, create, local_engine_folder
    from hkk._scaffold import engine_source as default_source
    from hkk._sets.discovery import find_sets

    installed = frozenset(c.code for c in find_sets(failures=[]))  # imports nothing
    try:
        project = create(name, Path(directory), source=engine_source, installed=installed)
    except ScaffoldError as exc:
        raise click.UsageError(str(exc)) from None
    out = _out()
    out.print(f"[green]created[/green] {escape(str(project))}")
    out.print("next:\n"
              f"  pip install -e {escape(shlex.quote(f'{project}[test]'))}\n"
              f"  cd {escape(str(project))} && python -m pytest && hkk verify {name}")
    local = local_engine_folder()
    if engine_source is None and not default_source() and local:
        out.print(f"note: this hkk runs from the folder {escape(local)}; the project's CI "
                  "installs it from the package index (HKK_SOURCE in .github/workflows/ci.yml)"
                  " - give --engine-source git+URL of its repository to install from there")
