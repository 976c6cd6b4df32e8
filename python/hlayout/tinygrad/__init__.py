"""hlayout's tinygrad plug-in: exact movement-op views for the installed tinygrad.

>>> import hlayout.tinygrad
>>> hlayout.tinygrad.install()      # doctest: +SKIP

patches the installed tinygrad in place, according to its version:

- **0.10.3** (:mod:`hlayout.tinygrad._v0_10`): ``View.__add__``,
  ``View.reshape`` and ``ShapeTracker.simplify`` ask hlayout's exact merge,
  so a chain stays one view whenever one view can express it;
- **0.14.0** (:mod:`hlayout.tinygrad._v0_14`): ``apply_movement_op`` (in
  ``tinygrad.schedule.indexing`` and in every module that imported it) reads
  each chain of movement ops as one chain, and the index and validity UOps it
  returns are hlayout's kernel expressions (fewest divisions and modulos,
  masks as validity) over tinygrad's own ranges.

Symbolic shapes (tinygrad ``Variable``): in 0.10.3 a merge or reshape that
tinygrad leaves undone goes to hlayout's symbolic merge (``_sym10``), right at
every value the Variables' ranges allow; in 0.14.0 they fall back to
tinygrad's own code. Any
other version is refused with a ``RuntimeError`` unless ``install(force=True)``
(which patches whichever of the two layouts the installed tinygrad has).
``uninstall()`` restores tinygrad's functions.
"""

__all__ = ["install", "uninstall", "installed", "SUPPORTED", "loop_nest_of"]

#: The tinygrad versions the plug-in is tested against.
SUPPORTED = ("0.10.3", "0.14.0")

_ACTIVE = []


def _tinygrad_version():
    from importlib.metadata import version

    return version("tinygrad")


def _module_for(found):
    """The plug-in module for tinygrad ``found``: by version when supported,
    else by what the installed tinygrad has (``tinygrad.shape`` was removed in
    0.12)."""
    if found == "0.10.3":
        from . import _v0_10 as mod
    elif found == "0.14.0":
        from . import _v0_14 as mod
    else:
        import importlib.util

        if importlib.util.find_spec("tinygrad.shape") is not None:
            from . import _v0_10 as mod
        else:
            from . import _v0_14 as mod
    return mod


def install(force=False):
    """Patches the installed tinygrad with hlayout's exact algorithms.
    Idempotent.

    Raises ``RuntimeError`` when the installed tinygrad is not one of
    :data:`SUPPORTED`, unless ``force`` is true.
    """
    if _ACTIVE:
        return
    found = _tinygrad_version()
    if found not in SUPPORTED and not force:
        raise RuntimeError(
            f"hlayout.tinygrad patches tinygrad {' or '.join(SUPPORTED)}, but tinygrad {found} "
            "is installed (install(force=True) patches it anyway)")
    mod = _module_for(found)
    mod.install()
    _ACTIVE.append(mod)


def uninstall():
    """Restores tinygrad's own functions."""
    while _ACTIVE:
        _ACTIVE.pop().uninstall()


def installed():
    """Whether the plug-in is installed."""
    return bool(_ACTIVE)


def loop_nest_of(*args, **kwargs):
    """tinygrad 0.14: the loop-nest hint of a movement-op chain (see
    :func:`hlayout.tinygrad._v0_14.loop_nest_of`)."""
    from . import _v0_14

    return _v0_14.loop_nest_of(*args, **kwargs)
