"""The runtime: what runs in the background of a bot process, without Discord types.

The scheduler that fires due clocks, the AI seats' driver tasks, boards drawn ahead of a
click's commit, and the health endpoint. Each reaches Discord only through what the edge hands
it at start-up (a callable, or the client typed under TYPE_CHECKING).
"""
