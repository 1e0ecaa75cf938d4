"""Card sets: ``set.toml`` manifests and discovery of installed sets (entry-point group
``hkk.sets``).  Start with :func:`discover`; the stages it runs are public for testing."""

from hkk._sets.discovery import (
    ENTRY_POINT_GROUP,
    ENV_ALLOW,
    ENV_DENY,
    Candidate,
    Discovery,
    LoadedSet,
    check_compatibility,
    check_duplicates,
    dependency_order,
    discover,
    find_sets,
    load_candidate,
    load_decks,
    register,
    select_sets,
)
from hkk._sets.manifest import SET_CODE_PATTERN, SetManifest, parse_manifest

__all__ = [
    "ENTRY_POINT_GROUP", "ENV_ALLOW", "ENV_DENY", "SET_CODE_PATTERN",
    "Candidate", "Discovery", "LoadedSet", "SetManifest",
    "check_compatibility", "check_duplicates", "dependency_order", "discover", "find_sets",
    "load_candidate", "load_decks", "parse_manifest", "register", "select_sets",
]
