"""The domain: items, events, commands, policy, scoring. Pure Python, no I/O."""
