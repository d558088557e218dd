#!/usr/bin/env python3
"""The smallest useful contack-bot/1 bot: it always takes the first legal action.

Python standard library only. Run it in a game with
    contack play parker-1939 --seats "exec:python examples/external-bots/first_bot.py",random
The protocol is documented in docs/external-bots.md: one JSON object per line each way.
"""

import json
import sys


def send(message: dict) -> None:
    # One line per message, flushed at once: the engine waits for a whole line.
    print(json.dumps(message), flush=True)


def main() -> int:
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "protocol": "contack-bot/1", "name": "first-bot", "rulesets": ["*"]})
        elif kind == "new_game":
            send({"type": "ready"})
        elif kind == "position":
            send({"type": "action", "index": message["legal"][0]["index"]})
        elif kind == "quit":
            return 0
        # "observe" and "game_end" need no answer.
    return 0


if __name__ == "__main__":
    sys.exit(main())
