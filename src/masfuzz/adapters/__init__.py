"""Framework adapters: the only code that imports agent frameworks."""
