"""hkk - rules engine and plugin framework for Hatalom Kártyái."""

from hkk.hookspecs import hookimpl
from hkk.plugin import HOOK_API_VERSION

__all__ = ["hookimpl", "HOOK_API_VERSION"]
