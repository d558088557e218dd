"""A whole record as one self-contained HTML page (``contack replay RECORD --html FILE``).

No network: the page carries its own CSS, script and data. The figure is the SVG of
:mod:`contack_core.replay.svg`, written once: every distinct element appears once, tagged
with the steps it is shown on (``data-s="3-17,20"``), and the script shows the elements of
the chosen step. So the page shows at each step exactly what ``--svg --at N`` draws, and
stays small (a tile drawn at step 5 is the same markup until its hand ends).
"""

from __future__ import annotations

import json
import re
from typing import Any

from contack_core.replay.boards import legend_markup
from contack_core.replay.drawing import LAYER_COUNT, markup
from contack_core.replay.geometry import Bounds
from contack_core.replay.svg import MARGIN, step_picture
from contack_core.replay.timeline import Timeline
from contack_core.replay.words import viewer_words


def step_ranges(indices: list[int]) -> str:
    """Sorted step numbers as ranges: ``[1, 2, 3, 7] -> "1-3,7"``."""
    runs: list[list[int]] = []
    for index in indices:
        if runs and index == runs[-1][1] + 1:
            runs[-1][1] = index
        else:
            runs.append([index, index])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def _figure(timeline: Timeline) -> tuple[str, list[str]]:
    """The page's SVG layers and each step's viewBox (one box per hand, so the view holds still)."""
    shown: dict[str, tuple[int, list[int]]] = {}
    hand_bounds: dict[int, Bounds] = {}
    for step in timeline.steps:
        picture = step_picture(timeline, step)
        if picture is None:
            continue
        hand_bounds[step.hand] = hand_bounds[step.hand].union(picture.bounds) if step.hand in hand_bounds \
            else picture.bounds
        for element in picture.elements:
            shown.setdefault(element.markup, (element.layer, []))[1].append(step.index)
    layers: list[list[str]] = [[] for _ in range(LAYER_COUNT)]
    for element_markup, (layer, indices) in shown.items():
        layers[layer].append(f'<g data-s="{step_ranges(indices)}">{element_markup}</g>')
    svg = "\n".join(f'<g class="layer-{n}">{"".join(items)}</g>' for n, items in enumerate(layers))
    default = Bounds(-60, -80, 60, 20)
    boxes = [hand_bounds.get(step.hand, default).padded(MARGIN).view_box() for step in timeline.steps]
    return svg, boxes


def _legend(timeline: Timeline) -> tuple[str, str]:
    """What the board's marks mean, under the figure, where its board kind says (a board of pieces: the
    corner numbers, a piece turned over, the ringed spots, each colour's swatch), and the figure's class."""
    view = next((step.board for step in reversed(timeline.steps) if step.board is not None), None)
    if view is None or not view.legend:
        return "", ""
    colours = sorted({colour for step in timeline.steps if step.board is not None for colour in step.board.swatches})
    return f'<div id="legend">{legend_markup(view, colours, timeline.colour_words())}</div>', ' class="board"'


def _data(timeline: Timeline, boxes: list[str]) -> dict[str, Any]:
    rules = timeline.rules
    words = dict(viewer_words(rules.term("language")))
    terms = {key: rules.term(key).capitalize() for key in ("hand", "score", "total")}
    return {
        "title": rules.title,
        "seats": list(timeline.seats),
        "words": words,
        "terms": terms,
        "fault": None if timeline.fault is None else {"line": timeline.fault[0], "message": timeline.fault[1]},
        "steps": [
            {"line": s.line, "kind": s.kind, "text": s.text, "hand": s.hand, "toAct": s.to_act,
             "hands": [list(h) for h in s.hands], "piles": dict(s.piles),
             "stacks": {k: list(v) for k, v in s.stacks.items()}, "scores": list(s.scores),
             "handScores": [list(h) for h in s.hand_scores], "error": s.error, "finished": s.finished,
             "box": boxes[s.index]}
            for s in timeline.steps
        ],
    }


_SURROGATE = re.compile("[\ud800-\udfff]")


def _script_json(value: object) -> str:
    """JSON safe inside a <script> element (no ``</``, no ``<!--``), and in UTF-8: a lone
    surrogate a record's string names stays the escape it was (JSON.parse reads it back)."""
    text = json.dumps(value, ensure_ascii=False).replace("<", "\\u003c")
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def render_html(timeline: Timeline) -> str:
    """The replay page for ``timeline``: figure, step controls, event list, scores by hand."""
    rules = timeline.rules
    words = viewer_words(rules.term("language"))
    svg, boxes = _figure(timeline)
    last = len(timeline.steps) - 1
    events = "\n".join(
        f'<li data-step="{s.index}"{" class=bad" if s.error else ""}>'
        f'<span class="n">{s.index}</span> {markup(s.text)}</li>'
        for s in timeline.steps
    )
    heads = "".join(f"<th>{markup(name)}</th>" for name in timeline.seats)
    legend, figure_class = _legend(timeline)
    return _PAGE.format(
        lang=markup(rules.term("language")),
        title=markup(f"{rules.title}: {timeline.path.name}"),
        heading=markup(rules.title),
        record=markup(f"{words['record']}: {timeline.path.name}"),
        last=last,
        start=markup(words["start"]), back=markup(words["back"]), next=markup(words["next"]), end=markup(words["end"]),
        hand=markup(rules.term("hand").capitalize()),
        previous_hand=markup(words["previous_hand"]), next_hand=markup(words["next_hand"]),
        keys=markup(words["keys"]), score=markup(rules.term("score").capitalize()),
        held=markup(words["held"]), held_hidden="" if timeline.holds_tiles else " hidden",
        events_heading=markup(words["events"]),
        heads=heads, svg=svg, first_box=boxes[0], events=events, legend=legend, figure_class=figure_class,
        data=_script_json(_data(timeline, boxes)), script=_SCRIPT, style=_STYLE,
    )


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 0; color: #111827; background: #f3f4f6; }
header { padding: 10px 18px; background: #1e293b; color: #f8fafc; }
header h1 { font-size: 1.25rem; margin: 0; } header div { font-size: .85rem; opacity: .8; }
main { display: flex; gap: 14px; padding: 14px; align-items: flex-start; }
.board { flex: 3; background: #fff; border-radius: 8px; padding: 10px; min-width: 0; }
aside { flex: 2; display: flex; flex-direction: column; gap: 10px; min-width: 320px; }
aside section { background: #fff; border-radius: 8px; padding: 8px 12px; }
h2 { font-size: 1rem; margin: 4px 0 8px; }
.controls { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
.controls button { padding: 4px 10px; font-size: .9rem; cursor: pointer; }
#slider { flex: 1; min-width: 160px; }
#position { font-variant-numeric: tabular-nums; min-width: 9em; text-align: right; }
#status { margin: 8px 0; min-height: 2.6em; font-size: .95rem; }
#error { display: none; background: #fee2e2; color: #991b1b; border: 1px solid #fca5a5; padding: 6px 10px;
         border-radius: 6px; margin-bottom: 8px; }
#figure { width: 100%; height: 62vh; background: #fffdf7; border: 1px solid #e5e7eb; border-radius: 6px; }
#figure.board { height: auto; max-height: 92vh; aspect-ratio: 1; }
#legend { font-size: .85rem; color: #374151; margin-top: 6px; line-height: 1.5; }
#legend .swatch { display: inline-block; width: .9em; height: .9em; border: 1px solid #1f2937; vertical-align: -2px;
  margin: 0 3px 0 10px; }
.keys { font-size: .75rem; color: #6b7280; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { border-bottom: 1px solid #e5e7eb; padding: 3px 6px; text-align: right; }
th:first-child { text-align: left; } tr.total td, tr.total th { font-weight: bold; border-top: 2px solid #111827; }
td.to-act, th.to-act { background: #fef3c7; }
#held { list-style: none; margin: 0; padding: 0; font-family: ui-monospace, monospace; font-size: .85rem; }
#held li { padding: 2px 0; } #held .who { font-family: system-ui, sans-serif; font-weight: 600; }
#piles { font-size: .85rem; color: #374151; margin-top: 4px; }
#events { max-height: 36vh; overflow-y: auto; margin: 0; padding: 0; list-style: none; font-size: .85rem; }
#events li { padding: 2px 4px; cursor: pointer; border-radius: 4px; }
#events li .n { display: inline-block; min-width: 2.5em; color: #6b7280; text-align: right; margin-right: 4px; }
#events li.current { background: #dbeafe; } #events li.bad { color: #991b1b; font-weight: bold; }
"""

_SCRIPT = r"""
(function () {
  const data = JSON.parse(document.getElementById('replay-data').textContent);
  const steps = data.steps, last = steps.length - 1;
  const svg = document.getElementById('figure');
  const slider = document.getElementById('slider');
  const shapes = Array.from(svg.querySelectorAll('[data-s]')).map(function (el) {
    return { el: el, ranges: el.getAttribute('data-s').split(',').map(function (r) {
      const ends = r.split('-').map(Number); return [ends[0], ends.length > 1 ? ends[1] : ends[0]]; }) };
  });
  const items = Array.from(document.querySelectorAll('#events li'));
  let current = -1;
  function cell(tag, text, cls) { const c = document.createElement(tag); c.textContent = text;
    if (cls) c.className = cls; return c; }
  function scores(step) {
    const body = document.querySelector('#scores tbody'); body.textContent = '';
    step.handScores.forEach(function (row, h) {
      const tr = document.createElement('tr'); tr.setAttribute('data-hand', String(h + 1));
      tr.appendChild(cell('th', data.terms.hand + ' ' + (h + 1)));
      row.forEach(function (v) { tr.appendChild(cell('td', String(v))); }); body.appendChild(tr);
    });
    const total = document.createElement('tr'); total.className = 'total';
    total.appendChild(cell('th', step.finished ? data.terms.total : data.terms.total + ' (' + data.words.so_far + ')'));
    step.scores.forEach(function (v, s) {
      total.appendChild(cell('td', String(v), s === step.toAct ? 'to-act' : '')); });
    body.appendChild(total);
  }
  function held(step) {
    const list = document.getElementById('held'); list.textContent = '';
    step.hands.forEach(function (tiles, s) {
      const li = document.createElement('li');
      li.appendChild(cell('span', data.seats[s] + (s === step.toAct ? ' (' + data.words.to_act + ')' : '') + ': ',
                          'who'));
      li.appendChild(cell('span', tiles.join(' ') || '-')); list.appendChild(li);
    });
    document.getElementById('piles').textContent = Object.keys(step.piles).map(function (name) {
      const stack = (step.stacks || {})[name];
      return name + ': ' + (stack ? stack.slice(0, -1).concat('[' + stack[stack.length - 1] + ']').join(' ')
                                  : step.piles[name]); }).join(' · ');
  }
  function show(index) {
    index = Math.max(0, Math.min(last, index));
    const step = steps[index];
    shapes.forEach(function (s) {
      let on = false;
      for (const r of s.ranges) { if (index >= r[0] && index <= r[1]) { on = true; break; } }
      s.el.style.display = on ? '' : 'none';
    });
    svg.setAttribute('viewBox', step.box);
    slider.value = String(index);
    document.getElementById('position').textContent =
      data.terms.hand + ' ' + step.hand + ' · ' + data.words.event + ' ' + index + ' ' + data.words.of + ' ' + last;
    document.getElementById('status').textContent = step.text;
    const error = document.getElementById('error');
    if (step.error) { error.style.display = 'block';
      error.textContent = data.words.unsound + ', ' + data.words.line + ' ' + step.line + ': ' + step.error; }
    else { error.style.display = 'none'; error.textContent = ''; }
    scores(step); held(step);
    if (current >= 0) items[current].classList.remove('current');
    items[index].classList.add('current');
    items[index].scrollIntoView({ block: 'nearest' });
    current = index;
    document.body.setAttribute('data-step', String(index));
  }
  function handStart(index, direction) {
    const hand = steps[index].hand + direction;
    for (let i = 0; i <= last; i++) { if (steps[i].hand === hand) return i; }
    return direction < 0 ? 0 : last;
  }
  document.getElementById('start').onclick = function () { show(0); };
  document.getElementById('back').onclick = function () { show(current - 1); };
  document.getElementById('next').onclick = function () { show(current + 1); };
  document.getElementById('end').onclick = function () { show(last); };
  document.getElementById('previous-hand').onclick = function () { show(handStart(current, -1)); };
  document.getElementById('next-hand').onclick = function () { show(handStart(current, 1)); };
  slider.oninput = function () { show(Number(slider.value)); };
  items.forEach(function (li) { li.onclick = function () { show(Number(li.getAttribute('data-step'))); }; });
  document.addEventListener('keydown', function (e) {
    if (e.target === slider) return;
    const moves = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: last,
                    PageDown: handStart(current, 1), PageUp: handStart(current, -1) };
    if (e.key in moves) { e.preventDefault(); show(moves[e.key]); }
  });
  show(0);
})();
"""

_PAGE = """<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{style}</style>
</head>
<body>
<header><h1>{heading}</h1><div>{record}</div></header>
<main>
<section class="board">
<div class="controls">
<button id="start" type="button">|◀ {start}</button>
<button id="back" type="button">◀ {back}</button>
<button id="next" type="button">{next} ▶</button>
<button id="end" type="button">{end} ▶|</button>
<button id="previous-hand" type="button">« {hand}</button>
<button id="next-hand" type="button">{hand} »</button>
<input id="slider" type="range" min="0" max="{last}" value="0" step="1" aria-label="step">
<span id="position"></span>
</div>
<div class="keys">{keys}</div>
<div id="status"></div>
<div id="error" role="alert"></div>
<svg id="figure"{figure_class} xmlns="http://www.w3.org/2000/svg" viewBox="{first_box}" preserveAspectRatio="xMidYMid meet">
{svg}
</svg>
{legend}
</section>
<aside>
<section><h2>{score}</h2>
<table id="scores"><thead><tr><th></th>{heads}</tr></thead><tbody></tbody></table></section>
<section{held_hidden}><h2>{held}</h2><ul id="held"></ul><div id="piles"></div></section>
<section><h2>{events_heading}</h2><ol id="events">
{events}
</ol></section>
</aside>
</main>
<script type="application/json" id="replay-data">{data}</script>
<script>{script}</script>
</body>
</html>
"""
