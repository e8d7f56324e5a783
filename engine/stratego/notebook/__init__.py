"""The notebook: what each enemy piece can still be, from one player's view and events only."""

from engine.stratego.notebook.facts import NotebookError
from engine.stratego.notebook.human_setups import human_setup
from engine.stratego.notebook.notebook import Notebook
from engine.stratego.notebook.prior import SetupPrior

__all__ = ["Notebook", "NotebookError", "SetupPrior", "human_setup"]
