"""The game's RNG, whose copies share its state until one of them draws.

A copy of a game copies its RNG, and a copy of a seated :class:`hkk.RandomAgent` copies the
agent's.  Copying a ``random.Random`` is ``getstate()`` and ``setstate()``: 625 numbers out and
in, about half of what a whole ``clone()`` cost.  A :class:`SharedRandom`'s :meth:`copy` shares
the state instead (share-on-write): the original and its copies hold one :class:`_Shared`
token, and the first to change its state (a draw, ``seed``, ``setstate``) parts from it - the
original leaves the token a snapshot of its state before it draws; a copy takes its state from
the original, or from that snapshot.  The state moves only when somebody draws, once for the
original and once for each copy that draws; a copy that never draws (most of a search's) costs
an object.

The sharing switches the instance's class: an RNG that shares nothing is a plain
:class:`SharedRandom`, which draws through ``random.Random``'s own methods at their C speed.
Every draw of ``random.Random`` goes through ``random()`` or ``getrandbits()`` (its Python
methods are built on them), so those, ``gauss()`` (its cached value) and the state's writers
are what a sharing RNG watches.
"""

from __future__ import annotations

import random
from typing import Any

__all__ = ["SharedRandom"]

_getstate = random.Random.getstate
_setstate = random.Random.setstate


class _Shared:
    """The state shared by an RNG (``owner``, until it changes its state) and its copies; once
    the owner parted, ``state`` is a snapshot of it."""

    __slots__ = ("owner", "state")

    def __init__(self, owner: SharedRandom) -> None:
        self.owner: SharedRandom | None = owner
        self.state: tuple[Any, ...] | None = None

    def read(self) -> tuple[Any, ...]:
        state = self.state
        if state is None:
            assert self.owner is not None
            state = _getstate(self.owner)
        return state


class SharedRandom(random.Random):
    """A ``random.Random`` (the same draws for the same seed) whose :meth:`copy` is cheap."""

    _token: _Shared | None = None

    def copy(self) -> SharedRandom:
        """An RNG in the same state, independent of this one: the state is shared until either
        draws."""
        token = _Shared(self)
        self._token = token
        self.__class__ = _Lending
        new: SharedRandom = _Borrowing.__new__(_Borrowing)  # not seeded: it borrows the state
        new._token = token
        return new

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        """``random.Random.randrange``, the same draws; ``randrange(n)`` - how agents draw one
        of n options, every decision - without its argument checks and its second call."""
        if stop is None and step == 1 and type(start) is int and start > 0:
            getrandbits = self.getrandbits
            k = start.bit_length()
            r = getrandbits(k)
            while r >= start:
                r = getrandbits(k)
            return r
        return super().randrange(start, stop, step)

    def __reduce__(self) -> Any:
        return SharedRandom, (), self.getstate()


def _unshare(rng: SharedRandom) -> None:
    """Before ``rng`` changes its state: it parts from the state it shares.  By the class it
    has now (a bound method taken before a switch may still be called: ``_randbelow`` keeps
    ``getrandbits`` for its loop)."""
    cls = type(rng)
    token = rng._token
    if cls is _Lending:  # its copies keep a snapshot of its state
        assert token is not None
        token.state = _getstate(rng)
        token.owner = None
    elif cls is _Borrowing:  # it takes the shared state
        assert token is not None
        _setstate(rng, token.read())
    else:
        return
    rng._token = None
    rng.__class__ = SharedRandom


def _copy_shared(rng: SharedRandom) -> SharedRandom:
    """A copy of an RNG already sharing its state: one more borrower of it."""
    new: SharedRandom = _Borrowing.__new__(_Borrowing)
    new._token = rng._token
    return new


def _random(self: SharedRandom) -> float:
    _unshare(self)
    return random.Random.random(self)


def _getrandbits(self: SharedRandom, k: int) -> int:
    _unshare(self)
    return random.Random.getrandbits(self, k)


def _gauss(self: SharedRandom, mu: float = 0.0, sigma: float = 1.0) -> float:
    _unshare(self)
    return random.Random.gauss(self, mu, sigma)


def _setstate_unshared(self: SharedRandom, state: tuple[Any, ...]) -> None:
    if type(self) is _Lending:
        _unshare(self)
    else:  # a borrower's own state from now: none to take
        self._token = None
        self.__class__ = SharedRandom
    _setstate(self, state)


def _seed(self: SharedRandom, *args: Any, **kwargs: Any) -> None:
    if type(self) is _Lending:
        _unshare(self)
    else:
        self._token = None
        self.__class__ = SharedRandom
    random.Random.seed(self, *args, **kwargs)


class _Sharing(SharedRandom):
    """An RNG whose state is shared, lent or borrowed: each draw or change first unshares it
    (the two kinds below tell how)."""

    copy = _copy_shared
    random = _random
    getrandbits = _getrandbits
    gauss = _gauss
    seed = _seed
    setstate = _setstate_unshared


class _Lending(_Sharing):
    """An RNG whose copies share its state: before it changes the state, it leaves them a
    snapshot of it and becomes a plain :class:`SharedRandom`."""


class _Borrowing(_Sharing):
    """A copy that has no state of its own yet: it takes the shared one when first used."""

    def getstate(self) -> tuple[Any, ...]:
        token = self._token
        assert token is not None
        return token.read()
