// The page of `blokus gui`: it draws what the server sends and sends back what a person asks
// for (the messages of blokus.gui.protocol). Every rule is the server's.

import { BoardView, IsoView, trayPiece, el, ink, shade } from "./draw.js";

const $ = (id) => document.getElementById(id);
const BOTS = ["human", "random", "greedy", "mcts:seconds=1", "mcts:seconds=5"];

const app = {
  ws: null,
  setup: null,
  state: null,
  view: null,
  iso: null,
  tables: [], // per piece, per orientation: Map from held cell (flat) or column "x,y" (3D) to [[cell, id], ...]
  xyz: new Map(), // Blokus 3D: "x,y,z" -> cell
  legal: new Set(),
  picked: null, // {piece, orient}
  orients: new Map(), // the orientation each piece was last turned to
  hover: null, // the cell (flat) or column key (3D) under the pointer
  point: null, // the pointer in board units
  analysis: null,
  hint: null,
  showPV: false,
  numbers: false,
  flash: null,
  goal: null, // the ply asked for by the replay keys, until the server is there
  ready: false,
};
window.blokusApp = app; // for tests and the curious: read-only use

function send(message) {
  if (app.ws && app.ws.readyState === WebSocket.OPEN) app.ws.send(JSON.stringify(message));
}

function say(text, kind = "error") {
  const m = $("message");
  m.textContent = text;
  m.className = kind;
}

function connect() {
  const url = new URL("ws", location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(url);
  app.ws = ws;
  ws.onmessage = (event) => receive(JSON.parse(event.data));
  ws.onclose = () => {
    $("status").textContent = "disconnected: the server has stopped, or this page was opened elsewhere; reload to start again";
    document.body.dataset.ready = "closed";
  };
}

function receive(m) {
  switch (m.type) {
    case "setup": return onSetup(m);
    case "state": return onState(m);
    case "error": return onError(m);
    case "hint": app.hint = m; say(`Hint: ${m.text}`, "info"); return drawOverlay();
    case "analysis": app.analysis = m; drawAnalysis(); return drawOverlay();
    case "saved": say(`Saved ${m.name}`, "info"); send({ type: "files" }); return;
    case "files": return onFiles(m);
    case "export": return download(m.name, m.text, m.format === "svg" ? "image/svg+xml" : "application/x-blokus-sgf");
  }
}

// --- setup: the variant's drawing and placement tables ---

function onSetup(m) {
  app.setup = m;
  const geo = m.geometry;
  app.cube = geo.kind === "cube";
  app.tables = geo.pieces.map((piece) => piece.orientations.map((o) => {
    const map = new Map();
    for (let i = 0; i < o.placements.length; i += 2) {
      const cell = o.placements[i];
      const key = app.cube ? geo.cells[cell].xyz.slice(0, 2).join(",") : cell;
      if (!map.has(key)) map.set(key, []);
      map.get(key).push([cell, o.placements[i + 1]]);
    }
    return map;
  }));
  // Placement id -> piece, to tell which pieces have a place left.
  app.pieceOf = new Map();
  geo.pieces.forEach((piece, p) => piece.orientations.forEach((o) => {
    for (let i = 1; i < o.placements.length; i += 2) app.pieceOf.set(o.placements[i], p);
  }));
  app.xyz = new Map();
  if (app.cube) geo.cells.forEach((c, i) => app.xyz.set(c.xyz.join(","), i));
  app.view = new BoardView($("board"), geo, m.variant.fills);
  $("boards").classList.toggle("cube", app.cube);
  document.body.classList.toggle("cube", app.cube);
  $("iso-pane").hidden = !app.cube;
  $("tilt").hidden = !app.cube;
  app.iso = app.cube ? new IsoView($("iso"), geo, m.variant.fills) : null;
  app.picked = null;
  app.orients = new Map();
  app.analysis = null;
  app.hint = null;
  const select = $("variant");
  select.replaceChildren(...m.variants.map((v) => new Option(v, v, false, v === m.variant.id)));
  if (!m.variants.includes(m.variant.id)) select.prepend(new Option(m.variant.id, m.variant.id, true, true));
  $("folder-rows").hidden = !m.folder;
  if (m.folder) send({ type: "files" });
  document.title = `blokus · ${m.variant.name}`;
}

// --- state: the position ---

function columns3d(state) {
  const geo = app.setup.geometry;
  const top = new Map();
  state.cells.forEach((c, i) => {
    if (c < 0) return;
    const [x, y, z] = geo.cells[i].xyz;
    const key = `${x},${y}`;
    const t = top.get(key);
    if (!t || t.z < z) top.set(key, { z, color: c });
  });
  return geo.columns.map(([x, y]) => {
    const t = top.get(`${x},${y}`);
    return t ? { height: t.z + 1, color: t.color } : { height: 0, color: -1 };
  });
}

function humanToMove(s = app.state) {
  return s && !s.over && s.player !== null && s.seats[s.player].human;
}

function onState(s) {
  const started = performance.now();
  app.typed = null;
  const before = app.state;
  app.state = s;
  if (app.goal === s.ply || (before && before.line.length !== s.line.length)) app.goal = null;
  app.legal = new Set(s.legal);
  if (before && before.generation !== s.generation) { app.hint = null; if (app.analysis && app.analysis.generation !== s.generation) app.analysis = null; }
  const moved = before && before.generation !== s.generation;
  if (app.picked && (moved || !humanToMove() || !s.pieces_left[s.turn].includes(app.picked.piece))) app.picked = null;
  app.view.update(s, app.cube ? columns3d(s) : null);
  drawTrays();
  drawScores();
  drawMoves();
  drawSeats();
  drawStatus(before);
  drawOverlay();
  drawAnalysis();
  $("undo").disabled = s.ply === s.start;
  $("redo").disabled = s.ply >= s.start + s.line.length;
  $("hint").disabled = !humanToMove();
  $("analyse").setAttribute("aria-pressed", s.analysing);
  $("analysis").hidden = !s.analysing;
  $("pause").setAttribute("aria-pressed", s.paused);
  $("pause").disabled = s.seats.every((seat) => seat.human);
  const slider = $("slider");
  slider.min = s.start;
  slider.max = s.start + s.line.length;
  slider.value = s.ply;
  $("ply").textContent = `move ${s.ply - s.start} of ${s.line.length}`;
  $("comment").hidden = !s.comment;
  $("comment").textContent = s.comment;
  app.ready = true;
  app.drawMs = performance.now() - started; // the benchmark reads it
  document.body.dataset.ready = "yes";
  document.body.dataset.ply = s.ply;
  document.body.dataset.generation = s.generation;
}

function colorName(c) {
  return app.setup.variant.colors[c];
}

function seatOf(c) {
  return app.setup.variant.players.findIndex((colors) => colors.includes(c));
}

function drawStatus(before) {
  const s = app.state;
  const st = $("status");
  st.replaceChildren();
  if (s.over) {
    st.textContent = `Game over: ${s.result}`;
    const winners = s.winners.map((p) => `player ${p + 1} (${app.setup.variant.players[p].map(colorName).join("+")})`);
    $("result").hidden = false;
    $("result").textContent = `${s.result} · ${winners.length > 1 ? "tie between" : "winner"} ${winners.join(", ")}`;
  } else {
    $("result").hidden = true;
    const c = s.turn;
    const span = document.createElement("span");
    span.className = "chip";
    span.style.background = app.setup.variant.fills[c];
    st.appendChild(span);
    const seat = s.seats[s.player];
    let text = `${colorName(c)} to move`;
    if (!seat.human) text = s.paused ? `Paused: ${colorName(c)} (${seat.spec}) to move` : `${colorName(c)} (${seat.spec}) is thinking…`;
    else if (s.seats.some((x) => !x.human)) text += " (you)";
    if (s.title) text += ` · ${s.title}`;
    st.appendChild(document.createTextNode(text));
  }
  if (before && before.generation !== s.generation) {
    const newly = s.out.filter((c) => !before.out.includes(c));
    if (newly.length && s.ply > before.ply) say(`${newly.map(colorName).join(", ")} ${newly.length > 1 ? "have" : "has"} no move and pass${newly.length > 1 ? "" : "es"}`, "info");
    else if ($("message").className === "error") say("", "info");
  }
}

function drawScores() {
  const s = app.state;
  const v = app.setup.variant;
  const box = $("scores");
  box.replaceChildren();
  v.colors.forEach((name, c) => {
    const sw = document.createElement("div");
    sw.className = "swatch";
    sw.style.background = v.fills[c];
    const label = document.createElement("div");
    const seat = s.seats[seatOf(c)];
    const named = s.names.length === v.colors.length ? s.names[c] : s.names[seatOf(c)];
    const who = named || (seat ? (seat.human ? "person" : seat.spec) : "shared");
    label.textContent = `${name} · ${who}`;
    if (!s.over && s.turn === c) label.classList.add("to-move");
    if (s.out.includes(c)) { label.classList.add("out"); label.title = "no move left: passes"; }
    const pts = document.createElement("div");
    pts.textContent = s.points[c];
    pts.dataset.color = c;
    box.append(sw, label, pts);
  });
  if (v.players.length !== v.colors.length || v.players.some((p) => p.length > 1)) {
    s.scores.forEach((score, p) => {
      const a = document.createElement("div");
      const b = document.createElement("div");
      b.textContent = `player ${p + 1} (${v.players[p].map(colorName).join("+")})`;
      const c = document.createElement("div");
      c.textContent = score;
      box.append(a, b, c);
    });
  }
}

function drawSeats() {
  const s = app.state;
  const box = $("seats");
  const key = JSON.stringify(s.seats.map((x) => x.spec)) + app.setup.variant.id;
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren();
  s.seats.forEach((seat, p) => {
    const select = document.createElement("select");
    select.id = `seat-${p}`;
    select.title = `player ${p + 1}: ${app.setup.variant.players[p].map(colorName).join(", ")}`;
    const specs = [...new Set([...BOTS, ...app.setup.gtp, seat.spec])];
    for (const spec of specs) select.append(new Option(spec === "human" ? "person" : spec, spec, false, spec === seat.spec));
    select.style.borderLeft = `6px solid ${app.setup.variant.fills[app.setup.variant.players[p][0]]}`;
    select.onchange = () => send({ type: "seat", player: p, spec: select.value });
    box.appendChild(select);
  });
}

function drawMoves() {
  const s = app.state;
  const list = $("moves");
  list.replaceChildren();
  s.line.forEach((m, i) => {
    const li = document.createElement("li");
    li.textContent = `${colorName(m.color)} ${m.text}`;
    const ply = s.start + i + 1;
    if (ply > s.ply) li.classList.add("future");
    if (ply === s.ply) li.classList.add("current");
    li.onclick = () => send({ type: "goto", ply });
    list.appendChild(li);
  });
  const current = list.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

// --- the tray ---

function drawTrays() {
  const s = app.state;
  const v = app.setup.variant;
  const pieces = app.setup.geometry.pieces;
  const box = $("trays");
  // A tray is drawn again only when what it shows changed (a move changes one or two).
  if (box.dataset.variant !== v.id || box.children.length !== v.colors.length) {
    box.replaceChildren(...v.colors.map(() => document.createElement("div")));
    box.dataset.variant = v.id;
  }
  const unit = app.cube ? (v.colors.length > 2 ? 13 : 16) : v.colors.length > 2 ? 10 : 13;
  const playable = new Set();
  for (const id of s.legal) playable.add(app.pieceOf.get(id));
  v.colors.forEach((name, c) => {
    const mine0 = humanToMove() && s.turn === c;
    const key = JSON.stringify([s.pieces_left[c], !s.over && s.turn === c, mine0, mine0 && app.picked, mine0 && s.generation]);
    const old = box.children[c];
    if (old.dataset.key === key) return;
    const tray = document.createElement("div");
    tray.dataset.key = key;
    tray.className = "tray";
    tray.dataset.color = c;
    const mine = humanToMove() && s.turn === c;
    if (!s.over && s.turn === c) tray.classList.add("active");
    else tray.classList.add("inactive");
    const title = document.createElement("div");
    title.className = "tray-title";
    title.textContent = `${name}: ${s.pieces_left[c].length} pieces left`;
    tray.appendChild(title);
    const row = document.createElement("div");
    row.className = "tray-pieces";
    const counts = new Map();
    for (const p of s.pieces_left[c]) counts.set(p, (counts.get(p) || 0) + 1);
    for (const [p, n] of counts) {
      for (let k = 0; k < n; k++) {
        const orient = mine && app.picked && app.picked.piece === p ? app.picked.orient : 0;
        const svg = trayPiece(pieces[p].orientations[orient], v.fills[c], unit);
        svg.classList.add("tray-piece");
        svg.dataset.piece = p;
        svg.dataset.name = pieces[p].name;
        svg.setAttribute("aria-label", `piece ${pieces[p].name}`);
        if (mine && app.picked && app.picked.piece === p) svg.classList.add("picked");
        if (mine && !playable.has(p)) {
          svg.classList.add("stuck");
          svg.setAttribute("aria-label", `piece ${pieces[p].name}: no place for it now`);
        }
        if (mine) svg.addEventListener("click", () => pick(p));
        row.appendChild(svg);
      }
    }
    tray.appendChild(row);
    box.replaceChild(tray, old);
  });
  const picked = $("picked");
  picked.textContent = app.picked ? `${pieces[app.picked.piece].name}, orientation ${app.picked.orient + 1} of ${pieces[app.picked.piece].orientations.length}` : humanToMove() ? "pick a piece" : "";
  picked.dataset.piece = app.picked ? app.picked.piece : "";
  picked.dataset.orient = app.picked ? app.picked.orient : "";
}

function pick(p) {
  if (app.picked && app.picked.piece === p) app.picked = null;
  else app.picked = { piece: p, orient: app.orients.get(p) || 0 };
  drawTrays();
  drawOverlay();
}

function turnPiece(how) {
  if (!app.picked) return;
  const o = app.setup.geometry.pieces[app.picked.piece].orientations[app.picked.orient];
  if (o[how] === undefined) return;
  app.picked.orient = o[how];
  app.orients.set(app.picked.piece, app.picked.orient);
  drawTrays();
  drawOverlay();
}

// --- pointer to placement ---

function cubeCells(orientation, ref) {
  const [x, y, z] = app.setup.geometry.cells[ref].xyz;
  return orientation.cubes.map(([dx, dy, dz]) => app.xyz.get(`${x + dx},${y + dy},${z + dz}`));
}

// The placement the picked piece makes at the hovered cell or column: {id, legal, cells?}.
function placementAt(key) {
  if (!app.picked || key === null || key === undefined) return null;
  const list = app.tables[app.picked.piece][app.picked.orient].get(key);
  if (!list) return null;
  if (!app.cube) {
    const id = list[0][1];
    return { id, legal: app.legal.has(id), ref: list[0][0] };
  }
  const o = app.setup.geometry.pieces[app.picked.piece].orientations[app.picked.orient];
  const cells = app.state.cells;
  const options = list.map(([ref, id]) => ({ id, ref, legal: app.legal.has(id), cells: cubeCells(o, ref) }));
  options.sort((a, b) => app.setup.geometry.cells[a.ref].xyz[2] - app.setup.geometry.cells[b.ref].xyz[2]);
  // The legal one if there is one; else where the piece would rest: the lowest that overlaps nothing.
  return options.find((p) => p.legal) || options.find((p) => p.cells.every((c) => cells[c] < 0)) || options[0];
}

function drawOverlay() {
  const view = app.view;
  if (!view || !app.state) return;
  view.marks.replaceChildren();
  view.overlay.replaceChildren();
  view.ghost.replaceChildren();
  const s = app.state;
  const fills = app.setup.variant.fills;
  // The last move.
  if (s.last.length) view.outline(s.last, view.overlay, "#111", 0.14);
  // Free start points.
  if (!app.cube && !s.over) {
    const owners = new Map();
    app.setup.geometry.start.forEach((cells, c) => { for (const cell of cells) owners.set(cell, [...(owners.get(cell) || []), c]); });
    for (const [cell, who] of owners) {
      if (s.cells[cell] >= 0) continue;
      const fill = who.length === 1 ? fills[who[0]] : "#8a857c";
      view.dot(cell, view.marks, { fill, stroke: shade(fill, 0.6), "stroke-width": 0.04, r: 0.2 });
    }
  }
  // Analysis: a heat map of where the candidate moves go, the best move outlined, the PV.
  if (app.analysis && app.analysis.generation === s.generation) {
    const heat = new Map();
    let most = 1;
    for (const m of app.analysis.moves) for (const c of m.cells) {
      const k = app.cube ? app.setup.geometry.cells[c].xyz.slice(0, 2).join(",") : c;
      const v = (heat.get(k) || [0, c]);
      v[0] += m.visits;
      heat.set(k, v);
      most = Math.max(most, v[0]);
    }
    for (const [, [v, c]] of heat) view.fillCells([c], view.marks, { fill: "#ff5a00", "fill-opacity": (0.1 + 0.5 * v / most).toFixed(3) });
    const best = app.analysis.moves[0];
    if (best) view.outline(best.cells, view.overlay, "#ff5a00", 0.16);
    if (app.showPV) {
      app.analysis.pv.slice(0, 8).forEach((m, i) => {
        const [x, y] = view.cellCenter(m.cells[Math.floor(m.cells.length / 2)]);
        el("circle", { cx: x, cy: y, r: 0.32, fill: "#fff", stroke: fills[m.color] || "#111", "stroke-width": 0.08 }, view.overlay);
        el("text", { x, y, "font-size": 0.4, "text-anchor": "middle", "dominant-baseline": "central" }, view.overlay).textContent = i + 1;
      });
    }
  }
  // Move numbers: on the middle cell of each piece played (in Blokus 3D, of its top cubes' columns).
  if (app.numbers) {
    const numbers = el("g", { "font-size": 0.42, "font-weight": "bold", "text-anchor": "middle", "dominant-baseline": "central" }, view.overlay);
    const shown = new Map();
    s.line.slice(0, s.ply - s.start).forEach((m, i) => {
      const cell = m.cells[Math.floor(m.cells.length / 2)];
      const key = app.cube ? app.setup.geometry.cells[cell].xyz.slice(0, 2).join(",") : cell;
      shown.set(key, [cell, s.start + i + 1, m.color]);
    });
    for (const [, [cell, n, color]] of shown) {
      const [x, y] = view.cellCenter(cell);
      // Blokus 3D: in a corner, beside the column's height.
      const at = app.cube ? { x: x - 0.28, y: y - 0.28, "font-size": 0.24 } : { x, y };
      el("text", { ...at, fill: ink(fills[color]), class: "move-number" }, numbers).textContent = n;
    }
  }
  if (app.hint && app.hint.generation === s.generation) view.outline(app.hint.cells, view.overlay, "#1aa64a", 0.2);
  if (app.flash) view.fillCells(app.flash, view.overlay, { fill: "#d03020", "fill-opacity": 0.45 });
  // The picked piece: where it can go (dots on the cells it can be held at), and under the pointer.
  let ghost3d = null;
  let level = "";
  if (app.picked && humanToMove()) {
    const color = s.turn;
    const table = app.tables[app.picked.piece][app.picked.orient];
    const o = app.setup.geometry.pieces[app.picked.piece].orientations[app.picked.orient];
    for (const [key, list] of table) {
      if (list.some(([, id]) => app.legal.has(id))) view.dot(list[0][0], view.marks, { fill: "#1aa64a", "fill-opacity": 0.8, r: 0.12, class: "legal-spot" });
    }
    const at = placementAt(app.hover);
    if (!app.cube) {
      if (at) {
        const c = view.cellCenter(at.ref);
        view.piece(o.polygons, c, view.ghost, { fill: at.legal ? fills[color] : "#d03020", "fill-opacity": at.legal ? 0.8 : 0.5, stroke: "#111", "stroke-width": 0.06 });
      } else if (app.point) {
        view.piece(o.polygons, app.point, view.ghost, { fill: fills[color], "fill-opacity": 0.45, stroke: "#555", "stroke-width": 0.04 });
      }
    } else if (at) {
      view.fillCells(at.cells.filter((c) => c !== undefined), view.ghost, { fill: at.legal ? fills[color] : "#d03020", "fill-opacity": 0.55, stroke: "#111", "stroke-width": 0.05 });
      const levels = at.cells.map((c) => app.setup.geometry.cells[c].xyz[2] + 1);
      const low = Math.min(...levels), high = Math.max(...levels);
      level = `level ${low}${high > low ? "–" + high : ""}${at.legal ? "" : " (not legal here)"}`;
      ghost3d = { cells: at.cells.filter((c) => c !== undefined), color, legal: at.legal };
    }
  }
  if (app.iso) app.iso.draw(s.cells, ghost3d, s.last);
  if (!level && app.cube && app.picked && humanToMove()) level = "point at a column of the top view";
  $("level").textContent = level;
}

function targetOf(event) {
  const t = event.target.closest ? event.target.closest("[data-cell],[data-col]") : null;
  if (!t) return null;
  if (t.dataset.col !== undefined) return t.dataset.col;
  return t.dataset.cell !== undefined ? Number(t.dataset.cell) : null;
}

function onPointer(event) {
  app.point = app.view ? app.view.pointAt(event) : null;
  const key = targetOf(event);
  if (key !== app.hover || !app.cube) {
    app.hover = key;
    if (app.picked) drawOverlay();
  }
}

function onBoardClick(event) {
  if (!app.picked || !humanToMove()) return;
  const key = targetOf(event);
  app.hover = key;
  const at = placementAt(key);
  if (!at) {
    say(`${app.setup.geometry.pieces[app.picked.piece].name} does not fit on the board there`);
    return;
  }
  send({ type: "play", move: at.id });
}

function onError(m) {
  app.goal = null;
  if (m.intent === "play" && app.typed) { $("move-text").value = app.typed; }
  app.typed = null;
  if (m.intent === "save" && app.saving && / exists;/.test(m.message)) {
    const name = app.saving;
    app.saving = null;
    if (window.confirm(`${name} exists in the folder. Replace it?`)) send({ type: "save", name, overwrite: true });
    return;
  }
  say(m.reason ? `Not played: ${m.reason}` : m.message);
  $("message").dataset.reason = m.reason || "";
  if (m.move && m.move.cells) {
    app.flash = m.move.cells;
    drawOverlay();
    setTimeout(() => { app.flash = null; drawOverlay(); }, 1200);
  }
}

// --- analysis panel ---

function drawAnalysis() {
  const a = app.analysis;
  const s = app.state;
  const panel = $("candidates");
  const bar = $("value-bar");
  panel.replaceChildren();
  bar.replaceChildren();
  if (!a || !s || a.generation !== s.generation) {
    if (s && s.analysing) panel.appendChild(Object.assign(document.createElement("li"), { textContent: s.over ? "the game is over" : "thinking…" }));
    $("pv").hidden = true;
    return;
  }
  const v = app.setup.variant;
  a.value.forEach((x, p) => {
    const d = document.createElement("div");
    d.style.width = `${(x * 100).toFixed(1)}%`;
    d.style.background = v.fills[v.players[p][0]];
    d.style.color = "#fff";
    d.textContent = `${Math.round(x * 100)}%`;
    d.title = `player ${p + 1}: ${(x * 100).toFixed(1)}% to win`;
    bar.appendChild(d);
  });
  for (const [rank, m] of a.moves.slice(0, 12).entries()) {
    const li = document.createElement("li");
    const cells = [["rank", `${rank + 1}.`], ["text", m.text], ["num", `${m.visits}`], ["num", `${(m.value * 100).toFixed(1)}%`]];
    for (const [cls, text] of cells) li.appendChild(Object.assign(document.createElement("span"), { className: cls, textContent: text }));
    li.title = `${m.visits} simulations; ${(m.value * 100).toFixed(1)}% to win for the player who plays it`;
    li.onmouseenter = () => { app.flash = null; app.view.outline(m.cells, app.view.overlay, "#7030a0", 0.2); };
    li.onmouseleave = () => drawOverlay();
    li.onclick = () => { $("move-text").value = m.text; };
    panel.appendChild(li);
  }
  const pv = $("pv");
  pv.hidden = !app.showPV;
  pv.textContent = a.pv.map((m, i) => `${i + 1}. ${colorName(m.color)} ${m.text}`).join("  ");
}

// --- files ---

function onFiles(m) {
  const select = $("files");
  select.replaceChildren(...m.names.map((n) => new Option(n, n)));
}

function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  app.lastExport = { name, text };
}

// --- controls ---

function bind() {
  const board = $("board");
  board.addEventListener("pointermove", onPointer);
  board.addEventListener("pointerleave", () => { app.hover = null; app.point = null; drawOverlay(); });
  board.addEventListener("click", onBoardClick);
  board.addEventListener("wheel", (e) => { if (app.picked) { e.preventDefault(); turnPiece("rotate"); } }, { passive: false });
  $("rotate").onclick = () => turnPiece("rotate");
  $("flip").onclick = () => turnPiece("flip");
  $("tilt").onclick = () => turnPiece("tilt");
  $("new").onclick = () => send({ type: "new", variant: $("variant").value });
  $("undo").onclick = () => send({ type: "undo" });
  $("redo").onclick = () => send({ type: "redo" });
  $("hint").onclick = () => { say("asking for a hint…", "info"); send({ type: "hint" }); };
  $("analyse").onclick = () => send({ type: "analyse", on: !app.state.analysing });
  $("pause").onclick = () => send({ type: "pause", on: !app.state.paused });
  $("export-svg").onclick = () => send({ type: "export", format: "svg", view: app.cube ? "iso" : "top" });
  $("download").onclick = () => send({ type: "export", format: "blksgf" });
  $("numbers").onclick = () => { app.numbers = !app.numbers; $("numbers").setAttribute("aria-pressed", app.numbers); drawOverlay(); };
  $("show-pv").onclick = () => { app.showPV = !app.showPV; drawAnalysis(); drawOverlay(); };
  $("turn-left").onclick = () => { app.iso.turn = (app.iso.turn + 3) % 4; drawOverlay(); };
  $("turn-right").onclick = () => { app.iso.turn = (app.iso.turn + 1) % 4; drawOverlay(); };
  $("slider").oninput = () => send({ type: "goto", ply: Number($("slider").value) });
  // Keys pressed faster than the answers come count from the ply already asked for.
  const step = (d) => {
    const s = app.state;
    const from = app.goal ?? s.ply;
    const ply = Math.max(s.start, Math.min(s.start + s.line.length, from + d));
    if (ply !== from) { app.goal = ply; send({ type: "goto", ply }); }
  };
  $("first").onclick = () => send({ type: "goto", ply: app.state.start });
  $("back").onclick = () => step(-1);
  $("forward").onclick = () => step(1);
  $("last").onclick = () => send({ type: "goto", ply: app.state.start + app.state.line.length });
  $("move-form").onsubmit = (e) => {
    e.preventDefault();
    const text = $("move-text").value.trim();
    if (text) { app.typed = text; $("move-text").value = ""; send({ type: "play", move: text }); }
  };
  $("save").onclick = () => {
    let name = $("save-name").value.trim();
    if (name && !name.endsWith(".blksgf")) name += ".blksgf";
    if (name) { app.saving = name; send({ type: "save", name, overwrite: false }); }
  };
  $("open").onclick = () => { const name = $("files").value; if (name) send({ type: "open", name }); };
  $("refresh").onclick = () => send({ type: "files" });
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    const k = e.key;
    if ((e.ctrlKey || e.metaKey) && k === "z") { send({ type: "undo" }); e.preventDefault(); return; }
    if ((e.ctrlKey || e.metaKey) && k === "y") { send({ type: "redo" }); e.preventDefault(); return; }
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (k === "r" || k === "R") turnPiece("rotate");
    else if (k === "f" || k === "F") turnPiece("flip");
    else if (k === "t" || k === "T") turnPiece("tilt");
    else if (k === "Escape") { app.picked = null; drawTrays(); drawOverlay(); }
    else if (k === "ArrowLeft") step(-1);
    else if (k === "ArrowRight") step(1);
    else if (k === "Home") $("first").click();
    else if (k === "End") $("last").click();
    else if (k === "h") $("hint").click();
    else if (k === "a") $("analyse").click();
    else if (k === "m") $("numbers").click();
    else if (k === " ") { if (!$("pause").disabled) $("pause").click(); }
    else if ((k === "q" || k === "e") && app.iso) (k === "q" ? $("turn-left") : $("turn-right")).click();
    else return;
    e.preventDefault();
  });
}

bind();
connect();
