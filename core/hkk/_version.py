"""The engine's version, in a leaf module so that any layer may name it (saves record it)."""

__version__ = "0.1.0"
