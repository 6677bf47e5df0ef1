"""The frontend tests import their shared models (frontend_models.py) from here."""
import pathlib
import sys

HERE = str(pathlib.Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
