"""Agent specs and the flags around them take only what means something: nonsense (a budget of
-5, a pass bias of 2 or nan, an empty tier, a misspelt option, a host that is no host) is a
usage error naming the agent, the option or the flag - never a weak agent, a silent default, an
error blamed on another flag or a warning before the failure."""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner

from hkk._agent_registry import make_agent
from hkk._errors import HkkError
from hkk.cli import main


@pytest.mark.parametrize(("spec", "message"), [
    ("mcts:budget=-5", "agent 'mcts': option budget=-5 must be a whole number of at least 1"),
    ("mcts:budget=0", "agent 'mcts': option budget=0 must be a whole number of at least 1"),
    ("mcts:budget=abc", "agent 'mcts': option budget='abc' must be a whole number"),
    ("mcts:budget=2.5", "option budget=2.5 must be a whole number"),
    ("mcts:rollout_turns=-1", "option rollout_turns=-1 must be a whole number of at least 0"),
    ("mcts:exploration=inf", "option exploration=inf must be a number of at least 0"),
    ("mcts:hp=abc", "agent 'mcts': option hp='abc' must be a number"),
    ("random:pass_bias=2", "agent 'random': option pass_bias=2 must be a number from 0 to 1"),
    ("random:pass_bias=nan", "agent 'random': option pass_bias=nan must be a number from 0 to 1"),
    ("random:pass_bias=true", "option pass_bias=True must be a number from 0 to 1"),
    ("greedy:samples=0", "agent 'greedy': option samples=0 must be a whole number of at least 1"),
])
def test_an_agent_option_out_of_its_range_is_refused_naming_agent_and_option(
        spec: str, message: str) -> None:
    with pytest.raises(HkkError) as caught:
        make_agent(spec, seed=1)
    assert str(caught.value).startswith(f"agent spec {spec!r}: ")
    assert message in str(caught.value)


def test_a_misspelt_option_of_a_searching_agent_lists_its_own_options_first() -> None:
    with pytest.raises(HkkError) as caught:
        make_agent("mcts:budgt=10")
    text = str(caught.value)
    assert text.startswith("agent spec 'mcts:budgt=10': agent 'mcts' has no option 'budgt' "
                           "(did you mean 'budget'?); its options: budget=200, "
                           "rollout_turns=None, exploration=0.7, seconds=None, rollout=None; and the "
                           "evaluation weights: hp=")
    with pytest.raises(HkkError, match=r"agent 'greedy' has no option 'sample' \(did you mean "
                                       r"'samples'\?\); its options: samples=1, seconds=None, "
                                       r"ahead=0.5; and the "):
        make_agent("greedy:sample=3")


def test_options_in_range_still_make_the_agent() -> None:
    assert make_agent("mcts:budget=1,rollout_turns=0,exploration=0,hp=2").budget == 1
    assert make_agent("random:pass_bias=0").pass_bias == 0
    assert make_agent("random:pass_bias=1").pass_bias == 1
    assert make_agent("greedy:samples=2,hand=0.5").samples == 2


@pytest.fixture
def no_server(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: pytest.fail("must not start"))


@pytest.mark.parametrize(("args", "flag", "message"), [
    (["simulate", "--tiers", ""], "--tiers", "no tier named"),
    (["simulate", "--tiers", " , "], "--tiers", "no tier named"),
    (["simulate", "--tiers", "random,,first"], "--tiers", "an empty tier in 'random,,first'"),
    (["simulate", "--tiers", "random,mcts:budget=0"], "--tiers", "option budget=0 must be"),
    (["simulate", "--agents", "random", "random:pass_bias=nan"], "--agents",
     "option pass_bias=nan must be"),
    (["simulate", "--agents", "mcts:budgt=10", "random"], "--agents",
     "agent 'mcts' has no option 'budgt' (did you mean 'budget'?); its options: budget=200"),
    (["play", "--agents", "mcts:budget=-5", "random"], "--agents", "option budget=-5 must be"),
    (["serve", "--opponent", "mcts:budget=abc"], "--opponent",
     "option budget='abc' must be a whole number"),
    (["serve", "--opponent", "random:pass_bias=2"], "--opponent", "option pass_bias=2 must be"),
    (["serve", "--host", "not a host"], "--host",
     "'not a host' is neither an IP address nor a host name"),
    (["serve", "--host", "-x.example"], "--host", "is neither an IP address nor a host name"),
])
def test_nonsense_agent_specs_and_hosts_are_usage_errors_naming_the_flag(
        no_server: None, args: list[str], flag: str, message: str) -> None:
    result = CliRunner().invoke(main, [*args, *(["-n", "2", "-w", "1", "--set", "alap"]
                                                if args[0] == "simulate" else [])])
    assert result.exit_code == 2, result.output
    output = " ".join(result.output.split())  # click wraps its message
    assert f"Invalid value for '{flag}'" in output or f"Invalid value for {flag}" in output, \
        output
    assert message in output
    assert "warning" not in output and "Traceback" not in output


@pytest.mark.parametrize("host", ["127.0.0.1", "::1", "localhost", "my-box.local", "0.0.0.0"])
def test_a_host_name_or_address_is_taken(monkeypatch: pytest.MonkeyPatch, host: str) -> None:
    import uvicorn

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append(kw))
    result = CliRunner().invoke(main, ["serve", "--seed", "1", "--host", host])
    assert result.exit_code == 0, result.output
    assert calls[-1]["host"] == host
