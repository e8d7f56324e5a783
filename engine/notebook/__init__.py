"""The notebook: what each enemy piece can still be, from one player's view and events only."""

from engine.notebook.facts import NotebookError
from engine.notebook.human_setups import human_setup
from engine.notebook.notebook import Notebook
from engine.notebook.prior import SetupPrior

__all__ = ["Notebook", "NotebookError", "SetupPrior", "human_setup"]
