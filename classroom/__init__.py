"""hexclass's pure-Python core: hex maths, dice, rules engines and the co-op store.

Nothing under ``classroom`` imports ipywidgets; the widgets package draws what
these modules compute.
"""

__version__ = "0.1.0"
