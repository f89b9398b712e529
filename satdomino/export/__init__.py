"""Writers for instance formats."""
