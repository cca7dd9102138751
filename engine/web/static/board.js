// Boards as pictures (SVG) on a seat's page: each board of the view's `drawings` (docs/web.md),
// drawn from what the ruleset's `draw:` rules say of its places. Plain JavaScript, no framework:
// the SVG is built node by node and every text is set as text. Colours are set as SVG
// presentation attributes (the page's Content-Security-Policy allows no inline style), a
// player's colour by a class (`seat-N`, app.css holds the palette, the players' table uses it too).
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const HEX_SIZE = 30; // a hexagon's radius, in the drawing's units
const NODE_SIZE = 26; // a graph's place, a circle of this radius
const NEUTRAL = "#f7f3e8"; // a place's fill when the rules give none
const PIXELS = 1.6; // screen pixels a unit of the drawing takes, at most (a narrow window shrinks it)

function svgNode(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value !== null && value !== undefined) node.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

function svgText(attrs, text) {
  const node = svgNode("text", attrs);
  node.textContent = text;
  return node;
}

// Where each place's centre is: hexagons (pointy-top) from axial q, r; a graph's places from
// their x, y properties when they all have them, else on a circle in their order.
function centres(drawing) {
  const at = new Map();
  const places = drawing.places;
  if (drawing.layout === "hex") {
    for (const p of places) {
      at.set(p.id, [HEX_SIZE * Math.sqrt(3) * (p.q + p.r / 2), HEX_SIZE * 1.5 * p.r]);
    }
  } else if (places.every((p) => typeof p.x === "number" && typeof p.y === "number")) {
    const xs = places.map((p) => p.x);
    const ys = places.map((p) => p.y);
    const span = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys)) || 1;
    const scale = (NODE_SIZE * 4 * Math.sqrt(places.length)) / span;
    for (const p of places) at.set(p.id, [p.x * scale, p.y * scale]);
  } else {
    const radius = Math.max(NODE_SIZE * 3, (places.length * NODE_SIZE * 3) / (2 * Math.PI));
    places.forEach((p, i) => {
      const angle = (2 * Math.PI * i) / places.length - Math.PI / 2;
      at.set(p.id, [radius * Math.cos(angle), radius * Math.sin(angle)]);
    });
  }
  return at;
}

function hexPoints(cx, cy, size) {
  return Array.from({ length: 6 }, (_, i) => {
    const angle = (Math.PI / 180) * (60 * i - 30);
    return `${(cx + size * Math.cos(angle)).toFixed(1)},${(cy + size * Math.sin(angle)).toFixed(1)}`;
  }).join(" ");
}

function shape(layout, cx, cy, scale, attrs) {
  return layout === "hex"
    ? svgNode("polygon", { points: hexPoints(cx, cy, HEX_SIZE * scale), ...attrs })
    : svgNode("circle", { cx, cy, r: NODE_SIZE * scale, ...attrs });
}

// One board as an SVG element. `choices` maps a place's id to the options it stands for;
// `choose(i)` takes option i, `pick(options, label)` is for a place that stands for several.
function boardPicture(name, drawing, choices, choose, pick) {
  const at = centres(drawing);
  const hex = drawing.layout === "hex";
  const reach = hex ? HEX_SIZE : NODE_SIZE + 14; // how far a place's drawing goes from its centre
  const xs = [...at.values()].map(([x]) => x);
  const ys = [...at.values()].map(([, y]) => y);
  const left = Math.min(...xs) - reach - 4;
  const top = Math.min(...ys) - reach - 4;
  const width = Math.max(...xs) - Math.min(...xs) + 2 * reach + 8;
  const height = Math.max(...ys) - Math.min(...ys) + 2 * reach + 8;
  const svg = svgNode("svg", {
    class: "board-picture", viewBox: `${left.toFixed(1)} ${top.toFixed(1)} ${width.toFixed(1)} ${height.toFixed(1)}`,
    width: Math.round(width * PIXELS), height: Math.round(height * PIXELS),
    role: "group", "aria-label": `board ${name}`,
  });
  const edges = svgNode("g", { class: "lines" }); // under the places: they join them
  const ground = svgNode("g", {});
  const lines = svgNode("g", { class: "lines" }); // over the places: they run across them
  const marks = svgNode("g", { class: "marks" });
  for (const [a, b] of drawing.edges) {
    const [x1, y1] = at.get(a);
    const [x2, y2] = at.get(b);
    edges.append(svgNode("line", { x1, y1, x2, y2, class: "edge" }));
  }
  for (const path of drawing.paths) {
    const points = path.places.map((id) => at.get(id).map((n) => n.toFixed(1)).join(",")).join(" ");
    const seat = path.owner ? ` seat-${path.owner}` : "";
    lines.append(svgNode("polyline", { points, class: `track${seat}${path.finished ? "" : " unfinished"}` }));
  }
  for (const p of drawing.places) {
    const [cx, cy] = at.get(p.id);
    const options = choices.get(p.id) || [];
    const place = shape(drawing.layout, cx, cy, 1, {
      fill: p.fill || NEUTRAL, class: "place" + (options.length ? " choosable" : ""),
    });
    const tip = svgNode("title", {});
    tip.textContent = p.text && p.text !== p.label ? `${p.label}: ${p.text}` : p.label;
    place.append(tip);
    if (options.length) {
      const take = () => (options.length === 1 ? choose(options[0]) : pick(options, p.label));
      place.setAttribute("tabindex", "0");
      place.setAttribute("role", "button");
      place.setAttribute("aria-label", options.length === 1 ? p.label : `${p.label} (${options.length} options)`);
      place.addEventListener("click", take);
      place.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          take();
        }
      });
    }
    ground.append(place);
    if (p.owner) marks.append(shape(drawing.layout, cx, cy, 0.8, { class: `owner seat-${p.owner}` }));
    if (p.text) marks.append(svgText({ x: cx, y: cy - (p.tokens.length ? 4 : -4), class: "place-text" }, p.text));
    if (!hex) marks.append(svgText({ x: cx, y: cy + NODE_SIZE + 12, class: "place-label" }, p.label));
    const size = 7;
    const row = Math.min(p.tokens.length, 4);
    p.tokens.forEach((colour, i) => {
      const x = cx - (row * (size + 2)) / 2 + (i % 4) * (size + 2) + 1;
      const y = cy + 4 + Math.floor(i / 4) * (size + 2);
      marks.append(svgNode("rect", { x: x.toFixed(1), y, width: size, height: size, fill: colour, class: "token" }));
    });
    if (p.badge) {
      const bx = cx + (hex ? HEX_SIZE * 0.45 : NODE_SIZE * 0.75);
      const by = cy - (hex ? HEX_SIZE * 0.55 : NODE_SIZE * 0.75);
      marks.append(svgNode("circle", { cx: bx, cy: by, r: 7, class: "badge" }),
        svgText({ x: bx, y: by + 3.5, class: "badge-text" }, p.badge));
    }
  }
  svg.append(edges, ground, lines, marks);
  return svg;
}

// The boards of a seat's view: each as a picture (its text art kept in a closed <details>),
// with a key of the players' colours. `decision` is the seat's pending decision or null;
// `choose(i)` takes option i of it.
function boardSections(v, decision, choose) {
  const byBoard = new Map(); // board -> place id -> the options that stand for it
  (decision ? v.option_places || [] : []).forEach((at, i) => {
    if (!at) return;
    if (!byBoard.has(at.board)) byBoard.set(at.board, new Map());
    const places = byBoard.get(at.board);
    if (!places.has(at.id)) places.set(at.id, []);
    places.get(at.id).push(i);
  });
  const out = [];
  for (const [name, drawing] of Object.entries(v.drawings || {})) {
    const section = document.createElement("section");
    section.className = "board";
    const title = document.createElement("h2");
    title.textContent = name;
    const key = document.createElement("p");
    key.className = "seat-key";
    v.players.forEach((player, i) => {
      const swatch = document.createElement("span");
      swatch.className = `swatch seat-${i + 1}`;
      key.append(swatch, `${player} `);
    });
    section.append(title, boardPicture(name, drawing, byBoard.get(name) || new Map(), choose, pickOptions), key);
    const legend = boardKey(v, name); // table.js: what the board's colours and badges mean
    if (legend) section.append(legend);
    if (v.boards && name in v.boards) {
      const details = document.createElement("details");
      const summary = document.createElement("summary");
      summary.textContent = "as text";
      const pre = document.createElement("pre");
      pre.className = "board";
      pre.textContent = v.boards[name];
      details.append(summary, pre);
      section.append(details);
    }
    out.push(section);
  }
  return out;
}

// A place that stands for several options: their buttons (each with `data-option`) are
// marked, the others dimmed, and the first takes the focus.
function pickOptions(options, label) {
  const buttons = [...document.querySelectorAll("button[data-option]")];
  const chosen = buttons.filter((b) => options.includes(Number(b.dataset.option)));
  for (const b of buttons) {
    b.classList.toggle("picked", chosen.includes(b));
    b.classList.toggle("dimmed", !chosen.includes(b));
  }
  const hint = document.querySelector(".decision .pick-hint");
  if (hint) hint.textContent = `${options.length} options at ${label}: choose one of the marked buttons.`;
  if (chosen.length) {
    chosen[0].focus();
    chosen[0].scrollIntoView({ block: "nearest" });
  }
}
