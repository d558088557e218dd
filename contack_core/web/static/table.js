// The web table's page: shows the views the server sends, and turns taps into the entries the
// terminal keeper takes. HTML fragments come escaped from the server; every other string from
// it is set as text, never as markup. Nothing here knows a rule: the server checks every entry.
"use strict";
(() => {
  const body = document.body;
  const token = body.dataset.token;
  const $ = (id) => document.getElementById(id);
  let version = -1;
  let view = null;
  let selected = null; // the tile tapped, waiting for its cell
  let mode = null; // "draw": pick the tile drawn; "discard": tap the tile laid aside; "house": a house action
  let house = null; // the house action being tapped: its rule, whether it takes a tile and draws, what was tapped
  let discardZone = "";
  let dealt = []; // the tiles tapped for a deal
  let answers = 0;
  let agreed = false; // the next entry is one the table lets stand although the rules refuse it
  let stream = null;

  const viewer = () => $("viewer").value;
  const query = () => `?token=${encodeURIComponent(token)}` + (viewer() === "" ? "" : `&seat=${viewer()}`);

  function text(tag, value, cls) {
    const el = document.createElement(tag);
    el.textContent = value;
    if (cls) el.className = cls;
    return el;
  }

  function render(next, force) {
    if (!force && next.version < version) return;
    const moved = next.version !== version;
    version = next.version;
    view = next;
    body.dataset.version = String(next.version);
    body.dataset.due = next.due;
    body.dataset.toAct = next.toAct === null ? "" : String(next.toAct);
    if (moved) { selected = null; mode = null; dealt = []; house = null; }
    $("status").innerHTML = next.status;
    $("board").innerHTML = next.board;
    $("board").hidden = !next.board;  // a game kept as scores only has none
    $("buttons").innerHTML = next.buttons;
    $("seats").innerHTML = next.seats;
    $("sheet").innerHTML = next.sheet;
    $("log").innerHTML = next.log;
    $("entries").innerHTML = next.entries;
    $("entries-box").hidden = !next.entries;  // nothing to fix yet, or a game kept as scores only
    if (moved) $("choices").replaceChildren();
    showPicker();
    mark();
  }

  function showPicker() {
    const box = $("picker-box");
    const head = $("picker-head");
    head.replaceChildren();
    let shown = false;
    if (view.due === "deal") {
      const who = view.toAct === null ? "the pile" : view.seatNames[view.toAct];
      head.append(text("span", `deal ${view.count} tiles to ${who}: tap them (${dealt.length} of ${view.count}), then `));
      const go = text("button", "deal", "act");
      go.type = "button";
      go.id = "deal";
      go.disabled = dealt.length !== view.count;
      head.append(go);
      shown = true;
    } else if (view.due === "open") {
      head.append(text("span", "tap the tile turned up"));
      shown = true;
    } else if (mode === "draw") {
      head.append(text("span", "tap the tile drawn"));
      shown = true;
    } else if (mode === "house" && house.draws && (house.tile !== null || !house.chooses)) {
      head.append(text("span", `tap the tiles ${house.rule} draws (${house.drawn.length} tapped), then `));
      const done = text("button", house.rule, "act");
      done.type = "button";
      done.id = "house-done";
      done.disabled = house.drawn.length === 0;
      head.append(done);
      shown = true;
    }
    box.hidden = !shown;
    if (shown) $("picker").innerHTML = view.picker;
    const chosen = mode === "house" ? house.drawn : dealt;
    for (const button of $("picker").querySelectorAll("button.pick")) {
      button.classList.toggle("chosen", chosen.includes(button.dataset.tile));
    }
  }

  // A scores-only hand: each seat's figure, in seat order, as the terminal takes the line.
  function postHand() {
    const figures = Array.from(document.querySelectorAll("#buttons input.figure"), (input) => input.value.trim());
    post(figures.map((figure) => figure || "?").join(" "));
  }

  function houseEntry() {
    return house.rule + (house.tile !== null ? ` ${house.tile}` : "")
      + (house.drawn.length ? ` drawing ${house.drawn.join(" ")}` : "");
  }

  // The house action tapped so far: ask for its tile, then the tiles drawn, then send it.
  function advanceHouse() {
    if (house.chooses && house.tile === null) {
      showAnswer({messages: [`tap the tile ${house.rule} returns`], choices: []});
    } else if (house.draws) {
      showPicker();
      mark();
    } else {
      post(houseEntry());
    }
  }

  function mark() {
    for (const el of document.querySelectorAll(".selected")) el.classList.remove("selected");
    for (const el of document.querySelectorAll("#board .fit")) el.classList.remove("fit");
    if (mode === "house" && house.tile !== null) {  // the tile a house action returns, while its draws are tapped
      for (const el of document.querySelectorAll("#seats button.tile")) {
        if (el.dataset.tile === house.tile) el.classList.add("selected");
      }
    }
    if (selected === null) return;
    for (const el of document.querySelectorAll("#seats button.tile")) {
      if (el.dataset.tile === selected) el.classList.add("selected");
    }
    const cells = (view.fits && view.fits[selected]) || [];
    for (const el of document.querySelectorAll("#board [data-cell]")) {
      if (cells.includes(el.dataset.cell)) el.classList.add("fit");
    }
  }

  function showAnswer(answer) {
    const box = $("answer");
    box.replaceChildren();
    if (answer.refused) box.append(text("p", `refused: ${answer.refused}`, "refused"));
    for (const line of answer.messages || []) box.append(text("pre", line, "said"));
    const choices = $("choices");
    choices.replaceChildren();
    if ((answer.choices || []).length) {
      choices.append(text("span", answer.refused ? "nearest legal: " : "pick: "));
      for (const choice of answer.choices) choices.append(choiceButton(choice));
    }
    answers += 1;
    body.dataset.answers = String(answers);
  }

  function choiceButton(choice) {
    const button = text("button", choice.label, "choice");
    button.type = "button";
    if (choice.draw) button.dataset.act = "draw";
    else button.dataset.entry = choice.entry;
    return button;
  }

  function setAgreed(on) {
    agreed = on;
    $("agreed").setAttribute("aria-pressed", String(on));
    $("agreed").classList.toggle("on", on);
  }

  async function post(typed) {
    const command = /^\s*(undo|fix|insert|agreed?|entries|help)\b/i.test(typed);
    const entry = agreed && !command ? `agreed ${typed}` : typed;
    setAgreed(false);
    body.dataset.busy = "1";
    try {
      const response = await fetch(`/entry${query()}`, {
        method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({entry}),
      });
      const answer = await response.json();
      if (answer.error) {
        showAnswer({refused: answer.error, messages: [], choices: []});
        return;
      }
      showAnswer(answer);
      render(answer.view, false);
    } catch (error) {
      showAnswer({refused: `the table did not answer (${error})`, messages: [], choices: []});
    } finally {
      body.dataset.busy = "";
    }
  }

  function tapped(event) {
    const target = event.target;
    const correction = target.closest("[data-fix], [data-insert]");
    if (correction) {
      const input = $("entry");
      input.value = correction.dataset.fix ? `fix ${correction.dataset.fix} ` : `insert ${correction.dataset.insert} `;
      input.focus();
      showAnswer({messages: ["type the entry as it should have been, then enter"], choices: []});
      return;
    }
    if (target.closest("#agreed")) { setAgreed(!agreed); return; }
    const entryButton = target.closest("[data-entry]");
    if (entryButton) { post(entryButton.dataset.entry); return; }
    const act = target.closest("[data-act]");
    if (act && act.dataset.act === "draw") { mode = "draw"; selected = null; showPicker(); mark(); return; }
    if (act && act.dataset.act === "house") {
      house = {rule: act.dataset.rule, chooses: act.dataset.chooses === "1", draws: act.dataset.draws === "1",
               tile: null, drawn: []};
      if (house.chooses && selected !== null) house.tile = selected;
      mode = "house";
      selected = null;
      mark();
      advanceHouse();
      return;
    }
    if (target.closest("#house-done")) { post(houseEntry()); return; }
    if (act && act.dataset.act === "hand") { postHand(); return; }
    if (act && act.dataset.act === "discard") {
      discardZone = act.dataset.zone || "";
      if (selected !== null) { post(`discard ${selected}` + (discardZone ? ` to ${discardZone}` : "")); return; }
      mode = "discard";
      showAnswer({messages: ["tap the tile laid aside"], choices: []});
      return;
    }
    if (target.closest("#deal")) { post(dealt.join(" ")); return; }
    const pick = target.closest("button.pick");
    if (pick) {
      const tile = pick.dataset.tile;
      if (view.due === "deal") {
        dealt = dealt.includes(tile) ? dealt.filter((t) => t !== tile) : dealt.concat([tile]);
        showPicker();
      } else if (view.due === "open") {
        post(tile);
      } else if (mode === "draw") {
        post(`draw ${tile}`);
      } else if (mode === "house") {
        house.drawn = house.drawn.includes(tile) ? house.drawn.filter((t) => t !== tile) : house.drawn.concat([tile]);
        showPicker();
      }
      return;
    }
    const tile = target.closest("#seats button.tile, .piles button.tile");
    if (tile) {
      if (mode === "discard") { post(`discard ${tile.dataset.tile}` + (discardZone ? ` to ${discardZone}` : "")); return; }
      if (mode === "house" && house.chooses && house.tile === null) { house.tile = tile.dataset.tile; advanceHouse(); return; }
      selected = selected === tile.dataset.tile ? null : tile.dataset.tile;
      mode = null;
      mark();
      return;
    }
    const cell = target.closest("#board [data-cell]");
    if (cell) {
      const point = cell.dataset.cell;
      if (selected !== null) { post(`${selected} ${point}`); return; }
      const moves = (view.moves && view.moves[point]) || [];
      const choices = $("choices");
      choices.replaceChildren();
      if (moves.length) {
        for (const el of document.querySelectorAll("#board .fit")) el.classList.remove("fit");
        cell.classList.add("fit");
        choices.append(text("span", `from ${point}: `));
        for (const move of moves) choices.append(choiceButton(move));
      } else if (view.fits && Object.keys(view.fits).length) {
        choices.append(text("span", "tap a tile first, then the cell"));
      }
    }
  }

  function listen() {
    if (stream) stream.close();
    stream = new EventSource(`/events${query()}`);
    stream.addEventListener("view", (event) => render(JSON.parse(event.data), false));
  }

  async function load() {
    const response = await fetch(`/state${query()}`);
    render(await response.json(), true);
    listen();
  }

  document.addEventListener("click", tapped);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && event.target.matches("#buttons input.figure")) { event.preventDefault(); postHand(); }
  });
  $("entry-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("entry");
    const value = input.value;
    input.value = "";
    post(value);
  });
  $("undo").addEventListener("click", () => post("undo"));
  $("viewer").addEventListener("change", load);
  load();
})();
