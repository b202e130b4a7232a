"""Widgets that share their layout and style models, so a page sends each of them once.

Every ipywidgets control comes with a ``Layout`` model and most with a style model
(``HTMLStyle``, ``ButtonStyle`` …). Made the ordinary way, a page of 80 controls is 240
widget models: its kernel sends every one of them to the browser, whose widget manager
builds each before the page is drawn, although most of those layouts and styles hold the
same defaults. A :class:`Kit` hands out one shared ``Layout`` per set of layout settings
and one style per style class and settings; the browser builds one model and a view per
control on it, exactly as for one widget displayed twice.

A shared layout must never be changed through one of its widgets: a control whose layout
changes after it is built (``display`` switched to hide it, a width set later) asks for
a layout of its own with ``own_layout=True``.

>>> kit = Kit()
>>> a, b = kit.html("one"), kit.html("two")
>>> a.layout is b.layout and a.style is b.style
True
>>> kit.button("Go").layout is kit.button("Stop", own_layout=True).layout
False
"""

from __future__ import annotations

import ipywidgets as W
from ipywidgets.widgets import widget as _widget


def _key(settings: dict | None) -> tuple:
    return tuple(sorted((settings or {}).items()))


class Kit:
    """Makes widgets whose layout and style models are shared within one page."""

    def __init__(self) -> None:
        self._shared: dict[tuple, W.Widget] = {}

    def _one(self, klass, settings: dict | None):
        key = (klass, _key(settings))
        if key not in self._shared:
            self._shared[key] = klass(**(settings or {}))
        return self._shared[key]

    def layout(self, **settings) -> W.Layout:
        """A layout shared by every widget made with the same settings (never change it)."""
        return self._one(W.Layout, settings)

    def make(self, cls, *args, layout=None, style=None, own_layout=False, **kwargs):
        """``cls(*args, **kwargs)`` with a shared style and (unless ``own_layout``) layout.

        ``layout`` and ``style`` are dicts of settings, as ipywidgets takes them.
        """
        if own_layout:
            kwargs["layout"] = W.Layout(**(layout or {}))
        else:
            kwargs["layout"] = self.layout(**(layout or {}))
        trait = cls.class_traits().get("style")
        if trait is not None:
            kwargs["style"] = self._one(trait.klass, style)
        return cls(*args, **kwargs)

    def close(self, widgets) -> None:
        """Close widgets the page replaced, with their children (a closed widget is no
        longer sent to a browser) and the layouts and styles that were theirs alone."""
        shared = {id(w) for w in self._shared.values()}
        for w in widgets:
            self.close(getattr(w, "children", ()) or ())
            for part in (getattr(w, "layout", None), getattr(w, "style", None)):
                if part is not None and id(part) not in shared:
                    part.close()
            w.close()

    # --- the usual ones -----------------------------------------------------------------------
    def html(self, value: str = "", **kwargs) -> W.HTML:
        return self.make(W.HTML, value=value, **kwargs)

    def vbox(self, children=(), **kwargs) -> W.VBox:
        return self.make(W.VBox, children=list(children), **kwargs)

    def hbox(self, children=(), **kwargs) -> W.HBox:
        return self.make(W.HBox, children=list(children), **kwargs)

    def button(self, description: str, tooltip: str = "", button_style: str = "", width=None,
               own_layout: bool = False, **kwargs) -> W.Button:  # fmt: skip
        return self.make(
            W.Button,
            description=description,
            tooltip=tooltip,
            button_style=button_style,
            layout={"width": width or "auto", **kwargs.pop("layout", {})},
            own_layout=own_layout,
            **kwargs,
        )


# --- the states a page asks for -----------------------------------------------------------
#: Widget modules whose browser models start from the same defaults as their Python classes
#: (ipywidgets' own: its static embedding sends only the values that differ, the same way).
CORE_MODULES = frozenset({"@jupyter-widgets/base", "@jupyter-widgets/controls"})
#: ... except these keys, whose browser default is not the Python one: a ``Button``'s
#: ``tooltip`` is ``None`` here and ``""`` there, and ``None`` makes the browser show the
#: description as the tooltip.
ALWAYS_SENT = frozenset({"tooltip"})


def lean_state(widget: W.Widget) -> dict:
    """One widget's state as a page's ``request_states`` needs it: for ipywidgets' own
    models only what differs from the defaults (a ``Layout`` is some 45 keys, nearly all
    ``None``); other modules' widgets (the board's canvas) whole."""
    if widget._model_module not in CORE_MODULES:
        return widget.get_state()
    full = widget.get_state()
    lean = widget.get_state(drop_defaults=True)
    return {k: v for k, v in full.items() if k in lean or k in ALWAYS_SENT}


def _answer_request_states(cls, msg) -> None:
    """ipywidgets' control-comm handler with lean states (its own sends every key of every
    widget, and builds the whole manager state once more for nothing)."""
    if msg["content"]["data"].get("method") != "request_states":
        return _FULL_ANSWER(msg)
    states = {
        w.model_id: {
            "model_name": w._model_name,
            "model_module": w._model_module,
            "model_module_version": w._model_module_version,
            "state": lean_state(w),
        }
        for w in list(_widget._instances.values())
    }
    states, buffer_paths, buffers = _widget._remove_buffers(states)
    cls._control_comm.send(
        {"method": "update_states", "states": states, "buffer_paths": buffer_paths},
        buffers=buffers,
    )


_FULL_ANSWER = W.Widget._handle_control_comm_msg


def send_lean_states() -> None:
    """Make this kernel answer a page's ``request_states`` with :func:`lean_state`: about
    a third of the bytes for a seat page, the same models built in the browser."""
    W.Widget._handle_control_comm_msg = classmethod(_answer_request_states)
    if W.Widget._control_comm is not None:  # a page already connected: its next ask
        W.Widget._control_comm.on_msg(W.Widget._handle_control_comm_msg)


__all__ = ["CORE_MODULES", "Kit", "lean_state", "send_lean_states"]
