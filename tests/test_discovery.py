"""Set discovery (hkk._sets): each stage alone, and ``discover`` with one broken set among good
ones.  Sets are throwaway packages written into ``tmp_path``; entry points are in memory."""

from __future__ import annotations

import importlib
import itertools
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pluggy
import pytest
from pydantic import ValidationError

import hkk._sets
from hkk import _hookspecs as hookspecs
from hkk._cards import load_set_cards
from hkk._errors import CardDataError, SetError
from hkk._plugin import make_plugin_manager
from hkk._sets import (
    SetManifest,
    check_compatibility,
    discover,
    find_sets,
    load_candidate,
    parse_manifest,
    register,
    select_sets,
)
from hkk._sets import loading as set_loading  # the load stage, whose helpers two tests patch

# -- test doubles --------------------------------------------------------------------------------


@dataclass(frozen=True)
class FakeDist:
    name: str
    version: str


@dataclass(frozen=True)
class FakeEntryPoint:
    """What discovery uses of ``importlib_metadata.EntryPoint``: name, value, dist, load()."""

    name: str
    value: str
    dist: FakeDist | None
    group: str = "hkk.sets"

    def load(self) -> Any:
        return importlib.import_module(self.value)


def creature(set_code: str, slug: str = "leny", hp: int = 2) -> str:
    return (f'[[cards]]\nid = "{set_code}:{slug}"\nname = "{slug.title()}"\nkind = "creature"\n'
            f"damage = 1\nhp = {hp}\n")


PREP_HOOK = """
from hkk import hookimpl

@hookimpl
def prep_stage2(game):
    return []
"""


class SetFactory:
    """Writes set packages under one sys.path entry and hands out entry points for them."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def make(self, code: str, *, package: str | None = None, dist: str | None = None,
             version: str = "1.0", requires: str = ">=2.0,<3", depends: tuple[str, ...] = (),
             init: str = "", cards: dict[str, str] | None = None,
             decks: dict[str, str] | None = None, manifest: str | None = None,
             ep_name: str | None = None, python: bool | None = None) -> FakeEntryPoint:
        package = package or f"hkk_set_{code}"
        # A package with code declares it in set.toml, as a real set must (else never imported).
        python = bool(init.strip()) if python is None else python
        pkg = self.root / package
        (pkg / "cards").mkdir(parents=True)
        (pkg / "__init__.py").write_text(init, encoding="utf-8")
        if manifest is None:
            manifest = (f'[set]\ncode = "{code}"\nname = "Set {code}"\nversion = "{version}"\n'
                        f'requires = "{requires}"\ndepends = {list(depends)!r}\n'
                        f'python = {str(python).lower()}\n').replace("'", '"')
        (pkg / "set.toml").write_text(manifest, encoding="utf-8")
        for name, text in (cards if cards is not None else {"x.toml": creature(code)}).items():
            (pkg / "cards" / name).write_text(text, encoding="utf-8")
        if decks:
            (pkg / "decks").mkdir()
            for name, text in decks.items():
                (pkg / "decks" / name).write_text(text, encoding="utf-8")
        importlib.invalidate_caches()
        return FakeEntryPoint(ep_name or code, package,
                              FakeDist(dist or f"hkk-set-{code.replace('_', '-')}", version))


@pytest.fixture
def sets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv("HKK_SETS_ALLOW", raising=False)
    monkeypatch.delenv("HKK_SETS_DENY", raising=False)
    before = set(sys.modules)
    yield SetFactory(tmp_path)
    # Every test writes its own packages under the same names: forget the imported ones.
    for name in set(sys.modules) - before:
        if name.startswith("hkk_set_"):
            del sys.modules[name]


def messages(d: hkk._sets.Discovery) -> list[str]:
    return [str(f) for f in d.failures]


def plugin_names(pm: pluggy.PluginManager) -> list[str]:
    return [name for name, _ in pm.list_name_plugin() if name.startswith("hkk.sets.")]


# -- public surface ------------------------------------------------------------------------------

def test_public_names() -> None:
    assert sorted(hkk._sets.__all__) == sorted([
        "ENTRY_POINT_GROUP", "ENV_ALLOW", "ENV_DENY", "SET_CODE_PATTERN",
        "Candidate", "Discovery", "LoadedSet", "SetManifest",
        "check_compatibility", "check_duplicates", "dependency_order", "discover", "find_sets",
        "load_candidate", "load_decks", "parse_manifest", "register", "select_sets",
    ])
    assert hkk._sets.ENTRY_POINT_GROUP == "hkk.sets"


# -- manifest ------------------------------------------------------------------------------------

def test_manifest_defaults_and_frozen() -> None:
    m = parse_manifest('[set]\ncode = "alap"\nname = "Alap"\nversion = "1.0.0"\n'
                       'requires = ">=1.0,<2"\n')
    assert (m.depends, m.language, m.description) == ((), "hu", "")
    assert "1.0" in m.requires_specifier
    with pytest.raises(ValidationError):
        m.code = "other"  # type: ignore[misc]


def test_manifest_errors_name_each_field() -> None:
    with pytest.raises(ValueError) as info:
        parse_manifest('[set]\ncode = "Alap"\nname = "A"\nversion = "one"\nrequires = "=>1"\n'
                       'depends = ["x"]\ncolour = "red"\n')
    assert str(info.value) == (
        "set.toml: set.code: String should match pattern '^[a-z][a-z0-9_]{1,31}$'; "
        "set.version: Value error, not a PEP 440 version: 'one'; "
        "set.requires: Value error, not a PEP 440 version specifier: '=>1'; "
        "set.depends[0]: String should match pattern '^[a-z][a-z0-9_]{1,31}$'; "
        "set.colour: Extra inputs are not permitted")


@pytest.mark.parametrize("text, message", [
    ("", "set.toml: missing [set] table"),
    ('[set]\ncode = "alap"\n[extra]\n', "set.toml: unknown top-level keys ['extra']; only [set] "
                                        "is allowed"),
    ("[set\n", "set.toml: Expected ']' at the end of a table declaration (at line 1, column 5)"),
])
def test_manifest_structure(text: str, message: str) -> None:
    with pytest.raises(ValueError, match="^" + re.escape(message) + "$"):
        parse_manifest(text)


# -- stage 1: find -------------------------------------------------------------------------------

class ExplodingEntryPoint(FakeEntryPoint):
    def load(self) -> Any:
        raise AssertionError("find_sets must not import anything")


def test_find_sorts_and_imports_nothing() -> None:
    eps = [ExplodingEntryPoint("zeta", "z", FakeDist("hkk-set-zeta", "1")),
           ExplodingEntryPoint("alpha", "a2", FakeDist("hkk-set-alpha-fork", "1")),
           ExplodingEntryPoint("alpha", "a", FakeDist("hkk-set-alpha", "2"))]
    found = find_sets(eps)
    assert [(c.code, c.distribution, c.version) for c in found] == [
        ("alpha", "hkk-set-alpha", "2"), ("alpha", "hkk-set-alpha-fork", "1"),
        ("zeta", "hkk-set-zeta", "1")]


def test_find_reports_invalid_names() -> None:
    eps = [FakeEntryPoint("Bad-Name", "x", FakeDist("hkk-set-bad", "0.1")),
           FakeEntryPoint("ok", "y", FakeDist("hkk-set-ok", "1"))]
    failures: list[SetError] = []
    assert [c.code for c in find_sets(eps, failures=failures)] == ["ok"]
    assert [str(f) for f in failures] == [
        "set Bad-Name (hkk-set-bad 0.1), stage find: invalid set code 'Bad-Name' (entry point "
        "Bad-Name = x): entry-point names in group hkk.sets must match ^[a-z][a-z0-9_]{1,31}$"]
    with pytest.raises(SetError, match="invalid set code 'Bad-Name'"):
        find_sets(eps)  # no failures list: strict


def test_find_reads_installed_distributions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                            ) -> None:
    # A real .dist-info on sys.path, read by importlib_metadata: what pip install leaves behind.
    info = tmp_path / "hkk_set_probe-1.2.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: hkk-set-probe\nVersion: 1.2\n")
    (info / "entry_points.txt").write_text("[hkk.sets]\nprobe = hkk_set_probe\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    found = [c for c in find_sets() if c.code == "probe"]
    assert [(c.distribution, c.version, c.entry_point.value) for c in found] == [
        ("hkk-set-probe", "1.2", "hkk_set_probe")]


# -- the good path -------------------------------------------------------------------------------

def test_discover_loads_data_sets_and_hook_sets(sets: SetFactory) -> None:
    alpha = sets.make("alpha")
    beta = sets.make("beta", depends=("alpha",), init=PREP_HOOK,
                     cards={"x.toml": creature("beta", "b1") + creature("beta", "b2")},
                     decks={"starter.toml": '[[decks]]\nname = "starter"\n'
                                            'cards = { "alpha:leny" = 2, "beta:b1" = 3 }\n'})
    d = discover(entry_points=[beta, alpha])
    assert d.failures == [] and d.disabled == []
    assert list(d.sets) == ["alpha", "beta"]
    assert list(d.cards) == ["alpha:leny", "beta:b1", "beta:b2"]
    assert list(d.decks) == ["beta:starter"] and d.decks["beta:starter"].size == 5
    a, b = d.sets["alpha"], d.sets["beta"]
    assert (a.has_hooks, a.hook_names, b.has_hooks, b.hook_names) == (
        False, [], True, ["prep_stage2"])
    assert (b.distribution, b.version, b.manifest.depends) == ("hkk-set-beta", "1.0", ("alpha",))
    assert (b.root / "set.toml").is_file()
    # A data-only set registers nothing executable.
    assert plugin_names(d.pm) == ["hkk.sets.beta"]
    assert d.pm.get_plugin("hkk.sets.beta") is b.module


def test_dependencies_register_first_then_by_code(sets: SetFactory) -> None:
    eps = [sets.make("aaa", depends=("zzz",), init=PREP_HOOK), sets.make("mmm", init=PREP_HOOK),
           sets.make("zzz", init=PREP_HOOK)]
    d = discover(entry_points=eps)
    assert list(d.sets) == ["mmm", "zzz", "aaa"]
    assert plugin_names(d.pm) == ["hkk.sets.mmm", "hkk.sets.zzz", "hkk.sets.aaa"]


# -- one broken set among good ones --------------------------------------------------------------

def broken_import(sets: SetFactory) -> tuple[list[FakeEntryPoint], list[str]]:
    ep = sets.make("bad", init="x = 1\nraise RuntimeError('boom')\n")
    path = sets.root / "hkk_set_bad" / "__init__.py"
    return [ep], [f"set bad (hkk-set-bad 1.0), stage load: import of hkk_set_bad failed: "
                  f"RuntimeError: boom (at {path}:2)"]


def syntax_error(sets: SetFactory) -> tuple[list[FakeEntryPoint], list[str]]:
    ep = sets.make("bad", init="def broken(:\n")
    path = sets.root / "hkk_set_bad" / "__init__.py"
    return [ep], [f"set bad (hkk-set-bad 1.0), stage load: import of hkk_set_bad failed: "
                  f"SyntaxError: invalid syntax (at {path}:1)"]


def bad_card(sets: SetFactory) -> tuple[list[FakeEntryPoint], list[str]]:
    ep = sets.make("bad", cards={"x.toml": creature("bad", hp=0)})
    return [ep], ["set bad (hkk-set-bad 1.0), stage validate: cards/x.toml: cards[0].hp: "
                  "Input should be greater than 0"]


def bad_manifest(sets: SetFactory) -> tuple[list[FakeEntryPoint], list[str]]:
    ep = sets.make("bad", version="1.0", manifest='[set]\ncode = "bad"\nname = "Bad"\n'
                                                  'version = "1.0"\nrequires = ">=1"\nfoo = 1\n')
    return [ep], ["set bad (hkk-set-bad 1.0), stage validate: set.toml: set.foo: "
                  "Extra inputs are not permitted"]


def code_mismatch(sets: SetFactory) -> tuple[list[FakeEntryPoint], list[str]]:
    ep = sets.make("bad", ep_name="other")
    return [ep], ["set other (hkk-set-bad 1.0), stage validate: set.toml declares code 'bad' "
                  "but the entry point is named 'other'"]


def misspelled_hook(sets: SetFactory) -> tuple[list[FakeEntryPoint], list[str]]:
    ep = sets.make("bad", init="from hkk import hookimpl\n\n@hookimpl\n"
                               "def prep_stage_2(game):\n    return []\n")
    return [ep], ["set bad (hkk-set-bad 1.0), stage register: unknown hook 'prep_stage_2' "
                  "(did you mean 'prep_stage2'?)"]


def duplicate_code(sets: SetFactory) -> tuple[list[FakeEntryPoint], list[str]]:
    eps = [sets.make("bad", package="hkk_set_bad_fork", dist="hkk-set-bad-fork", version="2.0"),
           sets.make("bad")]
    return eps, ["set bad, stage find: set code claimed by several distributions: "
                 "hkk-set-bad 1.0 (hkk_set_bad), hkk-set-bad-fork 2.0 (hkk_set_bad_fork); "
                 "uninstall all but one"]


def unsupported_api(sets: SetFactory) -> tuple[list[FakeEntryPoint], list[str]]:
    ep = sets.make("bad", requires=">=3,<4")
    return [ep], ["set bad (hkk-set-bad 1.0), stage compatibility: requires hook API >=3,<4; "
                  "this engine provides 2.0"]


def missing_dependency(sets: SetFactory) -> tuple[list[FakeEntryPoint], list[str]]:
    ep = sets.make("bad", depends=("nincs",))
    return [ep], ["set bad (hkk-set-bad 1.0), stage compatibility: depends on set nincs, "
                  "which is not installed"]


def failed_dependency(sets: SetFactory) -> tuple[list[FakeEntryPoint], list[str]]:
    eps, expected = broken_import(sets)
    eps.append(sets.make("bad2", depends=("bad",)))
    return eps, expected + ["set bad2 (hkk-set-bad2 1.0), stage compatibility: depends on set "
                            "bad, which failed at stage load"]


def dependency_cycle(sets: SetFactory) -> tuple[list[FakeEntryPoint], list[str]]:
    eps = [sets.make("bad", depends=("bad2",)), sets.make("bad2", depends=("bad",))]
    return eps, [f"set {c} (hkk-set-{c} 1.0), stage compatibility: dependency cycle among "
                 f"sets bad, bad2" for c in ("bad", "bad2")]


def unknown_deck_card(sets: SetFactory) -> tuple[list[FakeEntryPoint], list[str]]:
    # good's cards are not known to bad: it does not depend on good.
    ep = sets.make("bad", decks={"d.toml": '[[decks]]\nname = "d"\ncards = { "good:leny" = 1 }\n'})
    return [ep], ["set bad (hkk-set-bad 1.0), stage validate: decks/d.toml: "
                  "decks[0].cards[\"good:leny\"]: deck 'd' names unknown card 'good:leny'"]


def deep_manifest(sets: SetFactory) -> tuple[list[FakeEntryPoint], list[str]]:
    # Deep enough for tomllib to exhaust Python's recursion limit.
    ep = sets.make("bad", manifest='[set]\ncode = "bad"\nx = ' + "[" * 100_000 + "]" * 100_000)
    return [ep], ["set bad (hkk-set-bad 1.0), stage validate: set.toml: nested deeper than 32 "
                  "levels of tables and arrays"]


def huge_card_file(sets: SetFactory) -> tuple[list[FakeEntryPoint], list[str]]:
    ep = sets.make("bad", cards={"x.toml": creature("bad") + "#" * (1024 * 1024)})
    return [ep], ["set bad (hkk-set-bad 1.0), stage validate: cards/x.toml: file is larger than "
                  "1048576 bytes"]


def card_file_outside_package(sets: SetFactory) -> tuple[list[FakeEntryPoint], list[str]]:
    ep = sets.make("bad")
    outside = sets.root / "outside.toml"
    outside.write_text(creature("bad", "titok"), encoding="utf-8")
    link = sets.root / "hkk_set_bad" / "cards" / "x.toml"
    link.unlink()
    link.symlink_to(outside)
    return [ep], [f"set bad (hkk-set-bad 1.0), stage validate: cards/x.toml: refused: the file "
                  f"resolves outside the set's package (to {outside})"]


def manifest_outside_package(sets: SetFactory) -> tuple[list[FakeEntryPoint], list[str]]:
    ep = sets.make("bad")
    outside = sets.root / "outside.toml"
    link = sets.root / "hkk_set_bad" / "set.toml"
    outside.write_text(link.read_text(encoding="utf-8"), encoding="utf-8")
    link.unlink()
    link.symlink_to(outside)
    return [ep], [f"set bad (hkk-set-bad 1.0), stage validate: cannot read set.toml in package "
                  f"hkk_set_bad: DataFileError: refused: the file resolves outside the set's "
                  f"package (to {outside})"]


def control_character_in_set_name(sets: SetFactory) -> tuple[list[FakeEntryPoint], list[str]]:
    ep = sets.make("bad", manifest='[set]\ncode = "bad"\nname = "\\u001b]2;x\\u0007"\n'
                                   'version = "1.0"\nrequires = ">=1"\n')
    return [ep], ["set bad (hkk-set-bad 1.0), stage validate: set.toml: set.name: Value error, "
                  "control character U+001B is not allowed"]


def missing_package(sets: SetFactory) -> tuple[list[FakeEntryPoint], list[str]]:
    ep = FakeEntryPoint("bad", "hkk_set_nowhere", FakeDist("hkk-set-bad", "1.0"))
    return [ep], ["set bad (hkk-set-bad 1.0), stage load: entry point value 'hkk_set_nowhere' "
                  "must name the set's package, and no such package is installed"]


SCENARIOS = [broken_import, syntax_error, bad_card, bad_manifest, code_mismatch, misspelled_hook,
             duplicate_code, unsupported_api, missing_dependency, failed_dependency,
             dependency_cycle, unknown_deck_card, deep_manifest, huge_card_file,
             card_file_outside_package, manifest_outside_package, control_character_in_set_name,
             missing_package]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda f: f.__name__)
def test_one_broken_set_others_load(sets: SetFactory, scenario: Any) -> None:
    good = sets.make("good", init=PREP_HOOK)
    broken, expected = scenario(sets)
    d = discover(entry_points=[*broken, good])
    assert messages(d) == expected
    assert list(d.sets) == ["good"] and list(d.cards) == ["good:leny"]
    assert plugin_names(d.pm) == ["hkk.sets.good"]
    assert all(isinstance(f, SetError) for f in d.failures)
    d.pm.check_pending()  # the broken set left nothing behind


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda f: f.__name__)
def test_strict_raises_the_first_failure(sets: SetFactory, scenario: Any) -> None:
    good = sets.make("good")
    broken, expected = scenario(sets)
    with pytest.raises(SetError) as info:
        discover(entry_points=[good, *broken], strict=True)
    assert str(info.value) == expected[0]


def test_failures_carry_their_origin(sets: SetFactory) -> None:
    eps, _ = broken_import(sets)
    (failure,) = discover(entry_points=eps).failures
    assert (failure.code, failure.distribution, failure.version, failure.stage) == (
        "bad", "hkk-set-bad", "1.0", "load")
    assert isinstance(failure.__cause__, RuntimeError)
    eps = [sets.make("worse", cards={"x.toml": creature("worse", hp=0)})]
    (failure,) = discover(entry_points=eps).failures
    assert failure.reason == "cards/x.toml: cards[0].hp: Input should be greater than 0"
    assert isinstance(failure.__cause__, CardDataError)


@pytest.mark.parametrize("namespace, losers", [
    ("shared", ["alpha", "beta"]),  # nobody owns "shared:": both lose
    ("alpha", ["beta"]),            # alpha owns "alpha:": only the intruder loses
])
def test_duplicate_card_id_across_sets(sets: SetFactory, monkeypatch: pytest.MonkeyPatch,
                                       namespace: str, losers: list[str]) -> None:
    # The real loader already rejects ids outside a set's namespace; this proves the safety net
    # by loading both sets' cards under one namespace.
    monkeypatch.setattr(set_loading, "_load_cards",
                        lambda code, root: load_set_cards(
                            namespace if code in ("alpha", "beta") else code, root))
    eps = [sets.make(code, cards={"x.toml": creature(namespace, "same")})
           for code in ("beta", "alpha")] + [sets.make("good")]
    d = discover(entry_points=eps)
    other = {"alpha": "beta (hkk-set-beta 1.0)", "beta": "alpha (hkk-set-alpha 1.0)"}
    assert messages(d) == [
        f"set {code} (hkk-set-{code} 1.0), stage compatibility: card id defined by another "
        f"set: '{namespace}:same' (also in set {other[code]})" for code in losers]
    assert list(d.sets) == sorted({"alpha", "good"} - set(losers))
    with pytest.raises(SetError, match="card id defined by another set"):
        discover(entry_points=eps, strict=True)


def test_register_rejects_bad_signature_and_leaves_pm_clean(sets: SetFactory) -> None:
    eps = [sets.make("bad", init="from hkk import hookimpl\n\n@hookimpl\n"
                                 "def prep_stage2(game, nonsense):\n    return []\n"),
           sets.make("good", init=PREP_HOOK)]
    loaded = [load_candidate(c) for c in find_sets(eps)]
    pm = make_plugin_manager()
    failures: list[SetError] = []
    assert [s.code for s in register(pm, loaded, failures=failures)] == ["good"]
    (failure,) = failures
    assert failure.stage == "register"
    assert str(failure).startswith("set bad (hkk-set-bad 1.0), stage register: invalid hookimpl: "
                                   "Plugin 'hkk.sets.bad' for hook 'prep_stage2'")
    assert plugin_names(pm) == ["hkk.sets.good"]
    assert [i.plugin_name for i in pm.hook.prep_stage2.get_hookimpls()] == ["hkk.sets.good"]


def test_check_compatibility_alone(sets: SetFactory) -> None:
    loaded = [load_candidate(c) for c in find_sets([sets.make("new", requires=">=1.5"),
                                                    sets.make("old", requires="<1.5")])]
    failures: list[SetError] = []
    assert [s.code for s in check_compatibility(loaded, "1.4", failures=failures)] == ["old"]
    assert [str(f) for f in failures] == [
        "set new (hkk-set-new 1.0), stage compatibility: requires hook API >=1.5; this engine "
        "provides 1.4"]
    assert [s.code for s in check_compatibility(loaded, "2.0", failures=[])] == ["new"]


def test_a_set_requiring_hook_api_1_is_told_what_2_0_changed(sets: SetFactory) -> None:
    """Issue 20: ``>=1.0,<2`` fails at stage compatibility naming the typed events' renames."""
    loaded = [load_candidate(c) for c in find_sets([sets.make("old", requires=">=1.0,<2")])]
    failures: list[SetError] = []
    assert check_compatibility(loaded, "2.0", failures=failures) == []
    message = str(failures[0])
    assert message.startswith("set old (hkk-set-old 1.0), stage compatibility: requires hook "
                              "API >=1.0,<2; this engine provides 2.0 (hook API 2.0 has typed "
                              "events (hkk.events): event fields were renamed")
    assert 'declare requires = ">=2.0,<3"' in message
    assert [s.code for s in check_compatibility(loaded, "1.4", failures=[])] == ["old"]


def test_an_unexpected_error_in_one_set_does_not_stop_the_others(sets: SetFactory,
                                                                 monkeypatch: pytest.MonkeyPatch
                                                                 ) -> None:
    real = set_loading._package_root

    def buggy(c: Any) -> Any:
        if c.code == "bad":
            raise KeyError("a bug of ours")
        return real(c)
    monkeypatch.setattr(set_loading, "_package_root", buggy)
    d = discover(entry_points=[sets.make("bad"), sets.make("good")])
    assert list(d.sets) == ["good"]
    (message,) = messages(d)
    assert message.startswith("set bad (hkk-set-bad 1.0), stage load: unexpected error: "
                              "KeyError: 'a bug of ours' (at ")


# -- data-only sets run no code --------------------------------------------------------------------

FAILS_IF_RUN = "raise RuntimeError('a data-only set ran code')\n"


def test_data_only_set_is_never_imported_and_plays(sets: SetFactory) -> None:
    from hkk import Engine

    deck = '[[decks]]\nname = "d"\ncards = { "adat:leny" = 20 }\n'
    eps = [sets.make("adat", init=FAILS_IF_RUN, python=False, decks={"d.toml": deck}),
           sets.make("kod", init=PREP_HOOK)]
    d = discover(entry_points=eps)
    assert (list(d.sets), d.failures) == (["adat", "kod"], [])
    adat = d.sets["adat"]
    assert (adat.module, adat.hook_names, list(adat.decks)) == (None, [], ["d"])
    assert "hkk_set_adat" not in sys.modules and "hkk_set_kod" in sys.modules
    assert plugin_names(d.pm) == ["hkk.sets.kod"]
    engine = Engine(d.cards, decks=d.decks, pm=d.pm, discovery=d)
    game = engine.play(["adat:d", "adat:d"], seed=1, max_turns=3)
    assert game.log.of_kind("card_drawn")


def test_python_true_imports_the_package(sets: SetFactory) -> None:
    (failure,) = discover(entry_points=[sets.make("kod", init=FAILS_IF_RUN)]).failures
    assert failure.stage == "load" and "a data-only set ran code" in failure.reason


def test_hooks_in_a_set_that_does_not_declare_python_are_refused_not_lost(sets: SetFactory
                                                                          ) -> None:
    d = discover(entry_points=[sets.make("elfeledett", init=PREP_HOOK, python=False),
                               sets.make("adat")])
    (failure,) = d.failures
    assert (failure.code, failure.stage) == ("elfeledett", "validate")
    assert "__init__.py implements hooks" in failure.reason and "python = true" in failure.reason
    assert "hkk_set_elfeledett" not in sys.modules  # read as text, never run
    assert list(d.sets) == ["adat"]


# -- order independence --------------------------------------------------------------------------

def summary(d: hkk._sets.Discovery) -> tuple[Any, ...]:
    return (list(d.sets), messages(d), [c.code for c in d.disabled], list(d.cards),
            list(d.decks), plugin_names(d.pm),
            [i.plugin_name for i in d.pm.hook.prep_stage2.get_hookimpls()])


def test_entry_point_order_does_not_matter(sets: SetFactory) -> None:
    eps = [sets.make("alpha", init=PREP_HOOK), sets.make("beta", depends=("alpha",),
                                                         init=PREP_HOOK),
           sets.make("gamma", init=PREP_HOOK), sets.make("broken", requires=">=9"),
           sets.make("gamma", package="hkk_set_gamma2", dist="hkk-set-gamma2"),
           sets.make("delta", init=PREP_HOOK)]
    results = {repr(summary(discover(entry_points=list(perm), deny=["delta"])))
               for perm in itertools.permutations(eps)}
    assert len(results) == 1
    (only,) = results
    assert only.startswith("(['alpha', 'beta'], ")


# -- allow / deny --------------------------------------------------------------------------------

def test_allow_and_deny_by_argument(sets: SetFactory) -> None:
    eps = [sets.make("alpha"), sets.make("beta"), sets.make("gamma")]
    d = discover(entry_points=eps, allow=["alpha", "beta"], deny=["beta"])
    assert list(d.sets) == ["alpha"]
    assert [c.code for c in d.disabled] == ["beta", "gamma"]
    assert d.failures == []
    assert list(discover(entry_points=eps, allow=[]).sets) == []


def test_allow_and_deny_by_environment(sets: SetFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    eps = [sets.make("alpha"), sets.make("beta"), sets.make("gamma")]
    monkeypatch.setenv("HKK_SETS_ALLOW", " alpha, gamma ,")
    assert list(discover(entry_points=eps).sets) == ["alpha", "gamma"]
    monkeypatch.setenv("HKK_SETS_DENY", "gamma")
    assert list(discover(entry_points=eps).sets) == ["alpha"]
    # An argument replaces the variable.
    assert list(discover(entry_points=eps, allow=["beta"]).sets) == ["beta"]
    monkeypatch.setenv("HKK_SETS_ALLOW", "")
    assert list(discover(entry_points=eps).sets) == ["alpha", "beta"]


def test_depending_on_a_disabled_set_fails(sets: SetFactory) -> None:
    eps = [sets.make("alpha"), sets.make("beta", depends=("alpha",))]
    d = discover(entry_points=eps, deny=["alpha"])
    assert messages(d) == ["set beta (hkk-set-beta 1.0), stage compatibility: depends on set "
                           "alpha, which is disabled"]


def test_disabled_sets_are_never_imported(sets: SetFactory) -> None:
    eps = [sets.make("alpha", init="raise RuntimeError('imported')\n"), sets.make("beta")]
    d = discover(entry_points=eps, deny=["alpha"])
    assert (list(d.sets), d.failures) == (["beta"], [])
    assert "hkk_set_alpha" not in sys.modules


def test_select_sets_alone() -> None:
    cands = find_sets([FakeEntryPoint(c, c, None) for c in ("aa", "bb", "cc")])
    enabled, disabled = select_sets(cands, allow=None, deny={"bb"})
    assert ([c.code for c in enabled], [c.code for c in disabled]) == (["aa", "cc"], ["bb"])


def test_hookspecs_unchanged_by_discovery(sets: SetFactory) -> None:
    # discover() builds its own plugin manager from the project's specs when none is given.
    d = discover(entry_points=[sets.make("alpha", init=PREP_HOOK)])
    assert d.pm.project_name == hookspecs.PROJECT
    assert isinstance(d.sets["alpha"].manifest, SetManifest)
