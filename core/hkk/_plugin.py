"""The plugin manager every engine uses."""

from __future__ import annotations

import pluggy

from hkk import _hookspecs as hookspecs

#: Version of the hook API that sets declare compatibility with (``requires``).
HOOK_API_VERSION = "2.0"


def make_plugin_manager() -> pluggy.PluginManager:
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    return pm
