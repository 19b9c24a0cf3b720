from .daemon import entry

entry()
