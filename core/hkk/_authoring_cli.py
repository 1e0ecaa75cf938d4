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
    from hkk._scaffold import ScaffoldError, create, install_command, local_engine_folder
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
              f"  {escape(install_command(project))}\n"
              f"  cd {escape(shlex.quote(str(project)))} && python -m pytest && hkk verify {name}")
    local = local_engine_folder()
    if engine_source is None and not default_source() and local:
        out.print(f"note: this hkk runs from the folder {escape(local)}; the project's CI "
                  "installs it from the package index (HKK_SOURCE in .github/workflows/ci.yml)"
                  " - give --engine-source git+URL of its repository to install from there")


# -- write-texts ---------------------------------------------------------------------------------

@click.command("write-texts", short_help="Write the texts generated from the data into a "
                                         "set's card files.")
@click.argument("code")
@click.option("--diff", "as_diff", is_flag=True,
              help="Print the changes as a patch (for git apply / patch -p1) and write nothing.")
def write_texts_command(code: str, as_diff: bool) -> None:
    """Write the printed texts generated from the data into the card files of the set CODE
    (each card whose text hkk verify's card-text check finds disagreeing): for a set upgraded
    to hook API 2.0, where the data is right and the texts are not."""
    import difflib

    from hkk._card_text_check import text_fixes
    from hkk._cli_output import _discover, _warn_failures

    found = _discover()
    _warn_failures(found)
    if code not in found.sets:
        raise click.BadParameter(f"no loaded set {code!r}; loaded: {sorted(found.sets)}",
                                 param_hint="CODE")
    fixes = text_fixes(found.sets[code])
    err = _err()
    for fix in fixes:
        shown = _relative(fix.path)
        for left in fix.left:
            err.print(f"[yellow]left:[/yellow] {escape(shown)}: {escape(left)}")
        if not fix.cards:
            continue
        if as_diff:
            click.echo("".join(difflib.unified_diff(
                fix.before.splitlines(keepends=True), fix.after.splitlines(keepends=True),
                f"a/{shown}", f"b/{shown}")), nl=False)
        else:
            fix.path.write_text(fix.after, encoding="utf-8")
            err.print(f"wrote {len(fix.cards)} text(s) into {escape(shown)}: "
                      f"{escape(', '.join(fix.cards))}")
    if not any(fix.cards for fix in fixes):
        err.print(f"every printed text of set {escape(code)} agrees with its data: nothing "
                  "to write")


def _relative(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
