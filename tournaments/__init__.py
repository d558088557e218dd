"""Round-robin tournaments of bots (see the tournaments issue; not built yet)."""
