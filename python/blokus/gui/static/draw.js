// Drawing only: SVG of what the server sent. No rules here.

export const NS = "http://www.w3.org/2000/svg";
export const EMPTY = "#e4e1d9";
const BACKGROUND = "#f6f4ef";
const TEXT = "#55514a";

export function el(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

export function shade(color, factor) {
  if (!/^#[0-9a-f]{6}$/i.test(color)) return color;
  const c = [1, 3, 5].map((i) => Math.round(parseInt(color.slice(i, i + 2), 16) * factor));
  return "#" + c.map((v) => Math.min(255, v).toString(16).padStart(2, "0")).join("");
}

export function ink(color) {
  if (!/^#[0-9a-f]{6}$/i.test(color)) return "#fff";
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#1b1a17" : "#ffffff";
}

const pts = (points) => points.map(([x, y]) => `${x.toFixed(3)},${y.toFixed(3)}`).join(" ");

export function center(points) {
  let x = 0, y = 0;
  for (const p of points) { x += p[0]; y += p[1]; }
  return [x / points.length, y / points.length];
}

// --- flat boards (squares, triangles) and the Blokus 3D top view share this frame ---

export class BoardView {
  // svg: the element; geo: the setup's geometry; fills: colour per colour number.
  constructor(svg, geo, fills) {
    this.svg = svg;
    this.geo = geo;
    this.fills = fills;
    svg.replaceChildren();
    this.cube = geo.kind === "cube";
    const m = 1.1;
    const w = geo.width;
    const h = this.cube ? geo.depth : geo.height;
    svg.setAttribute("viewBox", `${-m} ${-m} ${w + 2 * m} ${h + 2 * m}`);
    el("rect", { x: -m, y: -m, width: w + 2 * m, height: h + 2 * m, fill: BACKGROUND }, svg);
    this.cellLayer = el("g", { class: "cells" }, svg);
    this.marks = el("g", { class: "ghost marks" }, svg);
    this.overlay = el("g", { class: "ghost" }, svg);
    this.ghost = el("g", { class: "ghost" }, svg);
    this.labels = el("g", { "font-size": 0.42, fill: TEXT, "text-anchor": "middle", "dominant-baseline": "central" }, svg);
    this.shapes = [];
    this.texts = [];
    if (this.cube) {
      this.depth = geo.depth;
      this.columnIndex = new Map();
      geo.columns.forEach(([x, y, limit], i) => {
        const sq = this.square(x, y);
        const poly = el("polygon", { points: pts(sq), class: "cell", fill: EMPTY, "data-col": `${x},${y}` }, this.cellLayer);
        this.shapes.push(poly);
        const [cx, cy] = center(sq);
        const t = el("text", { x: cx, y: cy, "font-size": 0.45, "font-weight": "bold", "text-anchor": "middle", "dominant-baseline": "central" }, this.cellLayer);
        const lim = el("text", { x: cx + 0.32, y: cy + 0.32, "font-size": 0.2, "text-anchor": "middle", "dominant-baseline": "central", "fill-opacity": 0.7 }, this.cellLayer);
        lim.textContent = limit;
        this.texts.push([t, lim]);
        this.columnIndex.set(`${x},${y}`, i);
      });
      for (let x = 0; x < geo.width; x++) el("text", { x: x + 0.5, y: geo.depth + m / 2 }, this.labels).textContent = String.fromCharCode(97 + x);
      for (let y = 0; y < geo.depth; y++) el("text", { x: -m / 2, y: geo.depth - y - 0.5 }, this.labels).textContent = y + 1;
    } else {
      geo.cells.forEach((cell, i) => {
        const poly = el("polygon", { points: pts(cell.points), class: "cell", fill: EMPTY, "data-cell": i }, this.cellLayer);
        this.shapes.push(poly);
      });
      const tri = geo.kind === "triangle";
      if (tri) this.labels.setAttribute("font-size", 0.34);
      for (const c of geo.columns) {
        const dy = tri ? (c.row - 0.5) * 0.36 : 0;
        el("text", { x: c.x, y: geo.height + m / 2 + dy }, this.labels).textContent = c.label;
      }
      for (const r of geo.rows) el("text", { x: -m / 2, y: r.y }, this.labels).textContent = r.label;
    }
  }

  square(x, y) {
    const top = this.depth - 1 - y;
    return [[x, top], [x + 1, top], [x + 1, top + 1], [x, top + 1]];
  }

  // The polygon of a cell (flat) or of its column (3D), in board units.
  cellPoints(cell) {
    if (!this.cube) return this.geo.cells[cell].points;
    const [x, y] = this.geo.cells[cell].xyz;
    return this.square(x, y);
  }

  cellCenter(cell) {
    return center(this.cellPoints(cell));
  }

  // Fills from the position: cell colours (flat), or the top cubes and heights (3D).
  update(state, columns3d) {
    if (!this.cube) {
      state.cells.forEach((c, i) => {
        const fill = c < 0 ? EMPTY : this.fills[c];
        this.shapes[i].setAttribute("fill", fill);
        this.shapes[i].setAttribute("stroke", c < 0 ? "#c8c4ba" : shade(this.fills[c], 0.75));
      });
    } else {
      columns3d.forEach((col, i) => {
        const fill = col.color < 0 ? EMPTY : this.fills[col.color];
        this.shapes[i].setAttribute("fill", fill);
        this.shapes[i].setAttribute("stroke", col.color < 0 ? "#c8c4ba" : shade(fill, 0.75));
        const [t, lim] = this.texts[i];
        t.textContent = col.height ? col.height : "";
        t.setAttribute("fill", col.color < 0 ? TEXT : ink(fill));
        lim.setAttribute("fill", col.color < 0 ? TEXT : ink(fill));
      });
    }
  }

  // Outlines of a set of cells (the last move, the best move): the edges no two of them share.
  outline(cells, group, stroke, width) {
    const count = new Map();
    const seen = new Set();
    for (const cell of cells) {
      const key0 = this.cube ? this.geo.cells[cell].xyz.slice(0, 2).join(",") : cell;
      if (seen.has(key0)) continue;
      seen.add(key0);
      const p = this.cellPoints(cell).map(([x, y]) => [Math.round(x * 1000) / 1000, Math.round(y * 1000) / 1000]);
      for (let i = 0; i < p.length; i++) {
        const a = p[i], b = p[(i + 1) % p.length];
        const key = a[0] < b[0] || (a[0] === b[0] && a[1] <= b[1]) ? `${a}|${b}` : `${b}|${a}`;
        count.set(key, (count.get(key) || 0) + 1);
      }
    }
    for (const [key, n] of count) {
      if (n !== 1) continue;
      const [a, b] = key.split("|").map((s) => s.split(",").map(Number));
      el("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke, "stroke-width": width, "stroke-linecap": "round" }, group);
    }
  }

  dot(cell, group, attrs) {
    const [x, y] = this.cellCenter(cell);
    el("circle", { cx: x, cy: y, r: 0.13, ...attrs }, group);
  }

  fillCells(cells, group, attrs) {
    for (const cell of cells) el("polygon", { points: pts(this.cellPoints(cell)), ...attrs }, group);
  }

  // A piece's polygons (relative to its held cell) drawn at a point of the board.
  piece(polygons, at, group, attrs) {
    const g = el("g", { transform: `translate(${at[0]} ${at[1]})` }, group);
    for (const poly of polygons) el("polygon", { points: pts(poly), ...attrs }, g);
    return g;
  }

  // Board units under a pointer event.
  pointAt(event) {
    const m = this.svg.getScreenCTM();
    if (!m) return null;
    const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(m.inverse());
    return [p.x, p.y];
  }
}

// --- Blokus 3D: the isometric view, turned by quarter turns ---

const COS30 = Math.sqrt(3) / 2;
const FACES = [
  // name, brightness, corners (offsets from the cube's lowest corner), the cell in front
  ["top", 1.0, [[0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]], [0, 0, 1]],
  ["front", 0.66, [[0, 0, 0], [1, 0, 0], [1, 0, 1], [0, 0, 1]], [0, -1, 0]],
  ["left", 0.84, [[0, 0, 0], [0, 1, 0], [0, 1, 1], [0, 0, 1]], [-1, 0, 0]],
];

export class IsoView {
  constructor(svg, geo, fills) {
    this.svg = svg;
    this.geo = geo;
    this.fills = fills;
    this.turn = 0;
  }

  // A column (x, y) as seen after `turn` quarter turns: the nearest corner is always (0, 0).
  turned(x, y) {
    let [w, d] = [this.geo.width, this.geo.depth];
    for (let k = 0; k < this.turn; k++) {
      [x, y] = [y, w - 1 - x];
      [w, d] = [d, w];
    }
    return [x, y];
  }

  project(x, y, z) {
    return [(x - y) * COS30, -(x + y) * 0.5 - z];
  }

  // cells: colour per cell; ghost: cells of a placement to show, with its colour and legality.
  draw(cells, ghost, last) {
    const svg = this.svg;
    svg.replaceChildren();
    const geo = this.geo;
    const pos = geo.cells.map((c) => {
      const [x, y] = this.turned(c.xyz[0], c.xyz[1]);
      return [x, y, c.xyz[2]];
    });
    const filled = new Set();
    cells.forEach((c, i) => { if (c >= 0) filled.add(pos[i].join(",")); });
    const ghostSet = new Set(ghost ? ghost.cells : []);
    const points = [];
    for (const [x0, y0, limit] of geo.columns) {
      const [x, y] = this.turned(x0, y0);
      for (const dx of [0, 1]) for (const dy of [0, 1]) for (const z of [0, limit]) points.push(this.project(x + dx, y + dy, z));
    }
    const pad = 0.4;
    const left = Math.min(...points.map((p) => p[0])) - pad;
    const top = Math.min(...points.map((p) => p[1])) - pad;
    const right = Math.max(...points.map((p) => p[0])) + pad;
    const bottom = Math.max(...points.map((p) => p[1])) + pad;
    svg.setAttribute("viewBox", `${left} ${top} ${right - left} ${bottom - top}`);
    el("rect", { x: left, y: top, width: right - left, height: bottom - top, fill: BACKGROUND }, svg);
    const P = (x, y, z) => this.project(x, y, z).map((v) => v.toFixed(3)).join(",");
    const floor = el("g", { fill: EMPTY, stroke: "#c8c4ba", "stroke-width": 0.03 }, svg);
    for (const [x0, y0] of geo.columns) {
      const [x, y] = this.turned(x0, y0);
      el("polygon", { points: [P(x, y, 0), P(x + 1, y, 0), P(x + 1, y + 1, 0), P(x, y + 1, 0)].join(" ") }, floor);
    }
    const items = [];
    cells.forEach((c, i) => { if (c >= 0) items.push([i, c, false]); });
    if (ghost) for (const i of ghost.cells) if (cells[i] < 0) items.push([i, ghost.color, true]);
    items.sort((a, b) => {
      const [ax, ay, az] = pos[a[0]], [bx, by, bz] = pos[b[0]];
      return az - ax - ay - (bz - bx - by) || (a[2] - b[2]);
    });
    const lastSet = new Set(last || []);
    const cubes = el("g", { "stroke-linejoin": "round" }, svg);
    for (const [i, color, isGhost] of items) {
      const [x, y, z] = pos[i];
      const fill = isGhost ? (ghost.legal ? this.fills[color] : "#d03020") : this.fills[color];
      const g = el("g", { "data-cell": geo.cells[i].name, class: isGhost ? "ghost-cube" : "cube" }, cubes);
      if (isGhost) g.setAttribute("opacity", ghost.legal ? 0.75 : 0.55);
      for (const [name, light, corners, front] of FACES) {
        const key = [x + front[0], y + front[1], z + front[2]].join(",");
        if (!isGhost && (filled.has(key))) continue;
        if (isGhost && ghostSet.size && [...ghostSet].some((j) => pos[j].join(",") === key)) continue;
        const face = shade(fill, light);
        el("polygon", {
          class: name,
          points: corners.map(([a, b, c]) => P(x + a, y + b, z + c)).join(" "),
          fill: face,
          stroke: isGhost ? "#111" : shade(fill, 0.5),
          "stroke-width": isGhost || lastSet.has(i) ? 0.06 : 0.03,
        }, g);
      }
      if (lastSet.has(i)) {
        const [cx, cy] = this.project(x + 0.5, y + 0.5, z + 1);
        el("circle", { cx, cy, r: 0.09, fill: "#111", "fill-opacity": 0.7 }, g);
      }
    }
    // Column letters and row numbers along the two near sides.
    const labels = el("g", { "font-size": 0.36, fill: TEXT, "text-anchor": "middle", "dominant-baseline": "central" }, svg);
    for (const [x0, y0] of geo.columns) {
      const [x, y] = this.turned(x0, y0);
      if (y === 0) {
        const [cx, cy] = this.project(x + 0.5, -0.45, 0);
        el("text", { x: cx, y: cy }, labels).textContent = `${String.fromCharCode(97 + x0)}${y0 + 1}`;
      }
    }
  }
}

// A piece for the tray: polygons (flat) or cubes (3D), drawn small, to scale.
export function trayPiece(orientation, fill, unit) {
  const svg = document.createElementNS(NS, "svg");
  if (orientation.polygons) {
    const all = orientation.polygons.flat();
    const xs = all.map((p) => p[0]), ys = all.map((p) => p[1]);
    const [x0, y0] = [Math.min(...xs), Math.min(...ys)];
    const [w, h] = [Math.max(...xs) - x0, Math.max(...ys) - y0];
    svg.setAttribute("viewBox", `${x0 - 0.1} ${y0 - 0.1} ${w + 0.2} ${h + 0.2}`);
    svg.setAttribute("width", ((w + 0.2) * unit).toFixed(0));
    svg.setAttribute("height", ((h + 0.2) * unit).toFixed(0));
    for (const poly of orientation.polygons) {
      el("polygon", { points: pts(poly), fill, stroke: shade(fill, 0.6), "stroke-width": 0.06, "stroke-linejoin": "round" }, svg);
    }
  } else {
    const proj = (x, y, z) => [(x - y) * COS30, -(x + y) * 0.5 - z];
    const cubes = orientation.cubes.slice().sort((a, b) => (a[2] - a[0] - a[1]) - (b[2] - b[0] - b[1]));
    const points = [];
    for (const [x, y, z] of cubes) for (const dx of [0, 1]) for (const dy of [0, 1]) for (const dz of [0, 1]) points.push(proj(x + dx, y + dy, z + dz));
    const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
    const [x0, y0] = [Math.min(...xs), Math.min(...ys)];
    const [w, h] = [Math.max(...xs) - x0, Math.max(...ys) - y0];
    svg.setAttribute("viewBox", `${x0 - 0.1} ${y0 - 0.1} ${w + 0.2} ${h + 0.2}`);
    svg.setAttribute("width", ((w + 0.2) * unit * 0.8).toFixed(0));
    svg.setAttribute("height", ((h + 0.2) * unit * 0.8).toFixed(0));
    const P = (x, y, z) => proj(x, y, z).map((v) => v.toFixed(3)).join(",");
    for (const [x, y, z] of cubes) {
      for (const [, light, corners] of FACES) {
        el("polygon", { points: corners.map(([a, b, c]) => P(x + a, y + b, z + c)).join(" "), fill: shade(fill, light), stroke: shade(fill, 0.5), "stroke-width": 0.04 }, svg);
      }
    }
  }
  return svg;
}
