"""ipywidgets and ipycanvas views: they draw a state and turn clicks into actions."""
