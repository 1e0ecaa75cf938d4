"""The names hkk exports are its promise to set authors and game developers: pin them."""

import hkk


def test_public_names():
    assert sorted(hkk.__all__) == sorted([
        "Agent", "CardDataError", "DEFAULT_TURN", "Decision", "Duration", "Engine", "Event",
        "EventLog", "FirstLegalAgent", "Game", "GameClock", "HOOK_API_VERSION", "HkkError",
        "HookError", "IllegalDecision", "Mode", "Option", "Pending", "Price", "RandomAgent",
        "Rulings", "RuleViolation", "ScriptedAgent", "SetError", "Step", "Usage", "hookimpl",
    ])
    for name in hkk.__all__:
        assert getattr(hkk, name) is not None


def test_turn_hooks_include_the_seed_points():
    hooks = [step.hook for step in hkk.DEFAULT_TURN]
    for name in ("prep_stage2_start", "end_stage1", "end_stage2", "end_stage3", "end_stage4"):
        assert name in hooks
    assert hooks.index("prep_stage2_start") < hooks.index("prep_stage2")
    assert hooks[-4:] == ["end_stage1", "end_stage2", "end_stage3", "end_stage4"]  # 41.0
