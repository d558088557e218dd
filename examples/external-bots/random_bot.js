#!/usr/bin/env node
// A contack-bot/1 bot in Node.js (no npm packages): a uniformly random legal action,
// reproducible from the seed the engine sends in "new_game".
//
//   contack play parker-1939 --seats "exec:node examples/external-bots/random_bot.js",random
//
// The protocol (docs/external-bots.md): one JSON object per line on stdin and stdout;
// logs go to stderr.
"use strict";

const readline = require("readline");

// mulberry32: a tiny seeded generator, so the same seed plays the same game.
function generator(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// A seed may be a number, a string or null: fold it into 32 bits.
function seedNumber(seed) {
  const text = seed === null || seed === undefined ? String(Date.now()) : String(seed);
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) {
    hash = Math.imul(hash ^ text.charCodeAt(i), 16777619) >>> 0;
  }
  return hash;
}

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

let random = generator(seedNumber(null));
let seat = null;

const input = readline.createInterface({ input: process.stdin, terminal: false });
input.on("line", (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello":
      send({ type: "hello", protocol: "contack-bot/1", name: "random-js", rulesets: ["*"] });
      break;
    case "new_game":
      random = generator(seedNumber(message.seed));
      seat = message.seat;
      send({ type: "ready" });
      break;
    case "position": {
      const legal = message.legal;
      const choice = legal[Math.floor(random() * legal.length)];
      send({ type: "action", index: choice.index });
      break;
    }
    case "game_end":
      process.stderr.write(`random-js (seat ${seat}): game over, scores ${JSON.stringify(message.scores)}\n`);
      break;
    case "quit":
      input.close();
      process.exit(0);
      break;
    default:
      break; // "observe" needs no answer
  }
});
input.on("close", () => process.exit(0));
